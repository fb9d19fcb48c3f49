import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ResuggestInput, ResuggestOutput, SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import type { AppContext } from '../../context.ts';
import { presentSuggestionSummary } from '../../presenters/suggestion-presenter.ts';
import { readSuggestionSummary } from '../../services/read-suggestion-summary.ts';
import { resuggestAnswers } from '../../services/resuggest-answers.ts';
import { currentUser } from '../access.ts';

const QuestionParams = z.object({ assignmentId: z.string(), questionId: z.string() });
const BASE = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * Learning from saved grades: the question's suggestion summary and the explicit re-suggest.
 * Access is 'user' and the course policy decides, as for grading: a stranger gets 404, an enrolled
 * student 403.
 */
export function suggestionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${BASE}/suggestion-summary`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: SuggestionSummary } } },
      async (request) =>
        presentSuggestionSummary(await readSuggestionSummary(ctx, currentUser(request), request.params)),
    );

    app.post(
      `${BASE}/resuggest`,
      {
        config: { access: 'user' },
        // `confirmCost: true` confirms an estimate above the course's amount (issue 31), beside the contract's fields.
        schema: {
          params: QuestionParams,
          body: ResuggestInput.extend({ confirmCost: z.boolean().optional() }),
          response: { 200: ResuggestOutput },
        },
      },
      async (request) => {
        const { batchId, queued } = await resuggestAnswers(ctx, currentUser(request), request.params, request.body);
        const message =
          queued === 0
            ? 'Nothing to re-suggest: every answer is graded or being graded.'
            : `Re-suggesting ${queued} answer${queued === 1 ? '' : 's'} in the background.`;
        return { message, batchId, queued };
      },
    );
  };
}
