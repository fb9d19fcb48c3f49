import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateRegradeRequestInput,
  CreateRegradeRequestOutput,
  GradeReleaseInput,
  GradeReleaseOutput,
  RegradeQueue,
  RegradeQueueQuery,
  RegradeRequestOutput,
  RegradeSettingsInput,
  RegradeSettingsOutput,
  ResolveRegradeInput,
} from '@gradewise/shared/contracts/regrades';
import type { AppContext } from '../../context.ts';
import { presentAssignmentDetail } from '../../presenters/assignment-presenter.ts';
import { presentRelease } from '../../presenters/grade-release-presenter.ts';
import {
  presentRegradeQueue,
  presentRegradeRequestForStaff,
  presentRegradeRequestForStudent,
} from '../../presenters/regrade-presenter.ts';
import { openRegradeRequest } from '../../services/open-regrade-request.ts';
import { readRegradeQueue } from '../../services/read-regrade-requests.ts';
import { recheckRegradeWithAi } from '../../services/recheck-regrade-with-ai.ts';
import { changeRegradeSettings, setAssignmentRelease, setQuestionRelease } from '../../services/release-grades.ts';
import { resolveRegradeRequest } from '../../services/resolve-regrade-request.ts';
import { currentUser } from '../access.ts';
import { QuestionParams } from './route-params.ts';

const AssignmentParams = z.object({ id: z.string() });
const CourseParams = z.object({ id: z.string() });
const RequestParams = z.object({ id: z.string() });
const QUESTION = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * Regrade requests and the release of grades (issue 12 items 3 and 5, decision 0023). Access is
 * 'user' on every route: the course policy decides (owner-only actions answer 403 to a student of
 * the course and 404 to anyone outside it; asking for a regrade is the submitting student's own act).
 */
export function regradeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/assignments/:id/grade-release',
      {
        config: { access: 'user' },
        schema: { params: AssignmentParams, body: GradeReleaseInput, response: { 200: GradeReleaseOutput } },
      },
      async (request) => {
        const release = presentRelease(
          await setAssignmentRelease(ctx, currentUser(request), request.params.id, request.body.released),
        );
        return {
          message: release.isHeld
            ? "The assignment's grades are held: students see none of them until you release them."
            : "The assignment's grades are released to students.",
          release,
        };
      },
    );

    app.post(
      `${QUESTION}/grade-release`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, body: GradeReleaseInput, response: { 200: GradeReleaseOutput } },
      },
      async (request) => {
        const release = presentRelease(
          await setQuestionRelease(ctx, currentUser(request), request.params, request.body.released),
        );
        return {
          message: release.isHeld
            ? "This question's grades are held: students see none of them until you release them."
            : "This question's grades are released to students.",
          release,
        };
      },
    );

    app.patch(
      '/api/assignments/:id/regrade-settings',
      {
        config: { access: 'user' },
        schema: { params: AssignmentParams, body: RegradeSettingsInput, response: { 200: RegradeSettingsOutput } },
      },
      async (request) => {
        const row = await changeRegradeSettings(ctx, currentUser(request), request.params.id, request.body);
        const { regradeWindowDays: days, regradeRequestLimit: limit } = row.assignment;
        return {
          message:
            days === 0 || limit === 0
              ? 'Students cannot ask for regrades on this assignment.'
              : `Students may ask for up to ${limit} regrade${limit === 1 ? '' : 's'} within ${days} day${days === 1 ? '' : 's'} of a grade's release.`,
          assignment: presentAssignmentDetail(row, 'owner'),
        };
      },
    );

    app.post(
      `${QUESTION}/regrade-requests`,
      {
        config: { access: 'user' },
        schema: {
          params: QuestionParams,
          body: CreateRegradeRequestInput,
          response: { 201: CreateRegradeRequestOutput },
        },
      },
      async (request, reply) => {
        const { row, disputed } = await openRegradeRequest(ctx, currentUser(request), request.params, request.body);
        return reply.status(201).send({
          message: 'Regrade request sent. You will see the reply on this report.',
          request: presentRegradeRequestForStudent(row, disputed),
        });
      },
    );

    app.get(
      '/api/courses/:id/regrade-requests',
      {
        config: { access: 'user' },
        schema: { params: CourseParams, querystring: RegradeQueueQuery, response: { 200: RegradeQueue } },
      },
      async (request) =>
        presentRegradeQueue(
          await readRegradeQueue(ctx, currentUser(request), request.params.id, request.query.status ?? 'open'),
        ),
    );

    app.post(
      '/api/regrade-requests/:id/resolve',
      {
        config: { access: 'user' },
        schema: { params: RequestParams, body: ResolveRegradeInput, response: { 200: RegradeRequestOutput } },
      },
      async (request) => {
        const resolved = presentRegradeRequestForStaff(
          await resolveRegradeRequest(ctx, currentUser(request), request.params.id, request.body),
        );
        return {
          message:
            resolved.status === 'accepted'
              ? 'Regrade request accepted; the student sees your reply.'
              : 'Regrade request rejected; the student sees your reply.',
          request: resolved,
        };
      },
    );

    app.post(
      '/api/regrade-requests/:id/ai-recheck',
      { config: { access: 'user' }, schema: { params: RequestParams, response: { 200: RegradeRequestOutput } } },
      async (request) => ({
        message: 'The AI looked at the disputed item again. Nothing changes until you resolve the request.',
        request: presentRegradeRequestForStaff(
          await recheckRegradeWithAi(ctx, currentUser(request), request.params.id),
        ),
      }),
    );
  };
}
