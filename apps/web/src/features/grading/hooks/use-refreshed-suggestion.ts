import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { gradingQueries, readGradingResult } from '../../../lib/queries/grading.ts';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';
import { isRefreshing, useSuggestionSummary } from '../api/suggestions-api.ts';

export const UPDATED_SUGGESTION_MESSAGES = {
  available: 'Updated suggestion available',
  replaces: 'Showing it replaces your changes.',
  show: 'Show',
  shown: 'The suggestion was updated from your latest grades.',
} as const;

export interface RefreshedSuggestionOptions {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  /** The result on screen: only an AI suggestion (not a saved grade) is watched. */
  shown: GradingOutput | null;
  /** The newest read kept off the screen by the instructor's edits (the session's `heldRead`). */
  held: GradingOutput | null;
  /** Shows a result in place of the one on screen, edits and all (the session's `take`). */
  take(output: GradingOutput): void;
  /** Tells screen readers the suggestion on screen was replaced. */
  announce(text: string): void;
  /**
   * This screen's Save Grade is out or stored: the answer's own grade is saved, so what the server
   * counts no longer says anything about the suggestion still on screen.
   */
  isSaved: boolean;
}

/**
 * Each save starts a background refresh of the question's suggestions (decision 0079). The grading
 * screen reads its answer's suggestion once, on opening, so a refresh that lands while it is open
 * would be missed (decision 0085): while an AI suggestion is on screen, the question's suggestion
 * summary is watched (polled only while a refresh runs), and when a refresh lands the open answer's
 * suggestion is read again into the screen's own query, so it loads like the first. Whether it
 * replaces the one on screen is the session's to say, as it draws it (decision 0117): not edited,
 * it does; edited, it is held, and offered here; the instructor's changes are never thrown away
 * unasked.
 *
 * A refresh can also start and finish between two reads of the summary (another person's save):
 * no watcher sees it running. So the summary is also compared with the suggestion on screen, by the
 * server's own rule (a suggestion is up to date when it was made with as many examples as there
 * are saved grades, presenters/suggestion-presenter.ts), and the answer is read again once when they
 * differ (decision 0122).
 */
export function useRefreshedSuggestion({
  assignmentId,
  questionId,
  submissionId,
  shown,
  held,
  take,
  announce,
  isSaved,
}: RefreshedSuggestionOptions) {
  const queryClient = useQueryClient();
  // Read when a refresh lands, after the render that saw it: the latest values, not the first.
  const latest = useRef({ shown, announce });
  useEffect(() => {
    latest.current = { shown, announce };
  });
  const result = gradingQueries.result(assignmentId, questionId, submissionId);
  const isSuggestion = Boolean(shown && !shown.isAlreadyGraded);
  // The run a landed refresh read, until the screen has shown or held it.
  const refreshedRunId = useRef<string | null>(null);

  const readAgain = async () => {
    const before = latest.current.shown;
    if (!before || before.isAlreadyGraded) return;
    // POST grade answers the stored suggestion of an answer that has one: no AI call here.
    const fresh = await readGradingResult(assignmentId, questionId, submissionId).catch(() => null);
    if (!fresh || fresh.isAlreadyGraded || fresh.gradingRunId === before.gradingRunId) return;
    if (latest.current.shown !== before) return; // Replaced meanwhile (a regrade, a reload).
    // A read of the answer's query still out (a Reload, the read after an Undo) may have been served
    // before the refresh landed: stopped, or its answer would land over this newer suggestion
    // (setQueryData stops nothing; decision 0121). Stopping puts the query's previous data back at
    // once, and whoever awaits the stopped read (Reload) is answered with the query's data a few
    // microtasks later: the newer suggestion is stored in the same step, not after awaiting the
    // stop, or Reload would take the older one it was answered with (decision 0122).
    const stopped = queryClient.cancelQueries({ queryKey: result.queryKey, exact: true });
    refreshedRunId.current = fresh.gradingRunId;
    queryClient.setQueryData(result.queryKey, fresh);
    await stopped;
  };
  // The summary the answer was last read again after: one read per summary, whether the watcher saw
  // its refresh land or the comparison below found the suggestion behind it (both can in one commit).
  const readAfter = useRef<SuggestionSummary | undefined>(undefined);
  const readAgainAfter = (summary: SuggestionSummary | undefined) => {
    if (summary && summary === readAfter.current) return;
    readAfter.current = summary;
    void readAgain();
  };

  // Said once the screen has shown it in place of the one it had (not when it was held).
  useEffect(() => {
    const runId = refreshedRunId.current;
    if (!runId) return;
    if (shown?.gradingRunId === runId) latest.current.announce(UPDATED_SUGGESTION_MESSAGES.shown);
    if (shown?.gradingRunId === runId || held?.gradingRunId === runId) refreshedRunId.current = null;
  }, [shown, held]);

  // Watched once the suggestion has been painted: its read and the render it brings are not part
  // of the screen's first view (decision 0091).
  const isPainted = useAfterPaint(isSuggestion);
  const summary = useSuggestionSummary(assignmentId, questionId, {
    enabled: isSuggestion && isPainted,
    onRefreshed: readAgainAfter,
  });

  // The comparison (decision 0122). Only a summary read since this screen opened (a cached one may
  // predate the answer's read), with no refresh under way (the watcher reads when it lands), and
  // with the built-in grader (with an LLM the refresh re-suggests nothing: a difference stays). The
  // answer is read again once per summary (an equal summary read again is the same object, TanStack
  // Query's structural sharing): a suggestion that stays behind (its refresh failed, or a graded
  // answer's text is not read yet, counted but no example) is not read again in a loop. Not
  // after this screen's own save: its answer is no longer a suggestion to refresh.
  const { data: counted, isFetchedAfterMount } = summary;
  useEffect(() => {
    if (!counted || !isFetchedAfterMount || isRefreshing(counted) || !counted.refreshesAutomatically) return;
    if (!shown || shown.isAlreadyGraded || isSaved || shown.examplesUsed === undefined) return;
    if (shown.examplesUsed !== counted.savedGrades) readAgainAfter(counted);
  });

  // Offered: a newer suggestion than the one on screen, held because the comments were edited.
  const updated =
    held && shown && isSuggestion && !held.isAlreadyGraded && held.gradingRunId !== shown.gradingRunId ? held : null;

  return {
    /** A refreshed suggestion held back because the comments were edited. */
    updated,
    /** Shows the held suggestion in place of the edited one. */
    show: () => {
      if (!updated) return;
      // Asked for: it replaces the edits (a read the screen gets by itself never does, decision 0112).
      take(updated);
      latest.current.announce(UPDATED_SUGGESTION_MESSAGES.shown);
    },
  };
}
