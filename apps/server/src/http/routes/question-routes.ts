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
  presentOwnQuestion,
  presentQuestionForStaff,
  presentQuestionSummary,
  presentStaffPage,
  presentStaffRow,
  presentWholeQuestion,
} from '../../presenters/question-presenter.ts';
import { authorizeQuestionCreation, createQuestion } from '../../services/create-question.ts';
import { loadVisibleQuestion, mayGrade } from '../../policies/course-access.ts';
import { readKeptStaffList } from '../../services/kept-question-lists.ts';
import { readOwnQuestion } from '../../services/read-own-question.ts';
import { listQuestionsFor } from '../../services/read-questions.ts';
import { readStaffPage } from '../../services/read-staff-page.ts';
import { readStaffRow } from '../../services/read-staff-row.ts';
import { readWholeQuestion } from '../../services/read-whole-question.ts';
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
        const withSubmissions = isTrueFlag(includeSubmissions);
        // One read per mode, each with its own view and presenter (decision 0084). The serialiser
        // is chosen only once the answer is made: a refusal thrown first is sent by the error
        // handler as usual.
        if (!mayGrade(scope.role)) {
          const answer = presentOwnQuestion(
            await readOwnQuestion(ctx, user, scope, withSubmissions, { paging, submissionId }),
            ctx.fileUrls,
          );
          reply.serializer(paging ? serializePage : serializeDetail);
          return answer;
        }
        if (paging) {
          const answer = presentStaffPage(await readStaffPage(ctx, user, scope, paging), ctx.fileUrls);
          reply.serializer(serializePage);
          return answer;
        }
        if (submissionId !== undefined) {
          const answer = presentStaffRow(await readStaffRow(ctx, user, scope, submissionId), ctx.fileUrls);
          reply.serializer(serializeDetail);
          return answer;
        }
        if (withSubmissions) {
          // The whole staff list: kept serialised between changes (decision 0065).
          const body = await readKeptStaffList(ctx, user, scope, async () => {
            const whole = await readWholeQuestion(ctx, user, scope, true);
            const openUntil = whole.list?.openUntil ?? null;
            return { body: Buffer.from(serializeDetail(presentWholeQuestion(whole, ctx.fileUrls))), openUntil };
          });
          return sendKeptJson(request, reply, body);
        }
        const answer = presentWholeQuestion(await readWholeQuestion(ctx, user, scope, false), ctx.fileUrls);
        reply.serializer(serializeDetail);
        return answer;
      },
    );
  };
}
