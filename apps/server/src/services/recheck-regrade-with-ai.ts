import type { RegradeAiRecheck } from '@gradewise/shared/contracts/regrades';
import { newId } from '../lib/ids.ts';
import { courseProvider, graderOf, recordAiCost } from './course-ai.ts';
import { buildGradingInput, classAnswersFor, courseGradesFor, readSavedGradeExamples } from './grading-input.ts';
import type { GradingInput } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { conflict } from '../lib/errors.ts';
import { selectCountingGrades } from '../models/grades.ts';
import { selectRegradeRequestById, updateRegradeAiRecheck } from '../models/regrade-requests.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { chargeProviderCalls, countInteractiveCall, spendScopeOf } from './ai-spend.ts';
import {
  loadRegradeRequestForStaff,
  loadStaffRegradeSources,
  type StaffRegradeSources,
} from './read-regrade-requests.ts';

/**
 * POST /api/regrade-requests/:id/ai-recheck: the configured grader looks again at ONLY the disputed
 * rubric item (the whole rubric for a whole-answer request) of the graded answer, and the result
 * is stored on the request as a draft for staff. It never changes a grade: staff read it and decide.
 *
 * One grader call, run while the request waits (like the rubric trial): it counts as one AI call of
 * the user and, with a provider, one paid call of the course (ai-spend.ts), refused with 429 before
 * anything is sent when a limit is reached. The prompt carries answers' text only, never a name or
 * an email: the student's answer and, for the whole answer, other students' graded answers as the
 * grading job sends them (decision 0118).
 */
export async function recheckRegradeWithAi(
  ctx: AppContext,
  user: UserRow,
  requestId: string,
): Promise<StaffRegradeSources> {
  const { row, scope, question } = await loadRegradeRequestForStaff(
    ctx,
    user,
    requestId,
    'ask the AI to check a regrade request',
  );
  if (row.status !== 'open') throw conflict('This regrade request was already resolved.');
  const rubric = await selectRubricByQuestionId(ctx.db, question.id);
  if (!rubric || rubric.items.length === 0) {
    throw conflict('This question has no rubric items yet, so the AI has nothing to check against.');
  }
  const item = row.rubricItemId ? rubric.items.find((candidate) => candidate.id === row.rubricItemId) : undefined;
  if (row.rubricItemId && !item) {
    throw conflict('The disputed rubric item is no longer in the rubric; check this request by hand.');
  }
  const counting = (await selectCountingGrades(ctx.db, [row.submissionId])).get(row.submissionId);
  const gradedId = counting?.gradedSubmissionId ?? row.submissionId;
  const submission = await selectSubmissionInQuestion(ctx.db, question.id, gradedId);
  if (!submission) throw conflict('The graded submission no longer exists.');
  // What the grading job reads for this answer (its text, the rubric, the question's saved grades of
  // other students as examples: never the student's own), read before anything is counted.
  const savedGrades = await readSavedGradeExamples(ctx, question.id);
  const { input: asGraded } = await buildGradingInput(ctx, { submission, question, rubric, savedGrades });

  const provider = courseProvider(ctx.config, scope.course);
  await countInteractiveCall(ctx, user.id);
  await chargeProviderCalls(ctx, spendScopeOf(scope, provider), 1);
  const grader = graderOf(provider);
  const classAnswers = await classAnswersFor(ctx, grader, question.id);
  const input: GradingInput = item
    ? {
        // One rubric item, out of its own points: the examples' whole-question scores do not fit it,
        // so none are passed and it is judged cold. The course's convention is for questions without
        // a saved grade: with other students' grades on this one it is not used (decision 0118).
        ...asGraded,
        rubricItems: [item],
        points: item.points,
        examples: undefined,
        classAnswers,
        courseGrades: asGraded.examples?.length ? undefined : await courseGradesFor(ctx, grader, question.id),
      }
    : {
        // The whole answer, as the grading job grades it: with saved grades of other students the
        // instructor's own level leads (an answer the same as another's graded one gets that grade),
        // and only without any does the built-in grader follow the course's convention.
        ...asGraded,
        classAnswers,
        courseGrades: await courseGradesFor(ctx, grader, question.id),
      };
  const call = await grader.requestGrading(input);
  await recordAiCost(
    ctx.db,
    {
      workId: newId(),
      kind: 'recheck',
      course: { courseId: scope.course.id, instructorId: scope.course.instructorId },
      assignmentId: question.assignmentId,
      questionId: question.id,
    },
    provider,
    call.meta,
  );
  const suggestion = grader.interpretGrading(call.rawOutput, input);
  const recheck: RegradeAiRecheck = {
    grader: { kind: call.meta.graderKind, provider: call.meta.provider, model: call.meta.model },
    score: suggestion.totalScore,
    points: input.points,
    confidenceLevel: Math.round(suggestion.confidence),
    comments: suggestion.comments.map((comment) => ({
      text: comment.text,
      pointsDeducted: comment.pointsDeducted,
      rubricItemId: comment.rubricItemId,
    })),
    createdAt: currentTime(ctx).toISOString(),
  };
  await updateRegradeAiRecheck(ctx.db, row.id, recheck);
  const [sources] = await loadStaffRegradeSources(ctx, [(await selectRegradeRequestById(ctx.db, row.id))!]);
  return sources!;
}
