import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AiQuotaOutput } from '@gradewise/shared/contracts/ai-quota';
import {
  GradingReport,
  ReviewQueueOutput,
  ReviewQueueQuery,
  RubricTrialInput,
  RubricTrialOutput,
} from '@gradewise/shared/contracts/review';
import type { AppContext } from '../../context.ts';
import { presentGradingReport, presentReviewQueue } from '../../presenters/review-presenter.ts';
import { readAiQuota } from '../../services/ai-spend.ts';
import { readGradingReport } from '../../services/read-grading-report.ts';
import { readReviewQueue } from '../../services/read-review-queue.ts';
import { tryRubric } from '../../services/try-rubric.ts';
import { currentUser } from '../access.ts';
import { QuestionParams, SubmissionParams } from './route-params.ts';

const BASE = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * The instructor's review loop around the grading engine (whose calls are in grading-routes.ts):
 * the review queue, the grading report, the rubric trial and the AI quota left. Access is 'user' and the course
 * policy decides, as for grading: a stranger gets 404, an enrolled student 403 on staff calls —
 * except the report, which a student may read for their own latest submission.
 */
export function reviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${BASE}/review-queue`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, querystring: ReviewQueueQuery, response: { 200: ReviewQueueOutput } },
      },
      async (request) =>
        presentReviewQueue(await readReviewQueue(ctx, currentUser(request), request.params, request.query.share)),
    );

    app.get(
      `${BASE}/grade/:submissionId/report`,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: GradingReport } } },
      async (request) =>
        presentGradingReport(await readGradingReport(ctx, currentUser(request), request.params), ctx.fileUrls),
    );

    app.post(
      `${BASE}/rubric-trial`,
      {
        // Each trial is up to four grader calls (paid ones with an LLM): it counts against the
        // user's AI calls per minute and the provider quotas (services/ai-spend.ts).
        config: { access: 'user' },
        schema: { params: QuestionParams, body: RubricTrialInput, response: { 200: RubricTrialOutput } },
      },
      async (request) => tryRubric(ctx, currentUser(request), request.params, request.body),
    );

    app.get(
      `${BASE}/ai-quota`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: AiQuotaOutput } } },
      async (request) => readAiQuota(ctx, currentUser(request), request.params),
    );
  };
}
