import type { RubricItem } from '../grader-types.ts';
import type { AnswerStatus } from './answer-status.ts';
import type { ItemEvidence, NumericOutcome } from './item-evidence.ts';
import { formatQuantity, type Quantity } from './quantities.ts';

/**
 * Comments an instructor can accept as written: each names the rubric item, says what is wrong
 * or missing in concrete terms (the value expected, the unit, the words or step not shown), and
 * nothing else. Fully met items get a short 0-point "correct" comment, so every item's judgement
 * is visible and can be declined.
 */

function cleanCriterion(criterion: string): string {
  const compact = criterion
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:;]+$/, '');
  return compact.length > 90 ? `${compact.slice(0, 87).trimEnd()}…` : compact;
}

/** Words worth quoting back: no single letters or symbols ("f", "x"). */
function readableTerms(terms: readonly string[]): string[] {
  return terms.filter((term) => /^[a-z][a-z0-9' ()-]{1,}$/i.test(term) || /^O\(/.test(term));
}

function listTerms(terms: readonly string[], limit = 3): string | null {
  const chosen = readableTerms(terms)
    .slice(0, limit)
    .map((term) => `"${term}"`);
  if (chosen.length === 0) return null;
  if (chosen.length === 1) return chosen[0]!;
  return `${chosen.slice(0, -1).join(', ')} and ${chosen.at(-1)}`;
}

function sameDimension(left: Quantity, right: Quantity): boolean {
  return (
    left.dimension !== null && right.dimension !== null && left.dimension.every((d, i) => d === right.dimension![i])
  );
}

/** The answer's value of the same kind as a missed target, to quote it back ("gives 2.14 s"). */
function answerValueFor(outcome: NumericOutcome, answerQuantities: readonly Quantity[]): Quantity | null {
  const reference = outcome.target.expected.find((quantity) => quantity.dimension !== null);
  if (!reference) return null;
  const candidates = answerQuantities.filter((quantity) => sameDimension(quantity, reference));
  return candidates.at(-1) ?? null;
}

/**
 * What is wrong with the item's values or formulas, without the criterion prefix. It says what
 * kind of flaw the answer's own value has, never the expected value or formula: a comment the
 * instructor accepts as written goes to the student (decision 0068).
 */
function numericProblem(evidence: ItemEvidence, answerQuantities: readonly Quantity[]): string | null {
  const numeric = evidence.numeric;
  if (!numeric) return null;
  const focus =
    numeric.outcomes.find((outcome) => outcome.target.isResult && outcome.match !== 'exact') ??
    (numeric.hasResults ? undefined : numeric.outcomes.find((outcome) => outcome.match !== 'exact'));
  const isFormulaMissing =
    numeric.expressions.length > 0 && !numeric.expressions.some((expression) => expression.isFound);
  const wrongFormula = numeric.formulaOutcomes.find((formula) => formula.outcome === 'wrong');
  if (!focus && wrongFormula) return `the formula given for ${wrongFormula.symbol} is not the expected result`;
  if (!focus) return !numeric.hasResults && isFormulaMissing ? 'the working does not show the relation it needs' : null;
  const actual = focus.actual ? formatQuantity(focus.actual) : null;
  switch (focus.match) {
    case 'missing-unit':
      return `the value ${actual} is right but has no unit`;
    case 'wrong-unit':
      return `the value ${actual} has the wrong unit`;
    case 'sign-error':
      return `the value ${actual} has the wrong sign`;
    case 'power-of-ten':
      return `the value ${actual} is off by a power of ten`;
    case 'rounded':
      return `the value ${actual} is rounded too far`;
    case 'none': {
      if (focus.target.isResult) {
        const given = focus.stated ?? answerValueFor(focus, answerQuantities);
        return given ? `the value ${formatQuantity(given)} is not the expected result` : 'the result is not given';
      }
      return isFormulaMissing
        ? 'the working does not show the relation it needs'
        : 'the working does not show this step';
    }
    default:
      return null;
  }
}

/**
 * One rubric item's comment: the item, in the rubric's words, and what the answer shows or lacks.
 * Never the reference's words, the model answer, or the expected value: the comment goes to the
 * student, and a list of what was missed would hand them the answer (decision 0068) — unless the
 * instructor turns on showing the expected answer for the question (withExpectedAnswer, decision 0088).
 */
export function itemComment(
  item: RubricItem,
  credit: number,
  evidence: ItemEvidence,
  answerQuantities: readonly Quantity[],
  /** What the item's own evidence found (0..1), before the total was spread over the items. */
  evidenceCredit = credit,
): string {
  const criterion = cleanCriterion(item.criterion);
  if (credit >= 1) {
    const shown = evidence.numeric?.outcomes.find((outcome) => outcome.match === 'exact' && outcome.target.isResult);
    return shown?.actual
      ? `${criterion}: correct — the answer gives ${formatQuantity(shown.actual)}.`
      : `${criterion}: shown.`;
  }
  if (evidence.keyElements) {
    const { shown, needed } = evidence.keyElements;
    return `${criterion}: the answer shows ${shown === 0 ? 'none' : shown} of the ${needed} asked for.`;
  }
  if (evidence.exampleEvidence !== null && !evidence.numeric) {
    return credit <= 0
      ? `${criterion}: no example is given.`
      : `${criterion}: the example is not clearly tied to the topic; make explicit how it shows the idea.`;
  }
  const numbers = numericProblem(evidence, answerQuantities);
  if (numbers) return `${criterion}: ${numbers}.`;
  const missingStep = evidence.missingSteps[0] ? ' A step of the expected reasoning is missing.' : '';
  // The words say what the answer shows of the item; the points are the total's, spread by evidence.
  return credit <= 0 || evidenceCredit <= 0
    ? `${criterion}: not shown in the answer.${missingStep}`
    : `${criterion}: partly shown — less complete or less precise than expected.${missingStep}`;
}

/** The reference's own wording, quoted back only when the instructor allows it: a sentence or two. */
const EXPECTED_WORDING_CHARS = 200;

/**
 * What the item expects, for a comment on a part not fully met — only when the instructor turned
 * on "show the expected answer in feedback" (decision 0088): the expected value of the result the
 * answer misses ("20 m/s"), else the reference's sentences for this item ("T = 2π√(L/g)"), else the
 * item's guidance. Null when the rubric gives nothing to quote.
 */
export function expectedAnswerOf(item: RubricItem, evidence: ItemEvidence | undefined): string | null {
  // A result only: an intermediate number alone ("2", from "2 pi") would say nothing useful.
  const missed = evidence?.numeric?.outcomes.find((outcome) => outcome.target.isResult && outcome.match !== 'exact');
  const value = missed?.target.expected[0];
  if (value) return formatQuantity(value);
  const sentences = evidence?.missingSteps.length ? evidence.missingSteps : (evidence?.alignedSolution ?? []);
  const wording = sentences.join(' ').replace(/\s+/g, ' ').trim() || item.guidance.replace(/\s+/g, ' ').trim();
  if (!wording) return null;
  return wording.length > EXPECTED_WORDING_CHARS
    ? `${wording.slice(0, EXPECTED_WORDING_CHARS - 1).trimEnd()}…`
    : wording;
}

/** A comment on a part not fully met, followed by what was expected ("… Expected: 20 m/s."). */
export function withExpectedAnswer(comment: string, expected: string | null): string {
  if (!expected) return comment;
  const text = expected.replace(/[.\s]+$/, '');
  return `${comment} Expected: ${text}${text.endsWith('…') ? '' : '.'}`;
}

export function statusComment(status: AnswerStatus, item: RubricItem, answerTopics: readonly string[]): string {
  const criterion = cleanCriterion(item.criterion);
  switch (status) {
    case 'blank':
      return `${criterion}: no answer was given.`;
    case 'near-empty':
      return `${criterion}: the answer is too short to show this.`;
    case 'restates-question':
      return `${criterion}: the answer only repeats the question and does not answer it.`;
    case 'does-not-know':
      return `${criterion}: not answered — the answer says the student does not know.`;
    case 'instructions-only':
      return `${criterion}: not answered — the answer only contains a request to the grader, which earns no credit.`;
    case 'off-topic': {
      const topics = answerTopics.length >= 2 ? listTerms(answerTopics, 2) : null;
      return topics
        ? `${criterion}: not addressed — the answer is off-topic (it talks about ${topics}).`
        : `${criterion}: not addressed — nothing in the answer relates to the question.`;
    }
    default:
      return `${criterion}: not shown.`;
  }
}
