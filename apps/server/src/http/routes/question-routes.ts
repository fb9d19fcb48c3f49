import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CREATE_QUESTION_FILE_FIELDS,
  CreateQuestionOutput,
  QuestionDetail,
  QuestionDetailQuery,
  QuestionList,
  QuestionPage,
  isTrueFlag,
} from '@gradewise/shared/contracts/questions';
import type { AppContext } from '../../context.ts';
import {
  presentQuestionDetail,
  presentQuestionForStaff,
  presentQuestionSummary,
} from '../../presenters/question-presenter.ts';
import { authorizeQuestionCreation, createQuestion } from '../../services/create-question.ts';
import { loadVisibleQuestion, mayGrade } from '../../policies/course-access.ts';
import { readKeptStaffList } from '../../services/kept-question-lists.ts';
import { listQuestionsFor, readQuestionDetail } from '../../services/read-questions.ts';
import { currentUser } from '../access.ts';
import { fastSerializerFor } from '../fast-serializer.ts';
import { sendKeptJson } from '../kept-json.ts';
import { withMultipartForm } from '../multipart.ts';

const AssignmentParams = z.object({ assignmentId: z.string() });
const QuestionParams = z.object({ assignmentId: z.string(), questionId: z.string() });
/** GET .../questions/:questionId answers a QuestionPage when paged (decision 0057), else a QuestionDetail. */
const QuestionAnswer = z.union([QuestionDetail, QuestionPage]);
// Hundreds of rows on a big class: fast-json-stringify, not a zod pass over each (issue 11). Each
// answer is sent with the serialiser of its own contract, chosen by the handler.
const serializeDetail = fastSerializerFor(QuestionDetail, 'GET .../questions/:questionId');
const serializePage = fastSerializerFor(QuestionPage, 'GET .../questions/:questionId (a page)');

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
        const created = await withMultipartForm(
          request,
          {
            fileFields: Object.values(CREATE_QUESTION_FILE_FIELDS),
            maxFileBytes: ctx.config.maxUploadBytes,
            spoolDir: ctx.config.incomingDir,
          },
          (form) =>
            createQuestion(ctx, scope, user, {
              fields: form.fields,
              questionFile: form.files[CREATE_QUESTION_FILE_FIELDS.question],
              solutionFile: form.files[CREATE_QUESTION_FILE_FIELDS.solution],
            }),
        );
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
        schema: { params: QuestionParams, querystring: QuestionDetailQuery, response: { 200: QuestionAnswer } },
      },
      async (request, reply) => {
        const { includeSubmissions, offset, limit, submissionId } = request.query;
        const { assignmentId, questionId } = request.params;
        const user = currentUser(request);
        const scope = await loadVisibleQuestion(ctx.db, user, assignmentId, questionId);
        // The schema refuses offset, limit or submissionId without includeSubmissions=1, offset
        // without limit, and a page together with a submissionId.
        const paging = limit === undefined ? undefined : { offset: offset ?? 0, limit };
        const selection = { paging, submissionId };
        const withSubmissions = isTrueFlag(includeSubmissions);
        if (withSubmissions && !paging && submissionId === undefined && mayGrade(scope.role)) {
          // The whole staff list: kept serialised between changes (decision 0065).
          const body = await readKeptStaffList(ctx, user, scope, async () => {
            const detail = await readQuestionDetail(ctx, user, scope, true, selection);
            const openUntil = (detail.viewer === 'staff' && detail.openUntil) || null;
            return { body: Buffer.from(serializeDetail(presentQuestionDetail(detail, ctx.fileUrls))), openUntil };
          });
          return sendKeptJson(request, reply, body);
        }
        const detail = await readQuestionDetail(ctx, user, scope, withSubmissions, selection);
        const answer = presentQuestionDetail(detail, ctx.fileUrls);
        // Only once the answer is made: a refusal thrown above is sent by the error handler as usual.
        reply.serializer(paging ? serializePage : serializeDetail);
        return answer;
      },
    );
  };
}
