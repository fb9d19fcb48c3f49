import type { AppContext } from '../context.ts';
import { updateQuestionShowExpectedAnswer } from '../models/questions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { courseGradesWithBuiltin } from './course-ai.ts';
import { requestSuggestionRefresh } from './refresh-suggestions.ts';

/**
 * PATCH feedback-settings (decision 0088): whether the grader's comments on this question may
 * state the expected answer. The owner's call, like the rubric: what students are told about the
 * model answer is the instructor's decision; a TA reads the setting but may not change it.
 *
 * Only comment text depends on it, never a score. A change reaches the pending suggestions the way
 * a saved grade does: with the built-in grader (free, local) they are written again in the
 * background; with an LLM nothing is called by itself (cost), and the next grading or an explicit
 * re-suggest uses the new setting.
 */
export async function changeQuestionFeedback(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  settings: { showExpectedAnswer: boolean },
): Promise<{ showExpectedAnswer: boolean; refreshQueued: boolean }> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'change what its comments show',
  );
  if (question.showExpectedAnswer === settings.showExpectedAnswer) {
    return { showExpectedAnswer: question.showExpectedAnswer, refreshQueued: false };
  }
  const updated = await updateQuestionShowExpectedAnswer(ctx.db, question.id, settings.showExpectedAnswer);
  const refreshQueued = await courseGradesWithBuiltin(ctx, question.id);
  if (refreshQueued) await requestSuggestionRefresh(ctx, question.id, user.id);
  return { showExpectedAnswer: updated.showExpectedAnswer, refreshQueued };
}
