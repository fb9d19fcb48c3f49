import type { GraderKind } from '@gradewise/shared/contracts/grading';
import type { AppContext } from '../context.ts';
import { countCurrentSavedGrades } from '../models/graded-examples.ts';
import { selectCurrentGrades } from '../models/grades.ts';
import { selectLatestSucceededRunsBySubmission, type GradingRunListRow } from '../models/grading-runs.ts';
import { selectUngradedLatestSubmissionIds } from '../models/grading-targets.ts';
import { selectLatestSubmissionsPerStudent } from '../models/submissions.ts';
import { selectLatestSuggestionRefresh, type SuggestionRefreshRow } from '../models/suggestion-refreshes.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { chosenProvider, describeProvider } from './course-ai.ts';

/** Where a question's suggestions stand, as read; presenters/suggestion-presenter.ts presents it. */
export interface SuggestionState {
  questionPoints: number;
  /** The newest finished suggestion of every current answer without a saved grade. */
  suggestions: readonly GradingRunListRow[];
  withoutSuggestion: number;
  savedGrades: number;
  grader: { graderKind: GraderKind; provider: string; model: string };
  refresh: SuggestionRefreshRow | undefined;
  resuggestable: number;
}

/**
 * GET suggestion-summary: where the question's AI suggestions stand — how many wait for review,
 * how many of those are expected to need a change, how many saved grades they learn from, and
 * the latest background refresh. Set-based queries, whatever the class size.
 */
export async function readSuggestionSummary(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<SuggestionState> {
  const { question, course } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see its suggestions',
  );
  const rows = await selectLatestSubmissionsPerStudent(ctx.db, question.id);
  const ids = rows.map((row) => row.submission.id);
  const [grades, succeededRuns, savedGrades, refresh, resuggestable] = await Promise.all([
    selectCurrentGrades(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
    countCurrentSavedGrades(ctx.db, question.id),
    selectLatestSuggestionRefresh(ctx.db, question.id),
    selectUngradedLatestSubmissionIds(ctx.db, question.id),
  ]);
  const ungraded = ids.filter((id) => !grades.has(id));
  const suggestions = ungraded.flatMap((id) => {
    const run = succeededRuns.get(id);
    return run ? [run] : [];
  });
  return {
    questionPoints: question.points,
    suggestions,
    withoutSuggestion: ungraded.length - suggestions.length,
    savedGrades,
    grader: describeProvider(chosenProvider(ctx.config, course)),
    refresh,
    resuggestable: resuggestable.length,
  };
}
