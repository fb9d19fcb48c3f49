import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SUBMISSION_FILE_FIELD,
  SubmissionVersionsOutput,
  SubmitAnswerOutput,
  UploadOnBehalfOutput,
} from '@gradewise/shared/contracts/submissions';
import { ReopenSubmissionOutput } from '@gradewise/shared/contracts/grading';
import type { AppContext } from '../../context.ts';
import {
  presentSubmissionForStaff,
  presentSubmissionForStudent,
  presentSubmissionVersion,
} from '../../presenters/submission-presenter.ts';
import { readStudentIdentities } from '../../services/anonymous-grading.ts';
import { loadSubmissionVersions } from '../../services/read-questions.ts';
import { reopenSubmission } from '../../services/reopen-submission.ts';
import {
  authorizeSubmission,
  authorizeUploadOnBehalf,
  submitAnswer,
  uploadOnBehalf,
} from '../../services/submit-answer.ts';
import { currentUser } from '../access.ts';
import { withMultipartForm } from '../multipart.ts';
import { QuestionParams, SubmissionParams } from './route-params.ts';

export function submissionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // 'user', not 'instructor': students submit; the policy refuses the owner (403) and outsiders (404).
    app.post(
      '/api/assignments/:assignmentId/questions/:questionId/submit',
      { config: { access: 'user' }, schema: { params: QuestionParams, response: { 201: SubmitAnswerOutput } } },
      async (request, reply) => {
        const user = currentUser(request);
        const scope = await authorizeSubmission(ctx, user, request.params);
        const row = await withMultipartForm(
          request,
          {
            fileFields: [SUBMISSION_FILE_FIELD],
            maxFileBytes: ctx.config.maxUploadBytes,
            spoolDir: ctx.config.incomingDir,
          },
          (form) => submitAnswer(ctx, scope, user, form.files[SUBMISSION_FILE_FIELD]),
        );
        return reply
          .status(201)
          .send({ message: 'Submission successful!', submission: presentSubmissionForStudent(row, ctx.fileUrls) });
      },
    );

    app.post(
      '/api/assignments/:assignmentId/questions/:questionId/upload-submission',
      { config: { access: 'instructor' }, schema: { params: QuestionParams, response: { 201: UploadOnBehalfOutput } } },
      async (request, reply) => {
        const user = currentUser(request);
        const scope = await authorizeUploadOnBehalf(ctx, user, request.params);
        const row = await withMultipartForm(
          request,
          {
            fileFields: [SUBMISSION_FILE_FIELD],
            maxFileBytes: ctx.config.maxUploadBytes,
            spoolDir: ctx.config.incomingDir,
          },
          (form) => uploadOnBehalf(ctx, scope, user, { fields: form.fields, file: form.files[SUBMISSION_FILE_FIELD] }),
        );
        const identities = await readStudentIdentities(ctx, scope.assignment, [row.student.id]);
        return reply.status(201).send({
          message: 'Uploaded on behalf of the student!',
          submission: presentSubmissionForStaff(row, ctx.fileUrls, identities),
        });
      },
    );

    app.get(
      '/api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/versions',
      {
        config: { access: 'instructor' },
        schema: { params: SubmissionParams, response: { 200: SubmissionVersionsOutput } },
      },
      async (request) => {
        const { scope, versions } = await loadSubmissionVersions(ctx, currentUser(request), request.params);
        // Never empty: the submission named in the path is one of the versions.
        const { student } = versions[0]!;
        const identities = await readStudentIdentities(ctx, scope.assignment, [student.id]);
        return {
          student: identities.person(student),
          versions: versions.map((row) => presentSubmissionVersion(row, ctx.fileUrls, identities)),
        };
      },
    );

    // A graded answer is final for its student until the owning instructor reopens it.
    app.post(
      '/api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/reopen',
      {
        config: { access: 'instructor' },
        schema: { params: SubmissionParams, response: { 200: ReopenSubmissionOutput } },
      },
      async (request) => {
        const { scope, reopening, student } = await reopenSubmission(ctx, currentUser(request), request.params);
        const identities = await readStudentIdentities(ctx, scope.assignment, [student.id]);
        const { _id, name } = identities.person(student);
        return {
          message: `Reopened for ${name}: they may submit a new version until a grade is saved again.`,
          student: { _id, name },
          reopenedAt: reopening.createdAt.toISOString(),
        };
      },
    );
  };
}
