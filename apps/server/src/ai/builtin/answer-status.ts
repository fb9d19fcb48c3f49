/**
 * What the built-in grader found an answer to be before judging it. Its own module because the
 * grader and the course's convention (course-convention.ts) both ask which statuses are judged.
 */
export type AnswerStatus =
  'answered' | 'blank' | 'near-empty' | 'off-topic' | 'restates-question' | 'instructions-only' | 'does-not-know';

/** Statuses with nothing to judge: no words, only the question again, only words to the grader. */
export const NOTHING_TO_JUDGE: ReadonlySet<string> = new Set<AnswerStatus>([
  'blank',
  'restates-question',
  'instructions-only',
  'does-not-know',
]);
