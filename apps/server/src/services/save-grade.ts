import type { SaveGradeInput } from '@gradewise/shared/contracts/grading';
import { computeFinalGrade } from '@gradewise/shared/final-grade';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import { insertGrade, type GradeRow } from '../models/grades.ts';
import { selectLatestSucceededRun, type StoredComment } from '../models/grading-runs.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import type { GradeParams } from './grade-submission.ts';

/** A grade and the grade its comments give may differ by rounding only. */
const GRADE_TOLERANCE = 0.01;

/**
 * POST save-grade/:submissionId: the instructor's decision. Each save is a NEW row in `grades`
 * (the newest is current), kept with who saved it and the AI run it started from, so a regrade or
 * a later save never erases what was decided before. The grade must be what its comments give —
 * points minus the accepted deductions (the shared computeFinalGrade) — within 0..points.
 */
export async function saveGrade(
  ctx: AppContext,
  user: UserRow,
  params: GradeParams,
  input: z.output<typeof SaveGradeInput>,
): Promise<{ grade: GradeRow; rubric: RubricRow | undefined }> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'save grades',
  );
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  const rubric = await selectRubricByQuestionId(ctx.db, question.id);
  const comments = checkedComments(input.comments, question.points);
  checkGrade(input.grade, question.points, comments);
  const run = await selectLatestSucceededRun(ctx.db, submission.id);
  const grade = await insertGrade(ctx.db, {
    id: newId(),
    submissionId: submission.id,
    grade: input.grade,
    feedback: input.feedback,
    comments,
    confidence: run?.confidence ?? null,
    gradingRunId: run?.id ?? null,
    savedById: user.id,
  });
  return { grade, rubric };
}

/**
 * Shape and range only. A rubricItemId is kept as sent even when the current rubric no longer has
 * that item: the comment may come from a run graded before the instructor edited the rubric, and
 * refusing it would make the grade impossible to save. It is shown without its item then.
 */
function checkedComments(comments: z.output<typeof SaveGradeInput>['comments'], points: number): StoredComment[] {
  const usedIds = new Set<string>();
  return comments.map((comment, index) => {
    if (comment.pointsDeducted < 0 || comment.pointsDeducted > points) {
      throw badRequest(`Comment ${index + 1}: points deducted must be between 0 and ${points}.`, [
        { path: `comments.${index}.pointsDeducted`, message: `must be between 0 and ${points}` },
      ]);
    }
    // Keep the client's comment id (it came from the AI run) unless it is missing or repeated.
    const given = comment._id ?? comment.id;
    const id = given && !usedIds.has(given) ? given : newId();
    usedIds.add(id);
    return {
      id,
      text: comment.text,
      pointsDeducted: comment.pointsDeducted,
      accepted: comment.accepted,
      rubricItemId: comment.rubricItemId ?? null,
    };
  });
}

function checkGrade(grade: number, points: number, comments: StoredComment[]): void {
  if (grade < 0 || grade > points) {
    throw badRequest(`The grade must be between 0 and ${points}.`, [
      { path: 'grade', message: `must be between 0 and ${points}` },
    ]);
  }
  const expected = computeFinalGrade(points, comments);
  if (Math.abs(grade - expected) > GRADE_TOLERANCE) {
    throw badRequest(
      `The grade (${grade}) does not match the comments: ${points} points minus the accepted deductions is ${expected}.`,
      [{ path: 'grade', message: `must be ${expected}` }],
    );
  }
}
