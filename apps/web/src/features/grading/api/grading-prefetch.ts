import { useEffect } from 'react';
import { useIsMutating, useQueryClient } from '@tanstack/react-query';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { isPrefetchOff } from '../../../lib/browser-storage.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { saveGradeKey } from './grading-api.ts';
import { isReadWithoutGrading, startAnswerReads } from './grading-reads.ts';

/**
 * The open answer's screen reads the queue's next answer (the one Next opens) while this one is
 * read, so Next draws its suggestion at once. Only once the open answer's own result is shown (its
 * reads go first), only in the queue, and only an answer whose result is a read (see
 * isReadWithoutGrading). Asked again when the queue is read again: a grade saved or a suggestion
 * refreshed drops the results read ahead (refreshAfterGrading), and the queue is read after both.
 *
 * Not while this answer's save is out, nor while what shows grades is read again after it: a read
 * made then can predate what the save changed (the suggestions its background refresh re-makes, and
 * the summary that says whether that refresh has landed). The save drops every result read ahead as
 * it answers; the read ahead once it is done, from the queue read after it, is what Save Grade's move
 * opens when it goes to that answer: one read of it, not a second by the route (decision 0121).
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
  // Out until its onSuccess (refreshAfterGrading's reads) has finished: the mutation is pending till then.
  const isSaving = useIsMutating({ mutationKey: saveGradeKey(submissionId) }) > 0;
  const index = items.findIndex((item) => item.submissionId === submissionId);
  const next = enabled && !isSaving && index >= 0 ? items[index + 1] : undefined;
  const nextId = next && isReadWithoutGrading(next) ? next.submissionId : null;
  useEffect(() => {
    if (!nextId || isPrefetchOff()) return;
    startAnswerReads(queryClient, { assignmentId, questionId, submissionId: nextId }, { withResult: true });
  }, [queryClient, assignmentId, questionId, nextId, queueReadAt]);
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
