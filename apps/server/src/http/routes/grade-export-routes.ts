import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { exportAssignmentGrades, exportQuestionGrades, type GradesCsv } from '../../services/export-grades.ts';
import { currentUser } from '../access.ts';

const AssignmentParams = z.object({ assignmentId: z.string() });
const QuestionParams = AssignmentParams.extend({ questionId: z.string() });

/**
 * Grades out, as CSV for a gradebook (issue 5, item 6). Owning instructor only: access 'user' and
 * the course policy decides (stranger 404, enrolled student 403).
 */
export function gradeExportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assignments/:assignmentId/grades.csv',
      { config: { access: 'user' }, schema: { params: AssignmentParams } },
      async (request, reply) => sendCsv(reply, await exportAssignmentGrades(ctx, currentUser(request), request.params)),
    );

    app.get(
      '/api/assignments/:assignmentId/questions/:questionId/grades.csv',
      { config: { access: 'user' }, schema: { params: QuestionParams } },
      async (request, reply) => sendCsv(reply, await exportQuestionGrades(ctx, currentUser(request), request.params)),
    );
  };
}

export function sendCsv(reply: FastifyReply, { filename, csv }: GradesCsv) {
  return (
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('X-Content-Type-Options', 'nosniff')
      // Grades are personal data: no cache keeps a copy.
      .header('Cache-Control', 'no-store')
      // The byte order mark makes Excel read the names as UTF-8; other spreadsheets skip it.
      .send(`\uFEFF${csv}`)
  );
}
