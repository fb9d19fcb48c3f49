import { useEffect, useRef, useState } from 'react';
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
  /** Whether the instructor has changed the comments since the result was loaded. */
  isEdited: boolean;
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
 * suggestion is read again. Not edited: it replaces the one on screen (through the screen's own
 * query, so it loads like the first). Edited: it is held, and the screen offers to show it; the
 * instructor's changes are never thrown away unasked.
 */
export function useRefreshedSuggestion({
  assignmentId,
  questionId,
  submissionId,
  shown,
  isEdited,
  take,
  announce,
}: RefreshedSuggestionOptions) {
  const queryClient = useQueryClient();
  const [updated, setUpdated] = useState<GradingOutput | null>(null);
  // Read when a refresh lands, after the render that saw it: the latest values, not the first.
  const latest = useRef({ shown, isEdited, announce });
  useEffect(() => {
    latest.current = { shown, isEdited, announce };
  });
  const result = gradingQueries.result(assignmentId, questionId, submissionId);
  const isSuggestion = Boolean(shown && !shown.isAlreadyGraded);

  const readAgain = async () => {
    const before = latest.current.shown;
    if (!before || before.isAlreadyGraded) return;
    // POST grade answers the stored suggestion of an answer that has one: no AI call here.
    const fresh = await readGradingResult(assignmentId, questionId, submissionId).catch(() => null);
    if (!fresh || fresh.isAlreadyGraded || fresh.gradingRunId === before.gradingRunId) return;
    if (latest.current.shown !== before) return; // Replaced meanwhile (a regrade, a reload).
    if (latest.current.isEdited) {
      setUpdated(fresh);
      return;
    }
    queryClient.setQueryData(result.queryKey, fresh);
    latest.current.announce(UPDATED_SUGGESTION_MESSAGES.shown);
  };

  // Watched once the suggestion has been painted: its read and the render it brings are not part
  // of the screen's first view (decision 0091).
  const isPainted = useAfterPaint(isSuggestion);
  useSuggestionSummary(assignmentId, questionId, {
    enabled: isSuggestion && isPainted,
    onRefreshed: () => void readAgain(),
  });

  // A held suggestion is dropped once the screen shows another result (the held one, or a regrade's).
  const [heldFor, setHeldFor] = useState(shown);
  if (shown !== heldFor) {
    setHeldFor(shown);
    if (updated) setUpdated(null);
  }

  return {
    /** A refreshed suggestion held back because the comments were edited. */
    updated,
    /** Shows the held suggestion in place of the edited one. */
    show: () => {
      if (!updated) return;
      // Asked for: it replaces the edits (a read the screen gets by itself never does, decision 0112).
      take(updated);
      queryClient.setQueryData(result.queryKey, updated);
      latest.current.announce(UPDATED_SUGGESTION_MESSAGES.shown);
    },
  };
}
