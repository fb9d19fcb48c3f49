import type { RubricTrialInput, RubricTrialOutput, RubricTrialResult } from '@gradewise/shared/contracts/review';
import { freshItemId, totalOfItems } from '@gradewise/shared/rubric-items';
import type { z } from 'zod';
import { newId } from '../lib/ids.ts';
import { courseProvider, graderOf, recordAiCost } from './course-ai.ts';
import { classAnswersFor, courseGradesFor } from './grading-input.ts';
import type { GradingInput, RubricItem } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import { AppError, badRequest, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import { selectUserById } from '../models/users.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { chargeProviderCalls, countInteractiveCall, spendScopeOf } from './ai-spend.ts';
import { readStudentIdentities } from './anonymous-grading.ts';
import { ensureFileExtraction } from './ensure-file-extraction.ts';

interface TrialAnswer {
  label: string;
  submissionId: string | null;
  text: string;
}

/**
 * POST rubric-trial: the wizard's "try it" step. Grades a pasted sample answer or up to three real
 * submissions with a rubric the instructor has not saved yet, and answers the suggestions.
 *
 * Nothing is stored and no job is queued on purpose: this is a preview of an unsaved rubric, not a
 * suggestion that could become a grade (those only come from grading runs on the saved rubric).
 * The calls run one after another, so a trial costs at most four grader calls and never floods the
 * provider; each trial counts as one AI call of the user and one provider call per answer (ai-spend.ts).
 */
export async function tryRubric(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  input: z.output<typeof RubricTrialInput>,
): Promise<RubricTrialOutput> {
  const scope = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'try its rubric',
  );
  const { question } = scope;
  const items = checkedItems(input.items, question.points);
  const answers = await collectAnswers(ctx, scope.assignment, question.id, input);
  // One call of this user, and with a provider one paid call per answer, all counted up front.
  const provider = courseProvider(ctx.config, scope.course);
  await countInteractiveCall(ctx, user.id);
  await chargeProviderCalls(ctx, spendScopeOf(scope, provider), answers.length);

  const grader = graderOf(provider);
  const classAnswers = await classAnswersFor(ctx, grader, question.id);
  const courseGrades = await courseGradesFor(ctx, grader, question.id);
  const results: RubricTrialResult[] = [];
  let graderInfo: RubricTrialOutput['grader'] | undefined;
  for (const answer of answers) {
    const gradingInput: GradingInput = {
      questionText: input.questionText,
      solutionText: input.solutionText,
      rubricItems: items,
      points: question.points,
      answerText: answer.text,
      classAnswers,
      courseGrades,
    };
    const call = await grader.requestGrading(gradingInput);
    await recordAiCost(
      ctx.db,
      {
        workId: newId(),
        kind: 'trial',
        course: { courseId: scope.course.id, instructorId: scope.course.instructorId },
        assignmentId: scope.assignment.id,
        questionId: question.id,
      },
      provider,
      call.meta,
    );
    const suggestion = grader.interpretGrading(call.rawOutput, gradingInput);
    graderInfo = { kind: call.meta.graderKind, provider: call.meta.provider, model: call.meta.model };
    const criterionOf = new Map(items.map((item) => [item.id, item.criterion]));
    results.push({
      label: answer.label,
      submissionId: answer.submissionId,
      comments: suggestion.comments.map((comment) => ({
        text: comment.text,
        pointsDeducted: comment.pointsDeducted,
        rubricItemId: comment.rubricItemId,
        criterion: comment.rubricItemId ? (criterionOf.get(comment.rubricItemId) ?? null) : null,
      })),
      totalScore: suggestion.totalScore,
      confidenceLevel: Math.round(suggestion.confidence),
    });
  }
  if (!graderInfo) throw new AppError('INTERNAL', 'The rubric trial produced no result.');
  return { grader: graderInfo, questionPoints: question.points, results };
}

function checkedItems(items: z.output<typeof RubricTrialInput>['items'], points: number): RubricItem[] {
  const { total, addsUp } = totalOfItems(
    items.map((item) => item.points),
    points,
  );
  if (!addsUp) {
    throw badRequest(`The rubric items add up to ${total} points, but the question is worth ${points} points.`, [
      { path: 'items', message: `must add up to ${points}` },
    ]);
  }
  // Unsaved items may have no id yet: number them so the grader's comments can point at them.
  const taken = new Set(items.flatMap((item) => (item.id ? [item.id] : [])));
  return items.map((item) => ({
    id: item.id ?? freshItemId(taken),
    criterion: item.criterion,
    points: item.points,
    guidance: item.guidance,
  }));
}

async function collectAnswers(
  ctx: AppContext,
  assignment: AssignmentRow,
  questionId: string,
  input: z.output<typeof RubricTrialInput>,
): Promise<TrialAnswer[]> {
  const answers: TrialAnswer[] = [];
  const sample = input.sampleAnswer?.trim();
  if (sample) answers.push({ label: 'Sample answer', submissionId: null, text: sample });
  for (const submissionId of new Set(input.submissionIds ?? [])) {
    // Only this question's submissions: an id from elsewhere is "not found", never read.
    const submission = isId(submissionId)
      ? await selectSubmissionInQuestion(ctx.db, questionId, submissionId)
      : undefined;
    if (!submission) throw notFound('Submission not found.');
    const extraction = await ensureFileExtraction(ctx, submission.fileId);
    if (extraction.status === 'failed') {
      throw new AppError('EXTRACTION_FAILED', extraction.error ?? 'The text of this PDF could not be read.');
    }
    const student = await selectUserById(ctx.db, submission.studentId);
    const identities = await readStudentIdentities(ctx, assignment, [submission.studentId]);
    const label = student ? identities.person(student).name : 'Student';
    answers.push({ label, submissionId: submission.id, text: extraction.text });
  }
  return answers;
}
