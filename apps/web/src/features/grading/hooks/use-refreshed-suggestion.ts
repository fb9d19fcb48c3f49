import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import { gradingQueries, readGradingResult } from '../../../lib/queries/grading.ts';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';
import { useSuggestionSummary } from '../api/suggestions-api.ts';

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
 */
export function useRefreshedSuggestion({
  assignmentId,
  questionId,
  submissionId,
  shown,
  held,
  take,
  announce,
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
    // (setQueryData stops nothing; decision 0121).
    await queryClient.cancelQueries({ queryKey: result.queryKey, exact: true });
    refreshedRunId.current = fresh.gradingRunId;
    queryClient.setQueryData(result.queryKey, fresh);
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
  useSuggestionSummary(assignmentId, questionId, {
    enabled: isSuggestion && isPainted,
    onRefreshed: () => void readAgain(),
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
