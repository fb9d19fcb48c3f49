import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnswerGroupOfSubmissionOutput,
  AnswerGroupsOutput,
  ApplyToGroupInput,
  ApplyToGroupOutput,
} from '@gradewise/shared/contracts/answer-groups';
import type { AppContext } from '../../context.ts';
import { presentAnswerGroupOf, presentAnswerGroups } from '../../presenters/answer-groups-presenter.ts';
import { applyGradeToGroup } from '../../services/apply-grade-to-group.ts';
import { readAnswerGroups } from '../../services/read-answer-groups.ts';
import { currentUser } from '../access.ts';
import { QuestionParams, SubmissionParams } from './route-params.ts';

const BASE = '/api/assignments/:assignmentId/questions/:questionId/answer-groups';

/**
 * Answer groups of a question (docs/decisions/0012-answer-groups.md). Staff only: access 'user'
 * and the course policy decides, as for the review queue — a stranger gets 404, an enrolled
 * student 403. There is no student view of groups at all.
 */
export function answerGroupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      BASE,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: AnswerGroupsOutput } } },
      async (request) => presentAnswerGroups(await readAnswerGroups(ctx, currentUser(request), request.params)),
    );

    // The open answer's group only, for the grading screen's notice (decision 0095): the same read
    // and policy as the whole list, an answer in no group (or of no one here) is `group: null`.
    app.get(
      `${BASE}/of/:submissionId`,
      {
        config: { access: 'user' },
        schema: { params: SubmissionParams, response: { 200: AnswerGroupOfSubmissionOutput } },
      },
      async (request) =>
        presentAnswerGroupOf(
          await readAnswerGroups(ctx, currentUser(request), request.params),
          request.params.submissionId,
        ),
    );

    app.post(
      `${BASE}/apply`,
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, body: ApplyToGroupInput, response: { 200: ApplyToGroupOutput } },
      },
      async (request) => applyGradeToGroup(ctx, currentUser(request), request.params, request.body),
    );
  };
}
