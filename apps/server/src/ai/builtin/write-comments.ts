import type { RubricItem } from '../grader-types.ts';
import type { AnswerStatus } from './grade-answer.ts';
import { describeTarget, type ItemEvidence, type NumericOutcome } from './item-evidence.ts';
import { formatQuantity, type Quantity } from './quantities.ts';
import { contentTerms } from './text-analysis.ts';

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

/** What is wrong with the item's values or formulas, without the criterion prefix. */
function numericProblem(evidence: ItemEvidence, answerQuantities: readonly Quantity[]): string | null {
  const numeric = evidence.numeric;
  if (!numeric) return null;
  const focus =
    numeric.outcomes.find((outcome) => outcome.target.isResult && outcome.match !== 'exact') ??
    (numeric.hasResults ? undefined : numeric.outcomes.find((outcome) => outcome.match !== 'exact'));
  const missingFormula = numeric.expressions.some((expression) => expression.isFound)
    ? undefined
    : numeric.expressions[0]?.expression;
  if (!focus) return !numeric.hasResults && missingFormula ? `the working does not show ${missingFormula}` : null;
  const expected = describeTarget(focus.target);
  const actual = focus.actual ? formatQuantity(focus.actual) : null;
  switch (focus.match) {
    case 'missing-unit':
      return `the value ${actual} is right but has no unit; it should be ${expected}`;
    case 'wrong-unit':
      return `the value ${actual} has the wrong unit; it should be ${expected}`;
    case 'sign-error':
      return `sign error — the answer gives ${actual}, but it should be ${expected}`;
    case 'power-of-ten':
      return `the answer gives ${actual}, which is off by a power of ten; it should be ${expected}`;
    case 'rounded':
      return `the answer gives ${actual}, rounded too far; it should be about ${expected}`;
    case 'none': {
      if (focus.target.isResult) {
        const given = answerValueFor(focus, answerQuantities);
        return given
          ? `the answer gives ${formatQuantity(given)}, but it should be ${expected}`
          : `the expected value ${expected} is not given`;
      }
      return missingFormula
        ? `the working does not show ${missingFormula} (or the value ${expected})`
        : `the working does not show ${expected}`;
    }
    default:
      return null;
  }
}

/** "e.g. pushing a wall, a rocket" from the guidance, to suggest what an example could be. */
function exampleHint(guidance: string): string {
  const list = /\b(?:e\.\s?g\.?|such as|for example|for instance)\s*([^.;)]+)/i.exec(guidance)?.[1]?.trim();
  return list ? ` (for instance ${list})` : '';
}

export function itemComment(
  item: RubricItem,
  credit: number,
  evidence: ItemEvidence,
  answerQuantities: readonly Quantity[],
  questionText = '',
): string {
  const criterion = cleanCriterion(item.criterion);
  // Words the question or the criterion already say ("names", "unit", "migrate") tell the student
  // nothing about what is missing.
  const alreadySaid = new Set(contentTerms(`${questionText} ${item.criterion}`).map((token) => token.display));
  const missingTerms = evidence.missingTerms.filter((term) => !alreadySaid.has(term));
  if (credit >= 1) {
    const shown = evidence.numeric?.outcomes.find((outcome) => outcome.match === 'exact' && outcome.target.isResult);
    if (shown?.actual) return `${criterion}: correct — the answer gives ${formatQuantity(shown.actual)}.`;
    const covered = listTerms(evidence.foundTerms);
    return covered ? `${criterion}: correct — the answer covers ${covered}.` : `${criterion}: correct.`;
  }

  if (evidence.exampleEvidence !== null && !evidence.numeric) {
    return credit <= 0
      ? `${criterion}: no example is given${exampleHint(item.guidance)}.`
      : `${criterion}: the example is not clearly tied to the topic; make explicit how it shows the idea${exampleHint(item.guidance)}.`;
  }

  const numbers = numericProblem(evidence, answerQuantities);
  const missingWords = listTerms(missingTerms);
  // Never quote the solution: a comment the instructor accepts as written goes to the student, and
  // a quoted step would hand them the model answer. Say that a step is missing, in the rubric's words.
  const missingStep = evidence.missingSteps[0] ? ' A step of the expected reasoning is missing.' : '';
  if (numbers && (evidence.numeric?.hasResults || !missingWords)) return `${criterion}: ${numbers}.`;
  if (credit <= 0) {
    const words = missingWords ? `the answer does not mention ${missingWords}` : 'this is not shown in the answer';
    return `${criterion}: not shown — ${words}${numbers ? `, and ${numbers}` : ''}.${missingStep}`;
  }
  const found = listTerms(evidence.foundTerms, 2);
  const lead = found ? `it mentions ${found} but does not explain` : 'it does not explain';
  return missingWords
    ? `${criterion}: only partly shown — ${lead} ${missingWords}${numbers ? `; also, ${numbers}` : ''}.`
    : `${criterion}: partly shown — less complete or less precise than the expected answer.${missingStep}`;
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
