import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { expect } from 'vitest';

/**
 * The review queue's order after the answers to grade first (presenters/review-presenter.ts,
 * decision 0097): the suggestions most likely to be far off first (the grader's chance of a big
 * miss, or for a grader without one the chance its confidence gives of not being kept), then the
 * lowest confidence. Fails unless `items`, all with a suggestion, stand in that order.
 */
export function expectMostDoubtfulFirst(items: readonly ReviewQueueItem[]): void {
  const keys = items.map((item) => {
    expect(item.confidenceLevel).toEqual(expect.any(Number));
    return { risk: item.missChance ?? 1 - item.confidenceLevel! / 100, confidence: item.confidenceLevel! };
  });
  const sorted = [...keys].sort((a, b) => b.risk - a.risk || a.confidence - b.confidence);
  expect(keys).toEqual(sorted);
}
