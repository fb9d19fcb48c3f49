import { z } from 'zod';
import {
  recordSuggestionRefreshFailure,
  selectUnfinishedSuggestionRefreshIds,
} from '../models/suggestion-refreshes.ts';
import { runSuggestionRefresh } from '../services/refresh-suggestions.ts';
import type { JobDefinition } from './job-definition.ts';
import { JOB_NAMES } from './job-names.ts';

/**
 * Re-suggests a question's pending answers with the built-in grader after a grade was saved: the
 * payload names a suggestion_refreshes row.
 */
export const refreshSuggestionsJob: JobDefinition<{ id: string }> = {
  name: JOB_NAMES.refreshSuggestions,
  payload: z.object({ id: z.uuid() }),
  // Retries cover crashes and a refresh of the same question still running (RefreshBusyError).
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  // A class of a few hundred answers, graded locally, with OCR already done by Grade All.
  expireInSeconds: 15 * 60,
  // One at a time per process: refreshes are cheap, and the grading workers stay free for
  // the instructor's own requests.
  concurrency: () => 1,
  handle: (ctx, payload, attempt) => runSuggestionRefresh(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) =>
    recordSuggestionRefreshFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedSuggestionRefreshIds(ctx.db),
};
