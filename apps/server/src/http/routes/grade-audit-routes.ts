import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GradeHistoryOutput, RubricVersionsOutput } from '@gradewise/shared/contracts/grade-audit';
import type { AppContext } from '../../context.ts';
import { exportAssignmentAudit, exportQuestionAudit } from '../../services/export-grade-audit.ts';
import { readGradeHistory, readRubricVersions } from '../../services/read-grade-history.ts';
import { currentUser } from '../access.ts';
import { sendCsv } from './grade-export-routes.ts';

const AssignmentParams = z.object({ assignmentId: z.string() });
const QuestionParams = AssignmentParams.extend({ questionId: z.string() });
const SubmissionParams = QuestionParams.extend({ submissionId: z.string() });
const QUESTION = '/api/assignments/:assignmentId/questions/:questionId';

/**
 * The accountable record (issue 12, items 2 and 6): a submission's grade history, the versions of a
 * question's rubric, and the audit trail as CSV. Staff of the course only: access 'user' and the
 * course policy decides (stranger 404, enrolled student 403).
 */
export function gradeAuditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${QUESTION}/submissions/:submissionId/grade-history`,
      { config: { access: 'user' }, schema: { params: SubmissionParams, response: { 200: GradeHistoryOutput } } },
      async (request) => readGradeHistory(ctx, currentUser(request), request.params),
    );

    app.get(
      `${QUESTION}/rubric-versions`,
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 200: RubricVersionsOutput } } },
      async (request) => readRubricVersions(ctx, currentUser(request), request.params),
    );

    app.get(
      '/api/assignments/:assignmentId/audit.csv',
      { config: { access: 'user' }, schema: { params: AssignmentParams } },
      async (request, reply) => sendCsv(reply, await exportAssignmentAudit(ctx, currentUser(request), request.params)),
    );

    app.get(
      `${QUESTION}/audit.csv`,
      { config: { access: 'user' }, schema: { params: QuestionParams } },
      async (request, reply) => sendCsv(reply, await exportQuestionAudit(ctx, currentUser(request), request.params)),
    );
  };
}
