import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AssignmentDetail,
  AssignmentList,
  AssignmentListQuery,
  CreateAssignmentInput,
  CreateAssignmentOutput,
  IdentityRevealsOutput,
  SetAnonymousGradingInput,
  SetAnonymousGradingOutput,
  UpdateAssignmentSettingsInput,
  UpdateAssignmentSettingsOutput,
} from '@gradewise/shared/contracts/assignments';
import type { AppContext } from '../../context.ts';
import {
  presentAssignmentDetail,
  presentAssignmentSummary,
  presentIdentityReveals,
} from '../../presenters/assignment-presenter.ts';
import { readIdentityReveals, setAnonymousGrading } from '../../services/anonymous-grading.ts';
import { changeAssignmentSettings, createAssignment } from '../../services/create-assignment.ts';
import { listAssignmentsFor, loadAssignmentDetail } from '../../services/read-assignments.ts';
import { currentUser } from '../access.ts';

const AssignmentParams = z.object({ id: z.string() });

export function assignmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assignments',
      { config: { access: 'user' }, schema: { querystring: AssignmentListQuery, response: { 200: AssignmentList } } },
      async (request) => {
        const rows = await listAssignmentsFor(ctx, currentUser(request), request.query.courseId);
        return rows.map(presentAssignmentSummary);
      },
    );

    app.post(
      '/api/assignments',
      {
        config: { access: 'instructor' },
        schema: { body: CreateAssignmentInput, response: { 201: CreateAssignmentOutput } },
      },
      async (request, reply) => {
        const { title, courseId, deadline, allowsResubmission } = request.body;
        const row = await createAssignment(ctx, currentUser(request), {
          title,
          courseId,
          deadline: deadline ? new Date(deadline) : null,
          allowsResubmission: allowsResubmission ?? false,
        });
        return reply
          .status(201)
          .send({ message: 'Assignment created successfully!', assignment: presentAssignmentDetail(row, 'owner') });
      },
    );

    app.get(
      '/api/assignments/:id',
      { config: { access: 'user' }, schema: { params: AssignmentParams, response: { 200: AssignmentDetail } } },
      async (request) => {
        const { scope, row } = await loadAssignmentDetail(ctx, currentUser(request), request.params.id);
        return presentAssignmentDetail(row, scope.role);
      },
    );

    app.patch(
      '/api/assignments/:id/settings',
      {
        config: { access: 'instructor' },
        schema: {
          params: AssignmentParams,
          body: UpdateAssignmentSettingsInput,
          response: { 200: UpdateAssignmentSettingsOutput },
        },
      },
      async (request) => {
        const row = await changeAssignmentSettings(ctx, currentUser(request), request.params.id, request.body);
        return {
          message: row.assignment.allowsResubmission
            ? 'Students may now resubmit after grading.'
            : 'A graded answer is now final unless you reopen it for the student.',
          assignment: presentAssignmentDetail(row, 'owner'),
        };
      },
    );

    // Who saw student names while the assignment was anonymous (the owner's reveals), for its staff.
    app.get(
      '/api/assignments/:id/identity-reveals',
      { config: { access: 'user' }, schema: { params: AssignmentParams, response: { 200: IdentityRevealsOutput } } },
      async (request) =>
        presentIdentityReveals(await readIdentityReveals(ctx, currentUser(request), request.params.id)),
    );

    app.put(
      '/api/assignments/:id/anonymous-grading',
      {
        config: { access: 'instructor' },
        schema: {
          params: AssignmentParams,
          body: SetAnonymousGradingInput,
          response: { 200: SetAnonymousGradingOutput },
        },
      },
      async (request) => {
        const row = await setAnonymousGrading(ctx, currentUser(request), request.params.id, request.body.isAnonymous);
        return {
          message: row.assignment.isAnonymous
            ? 'Anonymous grading is on: staff see Student 1…N instead of names while grading.'
            : 'Anonymous grading is off: staff see student names again.',
          assignment: presentAssignmentDetail(row, 'owner'),
        };
      },
    );
  };
}
