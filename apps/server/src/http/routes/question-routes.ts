import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CREATE_QUESTION_FILE_FIELDS,
  CreateQuestionOutput,
  QuestionDetail,
  QuestionDetailQuery,
  QuestionList,
} from '@gradewise/shared/contracts/questions';
import type { AppContext } from '../../context.ts';
import {
  presentQuestionForStaff,
  presentQuestionForStudent,
  presentQuestionSummary,
} from '../../presenters/question-presenter.ts';
import { presentSubmissionForStaff, presentSubmissionForStudent } from '../../presenters/submission-presenter.ts';
import { presentAutoRubric } from '../../presenters/grading-presenter.ts';
import { authorizeQuestionCreation, createQuestion } from '../../services/create-question.ts';
import { readStudentIdentities } from '../../services/anonymous-grading.ts';
import { readQuestionGradingForStaff, readSubmissionGradesForStudent } from '../../services/read-grading.ts';
import { listQuestionsFor, loadQuestionDetail } from '../../services/read-questions.ts';
import { readGradingWork } from '../../services/work-split.ts';
import { mayGrade } from '../../policies/course-access.ts';
import { presentQuestionRelease } from '../../presenters/grade-release-presenter.ts';
import { currentUser } from '../access.ts';
import { fastSerializerCompiler } from '../fast-serializer.ts';
import { readMultipartForm } from '../multipart.ts';

const AssignmentParams = z.object({ assignmentId: z.string() });
const QuestionParams = z.object({ assignmentId: z.string(), questionId: z.string() });

export function questionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assignments/:assignmentId/questions',
      { config: { access: 'user' }, schema: { params: AssignmentParams, response: { 200: QuestionList } } },
      async (request) => {
        const questions = await listQuestionsFor(ctx, currentUser(request), request.params.assignmentId);
        return questions.map(presentQuestionSummary);
      },
    );

    app.post(
      '/api/assignments/:assignmentId/questions',
      {
        config: { access: 'instructor' },
        schema: { params: AssignmentParams, response: { 201: CreateQuestionOutput } },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const scope = await authorizeQuestionCreation(ctx, user, request.params.assignmentId);
        const form = await readMultipartForm(request, { fileFields: Object.values(CREATE_QUESTION_FILE_FIELDS) });
        const created = await createQuestion(ctx, scope, user, {
          fields: form.fields,
          questionFile: form.files[CREATE_QUESTION_FILE_FIELDS.question],
          solutionFile: form.files[CREATE_QUESTION_FILE_FIELDS.solution],
        });
        return reply.status(201).send({
          message: 'Question created successfully!',
          question: presentQuestionForStaff(created, ctx.fileUrls),
        });
      },
    );

    app.get(
      '/api/assignments/:assignmentId/questions/:questionId',
      {
        config: { access: 'user' },
        schema: { params: QuestionParams, querystring: QuestionDetailQuery, response: { 200: QuestionDetail } },
        // Hundreds of rows on a big class: fast-json-stringify, not a zod pass over each (issue 11).
        serializerCompiler: fastSerializerCompiler,
      },
      async (request) => {
        const includeSubmissions =
          request.query.includeSubmissions === '1' || request.query.includeSubmissions === 'true';
        const { assignmentId, questionId } = request.params;
        const detail = await loadQuestionDetail(
          ctx,
          currentUser(request),
          assignmentId,
          questionId,
          includeSubmissions,
        );
        const rows = detail.submissions ?? [];
        if (mayGrade(detail.scope.role)) {
          const grading = await readQuestionGradingForStaff(
            ctx,
            detail.scope.question.id,
            rows.map((row) => row.submission),
          );
          const identities = await readStudentIdentities(
            ctx,
            detail.scope.assignment,
            rows.map((row) => row.student.id),
          );
          const workOf = detail.submissions
            ? await readGradingWork(
                ctx,
                detail.scope,
                currentUser(request),
                rows.map((row) => ({ student: row.student, submissionId: row.submission.id })),
              )
            : undefined;
          // Rows come by name; an anonymous list goes by label, so its order says nothing of names.
          const ordered = [...rows].sort((a, b) => identities.compare(a.student, b.student));
          const submissions = detail.submissions
            ? ordered.map((row) => ({
                ...presentSubmissionForStaff(row, ctx.fileUrls, identities),
                ...grading.bySubmission.get(row.submission.id)!,
                ...workOf?.({ studentId: row.student.id, submissionId: row.submission.id }),
              }))
            : undefined;
          return {
            ...presentQuestionForStaff(detail.scope, ctx.fileUrls, submissions, presentAutoRubric(grading.rubric)),
            gradeRelease: presentQuestionRelease(detail.scope.assignment, detail.scope.question),
          };
        }
        const grades = await readSubmissionGradesForStudent(
          ctx,
          detail.scope,
          rows.map((row) => row.submission),
        );
        const submissions = detail.submissions?.map((row) => ({
          ...presentSubmissionForStudent(row, ctx.fileUrls),
          ...grades.get(row.submission.id)!,
        }));
        return presentQuestionForStudent(detail.scope, ctx.fileUrls, submissions);
      },
    );
  };
}
