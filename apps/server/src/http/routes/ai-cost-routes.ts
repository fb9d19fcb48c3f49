import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AiCostEstimate,
  AssignmentAiSpend,
  BatchSpend,
  CourseAiReader,
  CourseAiSettings,
  CourseAiSettingsInput,
  CourseAiSpend,
  StopGradeAllOutput,
  SubmissionAiRuns,
} from '@gradewise/shared/contracts/ai-cost';
import type { AppContext } from '../../context.ts';
import {
  readAssignmentAiSpend,
  readCourseAiReader,
  readCourseAiSettings,
  readCourseAiSpend,
  readSubmissionAiRuns,
  updateCourseAiSettings,
} from '../../services/course-ai-settings.ts';
import { estimateGradeAll, readBatchSpend, stopGradeAll } from '../../services/grade-all.ts';
import { estimateResuggest } from '../../services/resuggest-answers.ts';
import { currentUser } from '../access.ts';
import { modelCheckRoutes } from './model-check-routes.ts';
import { QuestionParams } from './route-params.ts';

const CourseParams = z.object({ id: z.string() });
const BatchInput = z.object({ batchId: z.string({ message: 'batchId: say which Grade All to stop.' }) });
const BASE = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * Issue 31: the course's AI provider and budget, what AI work will cost before it starts, what it
 * spent, and Stop. Access is 'user' and the course policy decides (services/course-ai-settings.ts,
 * services/grade-all.ts): a stranger gets 404, a student 403 — except the AI reader notice, which
 * every member of the course reads.
 */
export function aiCostRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Issue 31, item 5: the check before switching models.
    await app.register(modelCheckRoutes(ctx));

    app.get(
      '/api/courses/:id/ai-settings',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: CourseAiSettings } } },
      async (request) => readCourseAiSettings(ctx, currentUser(request), request.params.id),
    );

    app.patch(
      '/api/courses/:id/ai-settings',
      {
        config: { access: 'user' },
        schema: { params: CourseParams, body: CourseAiSettingsInput, response: { 200: CourseAiSettings } },
      },
      async (request) => updateCourseAiSettings(ctx, currentUser(request), request.params.id, request.body),
    );

    app.get(
      '/api/courses/:id/ai-reader',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: CourseAiReader } } },
      async (request) => readCourseAiReader(ctx, currentUser(request), request.params.id),
    );

    app.get(
      '/api/courses/:id/ai-spend',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: CourseAiSpend } } },
      async (request) => readCourseAiSpend(ctx, currentUser(request), request.params.id),
    );

    app.get(
      '/api/assignments/:id/ai-spend',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: AssignmentAiSpend } } },
      async (request) => readAssignmentAiSpend(ctx, currentUser(request), request.params.id),
    );

    app.get(
      `${BASE}/grade-all/estimate`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: AiCostEstimate } } },
      async (request) => estimateGradeAll(ctx, currentUser(request), request.params),
    );

    app.get(
      `${BASE}/grade-all/spend`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, querystring: BatchInput, response: { 200: BatchSpend } },
      },
      async (request) => readBatchSpend(ctx, currentUser(request), { ...request.params, ...request.query }),
    );

    app.post(
      `${BASE}/grade-all/stop`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, body: BatchInput, response: { 200: StopGradeAllOutput } },
      },
      async (request) => stopGradeAll(ctx, currentUser(request), { ...request.params, ...request.body }),
    );

    app.get(
      `${BASE}/submissions/:submissionId/ai-runs`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams.extend({ submissionId: z.string() }), response: { 200: SubmissionAiRuns } },
      },
      async (request) => readSubmissionAiRuns(ctx, currentUser(request), request.params),
    );

    app.get(
      `${BASE}/resuggest/estimate`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: AiCostEstimate } } },
      async (request) => estimateResuggest(ctx, currentUser(request), request.params),
    );
  };
}
