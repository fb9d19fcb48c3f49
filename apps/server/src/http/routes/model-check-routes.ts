import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ModelCheck,
  ModelCheckEstimate,
  ModelCheckEstimateQuery,
  ModelCheckList,
  StartModelCheckInput,
} from '@gradewise/shared/contracts/ai-model-checks';
import type { AppContext } from '../../context.ts';
import { estimateModelCheck, listModelChecks, readModelCheck, startModelCheck } from '../../services/check-model.ts';
import { currentUser } from '../access.ts';

const CourseParams = z.object({ id: z.string() });

/**
 * Issue 31, item 5: a check of a candidate provider on the course's saved grades before switching
 * (services/check-model.ts). Access is 'user' and the course policy decides: the owner estimates
 * and starts a check, course staff read the history; a stranger gets 404, a student 403.
 */
export function modelCheckRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/courses/:id/ai-model-checks',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: ModelCheckList } } },
      async (request) => ({ checks: await listModelChecks(ctx, currentUser(request), request.params.id) }),
    );

    app.get(
      '/api/courses/:id/ai-model-checks/estimate',
      {
        config: { access: 'user' },
        schema: { params: CourseParams, querystring: ModelCheckEstimateQuery, response: { 200: ModelCheckEstimate } },
      },
      async (request) => estimateModelCheck(ctx, currentUser(request), request.params.id, request.query),
    );

    app.post(
      '/api/courses/:id/ai-model-checks',
      {
        config: { access: 'user' },
        schema: { params: CourseParams, body: StartModelCheckInput, response: { 200: ModelCheck } },
      },
      async (request) => startModelCheck(ctx, currentUser(request), request.params.id, request.body),
    );

    app.get(
      '/api/courses/:id/ai-model-checks/:checkId',
      {
        config: { access: 'user' },
        schema: { params: CourseParams.extend({ checkId: z.string() }), response: { 200: ModelCheck } },
      },
      async (request) => readModelCheck(ctx, currentUser(request), request.params),
    );
  };
}
