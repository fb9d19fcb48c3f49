import type { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import type { AppContext } from '../context.ts';
import { selectStatisticsSources } from '../models/grading-statistics.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleAssignment, loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { computeStatistics, type StatisticsQuestion } from './grade-statistics.ts';

/**
 * GET .../questions/:questionId/statistics and GET /api/assignments/:assignmentId/statistics.
 * Staff only: they compare graders and the AI, which is the course team's business, never a
 * student's. The figures carry no student identity at all, so anonymous grading needs no mask here.
 */
export async function readQuestionStatistics(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<StatisticsOutput> {
  const { course, question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see its statistics',
  );
  const all = await selectQuestionsOfAssignment(ctx.db, params.assignmentId);
  const position = all.findIndex((candidate) => candidate.id === question.id);
  const [described] = await describeQuestions(ctx, [question], position);
  return computeStatistics({
    scope: 'question',
    title: described!.label,
    questions: [described!],
    sources: await selectStatisticsSources(ctx.db, [question.id]),
    instructorId: course.instructorId,
  });
}

export async function readAssignmentStatistics(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string },
): Promise<StatisticsOutput> {
  const { course, assignment } = requireGrader(
    await loadVisibleAssignment(ctx.db, user, params.assignmentId),
    'see its statistics',
  );
  const questions = await selectQuestionsOfAssignment(ctx.db, assignment.id);
  return computeStatistics({
    scope: 'assignment',
    title: assignment.title,
    questions: await describeQuestions(ctx, questions, 0),
    sources: await selectStatisticsSources(
      ctx.db,
      questions.map((question) => question.id),
    ),
    instructorId: course.instructorId,
  });
}

/** Each question with its label ("Question N" when untitled, N its place in the assignment) and rubric items. */
async function describeQuestions(
  ctx: AppContext,
  questions: readonly QuestionRow[],
  firstPosition: number,
): Promise<StatisticsQuestion[]> {
  return Promise.all(
    questions.map(async (question, index) => ({
      id: question.id,
      label: question.title ?? `Question ${firstPosition + index + 1}`,
      points: question.points,
      rubricItems: (await selectRubricByQuestionId(ctx.db, question.id))?.items ?? [],
    })),
  );
}
