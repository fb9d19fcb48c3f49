import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageOutput } from '@gradewise/shared/errors';
import {
  ADD_STUDENTS_EXCEL_FILE_FIELD,
  AddStudentsInput,
  AddStudentsOutput,
  ConfirmStudentInput,
  DeclineRegistrantInput,
  CourseDetail,
  CourseList,
  CREATE_COURSE_FILE_FIELDS,
  CreateCourseFields,
  CreateCourseOutput,
  WaitingInvitationsOutput,
} from '@gradewise/shared/contracts/courses';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../lib/errors.ts';
import { parseInput } from '../../lib/parse-input.ts';
import {
  presentCourseForStaff,
  presentCourseForStudent,
  presentCourseSummary,
} from '../../presenters/course-presenter.ts';
import {
  addStudentsToCourse,
  authorizeRosterChange,
  confirmInvitedStudent,
  declineRegistrant,
} from '../../services/add-students.ts';
import { createCourse } from '../../services/create-course.ts';
import {
  invitationConfirmer,
  listCoursesFor,
  listWaitingInvitations,
  loadCourseDetail,
} from '../../services/read-courses.ts';
import { ROSTER_SPREADSHEET_LIMITS } from '../../spreadsheets/spreadsheet-limits.ts';
import { readEmailsFromSpreadsheetOffThread } from '../../spreadsheets/read-spreadsheet-off-thread.ts';
import { mayGrade } from '../../policies/course-access.ts';
import { currentUser } from '../access.ts';
import { withMultipartForm } from '../multipart.ts';

const CourseParams = z.object({ id: z.string() });

export function courseRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/courses',
      {
        config: { access: 'user' },
        schema: { response: { 200: CourseList } },
      },
      async (request) => {
        const rows = await listCoursesFor(ctx, currentUser(request));
        return rows.map((row) => presentCourseSummary(row, ctx.fileUrls));
      },
    );

    app.post(
      '/api/courses',
      { config: { access: 'instructor' }, schema: { response: { 201: CreateCourseOutput } } },
      async (request, reply) => {
        const user = currentUser(request);
        const course = await withMultipartForm(
          request,
          {
            fileFields: Object.values(CREATE_COURSE_FILE_FIELDS),
            maxFileBytes: ctx.config.maxUploadBytes,
            spoolDir: ctx.config.incomingDir,
          },
          (form) =>
            createCourse(ctx, user, {
              title: parseInput(CreateCourseFields, form.fields).title,
              image: form.files[CREATE_COURSE_FILE_FIELDS.image],
              syllabus: form.files[CREATE_COURSE_FILE_FIELDS.syllabus],
            }),
        );
        const presented = presentCourseForStaff({ row: { course, instructor: user }, students: [] }, [], ctx.fileUrls);
        return reply.status(201).send({ message: 'Course created successfully.', course: presented });
      },
    );

    app.get(
      '/api/courses/:id',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: CourseDetail } } },
      async (request) => {
        const detail = await loadCourseDetail(ctx, currentUser(request), request.params.id);
        const rows = { row: detail.row, students: detail.students };
        const { role } = detail.scope;
        return mayGrade(role)
          ? presentCourseForStaff(rows, detail.pending, ctx.fileUrls, role, invitationConfirmer(ctx))
          : presentCourseForStudent(rows, ctx.fileUrls);
      },
    );

    app.get(
      '/api/invitations',
      { config: { access: 'user' }, schema: { response: { 200: WaitingInvitationsOutput } } },
      async (request) => {
        const { rows, waitingFor } = await listWaitingInvitations(ctx, currentUser(request));
        return {
          invitations: rows.map((row) => ({
            courseTitle: row.courseTitle,
            instructorName: row.instructorName,
            invitedAt: row.invitedAt.toISOString(),
            waitingFor,
          })),
        };
      },
    );

    app.post(
      '/api/courses/:id/add-students',
      {
        config: { access: 'instructor' },
        schema: { params: CourseParams, body: AddStudentsInput, response: { 200: AddStudentsOutput } },
      },
      async (request) => {
        const user = currentUser(request);
        const scope = await authorizeRosterChange(ctx, user, request.params.id);
        return addStudentsToCourse(ctx, scope, user, request.body.emails, 'emails');
      },
    );

    app.post(
      '/api/courses/:id/confirm-student',
      {
        config: { access: 'instructor' },
        schema: { params: CourseParams, body: ConfirmStudentInput, response: { 200: MessageOutput } },
      },
      async (request) => {
        const scope = await authorizeRosterChange(ctx, currentUser(request), request.params.id);
        return confirmInvitedStudent(ctx, scope, request.body.email);
      },
    );

    app.post(
      '/api/courses/:id/decline-registrant',
      {
        config: { access: 'instructor' },
        schema: { params: CourseParams, body: DeclineRegistrantInput, response: { 200: MessageOutput } },
      },
      async (request) => {
        const scope = await authorizeRosterChange(ctx, currentUser(request), request.params.id);
        return declineRegistrant(ctx, scope, request.body.email);
      },
    );

    app.post(
      '/api/courses/:id/add-students/excel',
      { config: { access: 'instructor' }, schema: { params: CourseParams, response: { 200: AddStudentsOutput } } },
      async (request) => {
        const user = currentUser(request);
        // Access first: a course the caller cannot manage is refused before its upload is read.
        const scope = await authorizeRosterChange(ctx, user, request.params.id);
        const entries = await withMultipartForm(
          request,
          {
            fileFields: [ADD_STUDENTS_EXCEL_FILE_FIELD],
            maxFileBytes: Math.min(ctx.config.maxUploadBytes, ROSTER_SPREADSHEET_LIMITS.maxFileBytes),
            spoolDir: ctx.config.incomingDir,
          },
          async (form) => {
            const excelFile = form.files[ADD_STUDENTS_EXCEL_FILE_FIELD];
            if (!excelFile) throw badRequest('Please select an Excel file first.');
            // A spreadsheet is read whole (its zip directory is at its end); it is capped far below a PDF.
            return readEmailsFromSpreadsheetOffThread(await excelFile.bytes.readWhole());
          },
        );
        return addStudentsToCourse(ctx, scope, user, entries, 'excel');
      },
    );
  };
}
