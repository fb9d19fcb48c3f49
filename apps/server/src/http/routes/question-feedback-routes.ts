import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QuestionFeedbackSettingsInput, QuestionFeedbackSettingsOutput } from '@gradewise/shared/contracts/questions';
import type { AppContext } from '../../context.ts';
import { changeQuestionFeedback } from '../../services/change-question-feedback.ts';
import { currentUser } from '../access.ts';

const QuestionParams = z.object({ assignmentId: z.string(), questionId: z.string() });

/**
 * What the grader's comments on a question may say (decision 0088). Access is 'user' and the
 * course policy decides: the owner changes it, a TA or an enrolled student gets 403, anyone else
 * 404. The setting itself is read with the question (staff only).
 */
export function questionFeedbackRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.patch(
      '/api/assignments/:assignmentId/questions/:questionId/feedback-settings',
      {
        config: { access: 'user' },
        schema: {
          params: QuestionParams,
          body: QuestionFeedbackSettingsInput,
          response: { 200: QuestionFeedbackSettingsOutput },
        },
      },
      async (request) => {
        const changed = await changeQuestionFeedback(ctx, currentUser(request), request.params, request.body);
        const what = changed.showExpectedAnswer
          ? 'Comments on this question may now state the expected answer.'
          : 'Comments on this question no longer state the expected answer.';
        const when = changed.refreshQueued
          ? ' Pending suggestions are being written again with this setting.'
          : ' The next AI suggestions use this setting.';
        return { message: `${what}${when}`, ...changed };
      },
    );
  };
}
