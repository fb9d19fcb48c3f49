import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { queuePosition, ReviewQueueBar } from './components/review-queue-bar.tsx';

const item = (id: string, overrides: Partial<ReviewQueueItem> = {}): ReviewQueueItem => ({
  submissionId: id,
  student: { _id: `student-${id}`, name: `Student ${id}`, email: `${id}@example.edu` },
  isLate: false,
  status: 'needs-review',
  confidenceLevel: 70,
  missChance: 0.34,
  grade: null,
  ...overrides,
});

function renderBar(items: ReviewQueueItem[], openId: string) {
  const position = queuePosition(items, openId, items.length)!;
  render(<ReviewQueueBar position={position} onGo={() => undefined} />);
}

describe('ReviewQueueBar', () => {
  it('says why an answer comes where it does: its chance of being far off (decision 0097)', () => {
    renderBar([item('a'), item('b', { missChance: 0.12 })], 'a');
    expect(screen.getByText('Review queue: 1 of 2 · 2 left')).toBeInTheDocument();
    const chance = screen.getByText('34% chance of being far off');
    expect(chance).toHaveAttribute('title', expect.stringMatching(/more than 40% of the points/));
  });

  it('says nothing of it for an answer to grade first', () => {
    renderBar([item('a', { isGradeFirst: true, represents: 3 }), item('b', { missChance: null })], 'a');
    expect(screen.queryByText(/chance of being far off/)).not.toBeInTheDocument();
  });

  it('says nothing of it for a suggestion whose grader gives no chance', () => {
    renderBar([item('a', { missChance: null })], 'a');
    expect(screen.queryByText(/chance of being far off/)).not.toBeInTheDocument();
  });
});
