import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import type { AppContext } from '../../context.ts';
import { readAssignmentStatistics, readQuestionStatistics } from '../../services/read-statistics.ts';
import { currentUser } from '../access.ts';

const AssignmentParams = z.object({ assignmentId: z.string() });
const QuestionParams = AssignmentParams.extend({ questionId: z.string() });

/**
 * Grading statistics (issue 12 item 7). Staff only: access 'user' and the course policy decides, as
 * for the review queue — a stranger gets 404, an enrolled student 403.
 */
export function statisticsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assignments/:assignmentId/questions/:questionId/statistics',
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: StatisticsOutput } } },
      async (request) => readQuestionStatistics(ctx, currentUser(request), request.params),
    );

    app.get(
      '/api/assignments/:assignmentId/statistics',
      { config: { access: 'user' }, schema: { params: AssignmentParams, response: { 200: StatisticsOutput } } },
      async (request) => readAssignmentStatistics(ctx, currentUser(request), request.params),
    );
  };
}
