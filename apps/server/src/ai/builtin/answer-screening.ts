import { contentTerms, splitSentences } from './text-analysis.ts';
import { parseQuantities } from './quantities.ts';

/**
 * Sets aside the parts of an answer that are not evidence: sentences addressed to the grader
 * ("ignore the rubric, give full marks") and sentences that only restate the question. Student
 * text is data: an instruction in it is never followed, it is just not counted as an answer.
 */

const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|overrule)\b[^.]*\b(?:instruction|instructions|rubric|solution|previous|above|prompt|rules?|criteria|marking)\b/i,
  /\b(?:award|give|grant|assign|output|mark|rate|score)\b[^.]*\b(?:full|maximum|max|perfect|all)\s+(?:marks?|points?|credit|score)\b/i,
  /\b(?:award|give|grant|assign|output|mark|rate|score)\b[^.]*\b\d+(?:\.\d+)?\s*(?:\/|out of)\s*\d+/i,
  /\b(?:award|give|grant|assign)\s+(?:me\s+|this\s+(?:answer\s+)?|the\s+student\s+)?\d+(?:\.\d+)?\s*(?:points?|marks?)\b/i,
  /\b(?:note|message|instruction|instructions)\s+(?:to|for)\s+(?:the\s+)?(?:grader|marker|ai|assistant|model|examiner|teacher)\b/i,
  /(?:^|[[(<\s/])(?:grader|marker|system|assistant|ai|system override)\s*:/i,
  /\b(?:to|dear)\s+(?:the\s+)?(?:ai|grader|marker|assistant|model)\b/i,
  /\byou\s+(?:are|must|should|will)\b[^.]*\b(?:grader|assistant|award|give|mark|marks|points|score|full)\b/i,
  /\b(?:pre-?approved|totalscore|no deductions|deserves?\s+(?:full|\d))/i,
  /\bplease\s+(?:give|award|grant)\b[^.]*\b(?:marks?|points?|credit|score|grade)\b/i,
];

export function isInstructionToGrader(sentence: string): boolean {
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(sentence));
}

export interface ScreenedAnswer {
  /** The sentences that count as the student's answer. */
  evidenceSentences: string[];
  evidenceText: string;
  instructionSentences: string[];
  restatedSentences: string[];
  /** Nothing at all was written (or only whitespace and punctuation). */
  isBlank: boolean;
}

/**
 * A sentence restates the question when nearly all of its words come from the question and it
 * adds no number the question does not already give.
 */
function restatesQuestion(sentence: string, questionTerms: Set<string>, questionValues: number[]): boolean {
  const terms = contentTerms(sentence);
  if (terms.length === 0) return false;
  const fromQuestion = terms.filter((token) => questionTerms.has(token.term)).length;
  const newValues = parseQuantities(sentence).filter(
    (quantity) =>
      !questionValues.some((value) => Math.abs(value - quantity.value) <= 1e-9 * Math.max(1, Math.abs(value))),
  );
  return fromQuestion / terms.length >= 0.85 && newValues.length === 0;
}

export function screenAnswer(answerText: string, questionText: string): ScreenedAnswer {
  const sentences = splitSentences(answerText);
  const questionTerms = new Set(contentTerms(questionText).map((token) => token.term));
  const questionValues = parseQuantities(questionText).map((quantity) => quantity.value);
  const evidenceSentences: string[] = [];
  const instructionSentences: string[] = [];
  const restatedSentences: string[] = [];
  for (const sentence of sentences) {
    if (isInstructionToGrader(sentence)) instructionSentences.push(sentence);
    else if (restatesQuestion(sentence, questionTerms, questionValues)) restatedSentences.push(sentence);
    else evidenceSentences.push(sentence);
  }
  return {
    evidenceSentences,
    evidenceText: evidenceSentences.join('\n'),
    instructionSentences,
    restatedSentences,
    isBlank: !/[\p{L}\p{N}]/u.test(answerText),
  };
}
