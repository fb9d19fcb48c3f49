import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { gradingQueries } from '../../../lib/queries/grading.ts';
import { questionQueries } from '../../../lib/queries/questions.ts';
import { afterFirstView } from '../../../lib/after-first-view.ts';

/**
 * Reading an answer before its screen opens (issue 29 part 4, decision 0079): the grading screen's
 * own reads (the question with the submission, POST grade, the PDF), started earlier, never other
 * routes and never the lease: a prefetch is the same authorized call the screen makes on opening,
 * and only the screen that shows an answer says "Open by …".
 *
 * How long a result read ahead is kept with no screen showing it. Results are otherwise dropped as
 * their screen closes (gcTime 0 in `gradingQueries.result`), so the next opening reads the latest.
 */
export const READ_AHEAD_KEEP_MS = 60_000;

/**
 * How long the queue and the answer groups the route has just read count as fresh for the screen
 * that mounts: without it the screen read both again as it mounted (React Query's default staleTime
 * is 0), two more 300-row answers to check and draw before the largest paint. A save, an undo or
 * anything else that changes them invalidates them (refreshAfterGrading), which reads again at once.
 */
export const ROUTE_READ_FRESH_MS = 3_000;

/**
 * POST grade answers what is stored — a saved grade or a finished suggestion — without an AI call
 * for these; for the others ('not-graded', 'failed', 'grading') it starts or joins a run, which
 * counts against the AI limits, so it is left to the person who opens the answer.
 */
export function isReadWithoutGrading(item: Pick<ReviewQueueItem, 'status'>): boolean {
  return item.status === 'needs-review' || item.status === 'graded';
}

/**
 * Starts what the grading screen of one answer reads: the question with the submission and, when
 * `withResult`, POST grade (kept READ_AHEAD_KEEP_MS for the screen to take). Once the submission is
 * known its PDF is fetched too, into the browser's cache (the file route allows a private hour), so
 * the PDF viewer's first page does not wait for the network (unless `withPdf` is false: the open
 * answer's screen reads its own, usePdfReadAfterFirstView). Returns at once; failures are left to
 * the screen, which reads again and says them.
 */
export function startAnswerReads(
  queryClient: QueryClient,
  ids: { assignmentId: string; questionId: string; submissionId: string },
  { withResult, withQueue = false, withPdf = true }: { withResult: boolean; withQueue?: boolean; withPdf?: boolean },
): void {
  const { assignmentId, questionId, submissionId } = ids;
  const queue = gradingQueries.queue(assignmentId, questionId);
  if (withQueue && queryClient.getQueryData(queue.queryKey) === undefined) void queryClient.prefetchQuery(queue);
  if (withResult)
    void queryClient.prefetchQuery({
      ...gradingQueries.result(assignmentId, questionId, submissionId),
      gcTime: READ_AHEAD_KEEP_MS,
    });
  // Not again while a copy read ahead is fresh (its PDF was fetched with it); the screen itself
  // reads the submission again on opening.
  const submission = questionQueries.submission(assignmentId, questionId, submissionId);
  const readAt = queryClient.getQueryState(submission.queryKey)?.dataUpdatedAt ?? 0;
  if (Date.now() - readAt < READ_AHEAD_KEEP_MS) return;
  void queryClient
    .fetchQuery(submission)
    .then((page) => {
      const row =
        page.viewer === 'staff' ? page.submissions?.find((candidate) => candidate._id === submissionId) : null;
      if (withPdf && row?.file) readPdfIntoCache(row.file);
    })
    .catch(() => undefined);
}

/**
 * The grading screen's first reads, started by its route as the navigation starts (router.tsx), not
 * after its code has arrived: the question with the submission, POST grade, the answer groups and,
 * in the queue, the queue go out at once, beside the session check and the screen's code, instead
 * of one after the other behind the dialog's 45 files; the PDF follows the submission. Nothing when no session is
 * stored (the route sends the person to sign in). What was read ahead is not read again.
 */
export function startGradingScreen(
  queryClient: QueryClient,
  ids: { assignmentId: string; questionId: string; submissionId: string },
  inQueue: boolean,
): void {
  // Not the PDF: the screen reads it after its first view (usePdfReadAfterFirstView).
  startAnswerReads(queryClient, ids, { withResult: true, withQueue: inQueue, withPdf: false });
  // The answer's group notice is drawn with the result, above the comments: read with it, so it
  // does not arrive later and push the comments down (a layout shift Lighthouse counted, 0.07).
  // Only this answer's group, not every group with its members (decision 0095).
  const group = gradingQueries.answerGroupOf(ids.assignmentId, ids.questionId, ids.submissionId);
  if (queryClient.getQueryData(group.queryKey) === undefined) void queryClient.prefetchQuery(group);
}

/** An answer's PDF into the browser's cache; a failure is the viewer's to say when it reads it. */
function readPdfIntoCache(file: string): void {
  void fetch(file, { credentials: 'same-origin' })
    .then((response) => response.blob())
    .catch(() => undefined);
}

/**
 * The open answer's PDF into the cache once the screen's first view is on screen (afterFirstView;
 * called by the view that mounts with it), not with the route's first reads: the PDF viewer's code
 * (pdf.js) is asked for after that view anyway, and on a phone the answer is not on it. Before it,
 * the PDF shared the slow line with what the first view waits for (decision 0125).
 */
export function usePdfReadAfterFirstView(file: string): void {
  const queryClient = useQueryClient();
  useEffect(() => afterFirstView(queryClient, () => readPdfIntoCache(file)), [queryClient, file]);
}
