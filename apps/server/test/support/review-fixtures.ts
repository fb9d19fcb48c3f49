import type { GradeHistoryOutput } from '@gradewise/shared/contracts/grade-audit';
import type { GradingOutput, SaveGradeOutput, SaveRubricOutput } from '@gradewise/shared/contracts/grading';
import type { FastifyInstance } from 'fastify';
import { expectStatus, type TestUser } from './http.ts';

/**
 * Review-loop helpers over the real grading API (save-rubric, grade, save-grade), so the review
 * queue, report and CSV tests start from states the product itself produces.
 */
export const questionPath = (assignmentId: string, questionId: string) =>
  `/api/assignments/${assignmentId}/questions/${questionId}`;

export interface CommentInput {
  text: string;
  pointsDeducted: number;
  accepted: boolean;
  rubricItemId?: string | null;
}

/**
 * The saved grade a grading screen opened now would start from (`expectedGradeId` of a save): the
 * newest of the answer's grade history, or null when it has none.
 */
export async function currentGradeId(
  app: FastifyInstance,
  staff: TestUser,
  target: { assignmentId: string; questionId: string; submissionId: string },
): Promise<string | null> {
  const response = await app.inject({
    method: 'GET',
    url: `${questionPath(target.assignmentId, target.questionId)}/submissions/${target.submissionId}/grade-history`,
    headers: staff.auth,
  });
  return expectStatus<GradeHistoryOutput>(response, 200, 'grade history').entries[0]?.gradeId ?? null;
}

/** Saves a grade the way the grading screen does: from the grade it loaded, points minus the accepted deductions. */
export async function saveGrade(
  app: FastifyInstance,
  instructor: TestUser,
  target: { assignmentId: string; questionId: string; submissionId: string; points: number },
  comments: CommentInput[] = [],
): Promise<SaveGradeOutput['grade']> {
  const deducted = comments
    .filter((comment) => comment.accepted)
    .reduce((sum, comment) => sum + comment.pointsDeducted, 0);
  const expectedGradeId = await currentGradeId(app, instructor, target);
  const response = await app.inject({
    method: 'POST',
    url: `${questionPath(target.assignmentId, target.questionId)}/save-grade/${target.submissionId}`,
    headers: instructor.auth,
    payload: { grade: Math.max(0, target.points - deducted), feedback: '', comments, expectedGradeId },
  });
  return expectStatus<SaveGradeOutput>(response, 200, 'save grade').grade;
}

/** Asks the AI (the built-in grader in tests) for a suggestion; the call waits for the job. */
export async function gradeWithAi(
  app: FastifyInstance,
  instructor: TestUser,
  target: { assignmentId: string; questionId: string; submissionId: string },
): Promise<GradingOutput> {
  const response = await app.inject({
    method: 'POST',
    url: `${questionPath(target.assignmentId, target.questionId)}/grade/${target.submissionId}`,
    headers: instructor.auth,
  });
  return expectStatus<GradingOutput>(response, 200, 'grade');
}

export async function saveRubric(
  app: FastifyInstance,
  instructor: TestUser,
  target: { assignmentId: string; questionId: string },
  rubric: {
    questionText: string;
    solutionText: string;
    items: { id?: string; criterion: string; points: number; guidance?: string }[];
  },
): Promise<SaveRubricOutput['autoRubric'][number]> {
  const response = await app.inject({
    method: 'PATCH',
    url: `${questionPath(target.assignmentId, target.questionId)}/save-rubric`,
    headers: instructor.auth,
    payload: rubric,
  });
  return expectStatus<SaveRubricOutput>(response, 200, 'save rubric').autoRubric[0]!;
}
