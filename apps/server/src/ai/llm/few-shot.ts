import type { GradedExample } from '../grader-types.ts';

/**
 * Few-shot examples for the LLM grader: of the instructor's saved grades on a question, the ones
 * whose answers are most like the answer being graded. The model then sees how this instructor
 * scored and commented answers like it, at the cost of a few hundred tokens per example.
 */

/** More examples cost tokens on every call and add little once the nearest ones are in. */
export const MAX_FEW_SHOT_EXAMPLES = 5;
/** An example answer longer than this is cut: its opening shows the standard well enough. */
export const FEW_SHOT_ANSWER_CHARS = 1500;
export const FEW_SHOT_COMMENTS = 6;
export const FEW_SHOT_COMMENT_CHARS = 400;

const STOP_WORDS = new Set(
  (
    'a an and are as at be by for from has have i in is it its of on or so that the their then there these this ' +
    'to was we were which with you your our can will would should could into than also not no do does did been ' +
    'being if but because while when what how why who whom where'
  ).split(' '),
);

/** Lower-cased words (accents folded), stop words dropped, a plural "s" trimmed; numbers kept. */
export function lexicalTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu);
  for (const word of words ?? []) {
    if (STOP_WORDS.has(word) || (word.length < 2 && !/\p{N}/u.test(word))) continue;
    const term = word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** Cosine similarity of two term-count vectors with sublinear counts (1 + ln n); 0 when one is empty. */
export function cosineSimilarity(a: Map<string, number>, b: Map<string, number>): number {
  const weight = (count: number) => 1 + Math.log(count);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, count] of a) {
    normA += weight(count) ** 2;
    const other = b.get(term);
    if (other !== undefined) dot += weight(count) * weight(other);
  }
  for (const count of b.values()) normB += weight(count) ** 2;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * Up to `limit` examples, most similar to the answer first (ties keep the given order, newest
 * saved first). Deterministic: the same answer and examples always give the same prompt.
 */
export function selectSimilarExamples(
  answerText: string,
  examples: readonly GradedExample[],
  limit = MAX_FEW_SHOT_EXAMPLES,
): GradedExample[] {
  if (examples.length <= 0 || limit <= 0) return [];
  const answerTerms = lexicalTerms(answerText);
  return examples
    .map((example, index) => ({
      example,
      index,
      score: cosineSimilarity(answerTerms, lexicalTerms(example.answerText)),
    }))
    .sort((x, y) => y.score - x.score || x.index - y.index)
    .slice(0, limit)
    .map((entry) => entry.example);
}

export function truncate(text: string, maxChars: number): string {
  const trimmed = text.trim();
  return trimmed.length <= maxChars ? trimmed : `${trimmed.slice(0, maxChars).trimEnd()} […]`;
}
