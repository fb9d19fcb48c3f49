import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageOutput } from '@gradewise/shared/errors';
import {
  GradingLeaseOutput,
  SetQuestionGradersInput,
  SetStudentGradersInput,
  WorkSplitChangeOutput,
  WorkSplitOutput,
} from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../../context.ts';
import { closeGrading, openForGrading } from '../../services/grading-leases.ts';
import { readWorkSplit, setQuestionGraders, setStudentGraders } from '../../services/work-split.ts';
import { currentUser } from '../access.ts';

const CourseParams = z.object({ id: z.string() });
const QuestionSplitParams = CourseParams.extend({ questionId: z.string() });
const SubmissionParams = z.object({ assignmentId: z.string(), questionId: z.string(), submissionId: z.string() });
const LEASE = '/api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/lease';

/**
 * The course team's work split and "who has this answer open" (decision 0031). Reading the split
 * and leases are for the graders (owner and TAs); changing the split is the owner's. Access is
 * 'user' and the course policy decides: strangers 404, students 403, a TA 403 on changes.
 */
export function workSplitRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/courses/:id/work-split',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: WorkSplitOutput } } },
      async (request) => readWorkSplit(ctx, currentUser(request), request.params.id),
    );

    app.put(
      '/api/courses/:id/work-split/questions/:questionId',
      {
        config: { access: 'user' },
        schema: {
          params: QuestionSplitParams,
          body: SetQuestionGradersInput,
          response: { 200: WorkSplitChangeOutput },
        },
      },
      async (request) =>
        setQuestionGraders(
          ctx,
          currentUser(request),
          { courseId: request.params.id, questionId: request.params.questionId },
          request.body,
        ),
    );

    app.put(
      '/api/courses/:id/work-split/students',
      {
        config: { access: 'user' },
        schema: { params: CourseParams, body: SetStudentGradersInput, response: { 200: WorkSplitChangeOutput } },
      },
      async (request) => setStudentGraders(ctx, currentUser(request), request.params.id, request.body),
    );

    app.post(
      LEASE,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: GradingLeaseOutput } } },
      async (request) => openForGrading(ctx, currentUser(request), request.params),
    );

    app.delete(
      LEASE,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: MessageOutput } } },
      async (request) => closeGrading(ctx, currentUser(request), request.params),
    );
  };
}
