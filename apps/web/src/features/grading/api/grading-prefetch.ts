import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { isPrefetchOff } from '../../../lib/browser-storage.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { firstToReview } from '../components/review-queue-bar.tsx';
import { isReadWithoutGrading, startAnswerReads } from './grading-reads.ts';

/**
 * The answers worth reading ahead from the open one: the one Next opens, and the one Save Grade is
 * expected to move to (the first still ungraded in the queue's order), when that differs.
 */
export function answersToReadAhead(items: readonly ReviewQueueItem[], submissionId: string): ReviewQueueItem[] {
  const index = items.findIndex((item) => item.submissionId === submissionId);
  if (index < 0) return [];
  const next = items[index + 1];
  const afterSave = firstToReview(items, submissionId);
  const chosen = [next, afterSave].filter((item): item is ReviewQueueItem => Boolean(item));
  return chosen.filter(
    (item, position) => chosen.findIndex((other) => other.submissionId === item.submissionId) === position,
  );
}

/**
 * The open answer's screen reads the next answers of the queue while this one is read, so Next
 * (and Save Grade's move) draws their suggestion at once. Only once the open answer's own result is
 * shown (its reads go first), only in the queue, and only answers whose result is a read (see
 * isReadWithoutGrading). Asked again when the queue is read again: a grade saved or a suggestion
 * refreshed drops the results read ahead (refreshAfterGrading), and the queue is read after both.
 */
export function useReadAhead(options: {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  items: readonly ReviewQueueItem[];
  /** The queue read's time: a new read of the queue reads ahead again. */
  queueReadAt: number;
  enabled: boolean;
}): void {
  const queryClient = useQueryClient();
  const { assignmentId, questionId, submissionId, items, queueReadAt, enabled } = options;
  const targets = enabled ? answersToReadAhead(items, submissionId).filter(isReadWithoutGrading) : [];
  const targetIds = targets.map((item) => item.submissionId).join(',');
  useEffect(() => {
    if (!targetIds || isPrefetchOff()) return;
    for (const id of targetIds.split(','))
      startAnswerReads(queryClient, { assignmentId, questionId, submissionId: id }, { withResult: true });
  }, [queryClient, assignmentId, questionId, targetIds, queueReadAt]);
}

/**
 * When the screen of an answer closes, its result goes (the next opening reads the latest), as
 * gcTime 0 did before a result could be read ahead: after the current task, and only when no screen
 * took it meanwhile (React mounts the next answer's screen, or the same one twice, in one go).
 */
export function useResultDroppedOnClose(submissionId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () => () => {
      setTimeout(() => {
        const query = queryClient
          .getQueryCache()
          .find({ queryKey: queryKeys.grading.result(submissionId), exact: true });
        if (query && query.getObserversCount() === 0)
          queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
      });
    },
    [queryClient, submissionId],
  );
}
