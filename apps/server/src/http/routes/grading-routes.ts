import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  GenerateRubricOutput,
  GradeAllOutput,
  GradingOutput,
  GradingProgressOutput,
  GradingProgressQuery,
  SaveGradeInput,
  SaveGradeOutput,
  SaveRubricInput,
  SaveRubricOutput,
  UndoSaveGradeInput,
  UndoSaveGradeOutput,
} from '@gradewise/shared/contracts/grading';
import { ConfirmCostInput } from '@gradewise/shared/contracts/ai-cost';
import type { AppContext } from '../../context.ts';
import {
  presentAutoRubric,
  presentGrader,
  presentGradingAnswer,
  presentProgress,
  presentSavedGrade,
} from '../../presenters/grading-presenter.ts';
import { generateRubric } from '../../services/generate-rubric.ts';
import { gradeAll, readGradingProgress } from '../../services/grade-all.ts';
import { gradeSubmission, regradeSubmission } from '../../services/grade-submission.ts';
import { saveGrade } from '../../services/save-grade.ts';
import { saveRubric } from '../../services/save-rubric.ts';
import { undoGradeSave } from '../../services/undo-grade-save.ts';
import { currentUser } from '../access.ts';
import { aiCostRoutes } from './ai-cost-routes.ts';
import { questionFeedbackRoutes } from './question-feedback-routes.ts';
import { QuestionParams, SubmissionParams } from './route-params.ts';

const BASE = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * Spec section 7's grading calls. Access is 'user' on purpose: the course policy decides, so a
 * stranger gets 404 and an enrolled student 403 ("only the instructor of this course can ...").
 * generate-rubric, grade and regrade wait for their durable job and answer its result.
 */
export function gradingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // What AI work costs, its provider and Stop (issue 31) live beside the grading routes.
    await app.register(aiCostRoutes(ctx));
    // What the grader's comments may say of the expected answer (decision 0088) is a grading setting.
    await app.register(questionFeedbackRoutes(ctx));

    app.post(
      `${BASE}/generate-rubric`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: GenerateRubricOutput } } },
      async (request) => {
        const { rubric, generation } = await generateRubric(ctx, currentUser(request), request.params);
        return {
          message: 'Rubric generated successfully!',
          autoRubric: presentAutoRubric(rubric),
          grader: presentGrader(generation)!,
        };
      },
    );

    app.patch(
      `${BASE}/save-rubric`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, body: SaveRubricInput, response: { 200: SaveRubricOutput } },
      },
      async (request) => {
        const { rubric, regraded } = await saveRubric(ctx, currentUser(request), request.params, request.body);
        return {
          message: 'Rubric saved successfully!',
          autoRubric: presentAutoRubric(rubric),
          regradedCount: regraded.length,
        };
      },
    );

    app.post(
      `${BASE}/grade/:submissionId`,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: GradingOutput } } },
      async (request) => presentGradingAnswer(await gradeSubmission(ctx, currentUser(request), request.params)),
    );

    app.post(
      `${BASE}/regrade/:submissionId`,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: GradingOutput } } },
      async (request) => presentGradingAnswer(await regradeSubmission(ctx, currentUser(request), request.params)),
    );

    app.post(
      `${BASE}/save-grade/:submissionId`,
      {
        config: { access: 'user' },
        schema: { params: SubmissionParams, body: SaveGradeInput, response: { 200: SaveGradeOutput } },
      },
      async (request) => {
        const user = currentUser(request);
        const { grade, rubric } = await saveGrade(ctx, user, request.params, request.body);
        return { message: 'Grade saved successfully!', grade: presentSavedGrade(grade, user, rubric) };
      },
    );

    // Not in the spec: the toast's Undo after a save, by the grader who saved (decision 0032).
    app.post(
      `${BASE}/save-grade/:submissionId/undo`,
      {
        config: { access: 'user' },
        schema: { params: SubmissionParams, body: UndoSaveGradeInput, response: { 200: UndoSaveGradeOutput } },
      },
      async (request) => {
        const { current } = await undoGradeSave(ctx, currentUser(request), request.params, request.body.gradeId);
        return {
          message: current
            ? `Grade undone: the answer is back to its earlier grade of ${current.grade}.`
            : 'Grade undone: the answer is not graded again.',
          currentGradeId: current?.id ?? null,
          grade: current?.grade ?? null,
        };
      },
    );

    app.post(
      `${BASE}/grade-all`,
      {
        config: { access: 'user' },
        // The body is optional: `{ confirmCost: true }` confirms an estimate above the course's amount (issue 31).
        schema: { params: QuestionParams, body: ConfirmCostInput, response: { 200: GradeAllOutput } },
      },
      async (request) => {
        const { batchId, queued } = await gradeAll(ctx, currentUser(request), request.params, {
          confirmCost: request.body?.confirmCost,
        });
        const message =
          queued === 0
            ? 'Nothing to grade: every latest submission is graded or being graded.'
            : `Grading ${queued} submission${queued === 1 ? '' : 's'} in the background.`;
        return { message, batchId, queued };
      },
    );

    app.get(
      `${BASE}/grade-all/progress`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, querystring: GradingProgressQuery, response: { 200: GradingProgressOutput } },
      },
      async (request) => {
        const progress = await readGradingProgress(ctx, currentUser(request), {
          ...request.params,
          batchId: request.query.batchId,
        });
        return presentProgress(progress.batchId, progress.total, progress.counts);
      },
    );
  };
}
