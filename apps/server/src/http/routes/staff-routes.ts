import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageOutput } from '@gradewise/shared/errors';
import { AddStaffInput, AddStaffOutput, StaffList } from '@gradewise/shared/contracts/staff';
import type { AppContext } from '../../context.ts';
import { addStaff, listStaff, removeStaff } from '../../services/course-staff.ts';
import { currentUser } from '../access.ts';

const CourseParams = z.object({ id: z.string() });
const StaffParams = CourseParams.extend({ userId: z.string() });

/**
 * Course staff (decision 0021). Adding and removing are owner-only ('instructor' routes: a student
 * is refused by role, a TA by the course policy); the list is for the owner and the TAs.
 */
export function staffRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/courses/:id/staff',
      { config: { access: 'user' }, schema: { params: CourseParams, response: { 200: StaffList } } },
      async (request) => listStaff(ctx, currentUser(request), request.params.id),
    );

    app.post(
      '/api/courses/:id/staff',
      {
        config: { access: 'instructor' },
        schema: { params: CourseParams, body: AddStaffInput, response: { 201: AddStaffOutput } },
      },
      async (request, reply) => {
        const added = await addStaff(ctx, currentUser(request), request.params.id, request.body);
        return reply.status(201).send(added);
      },
    );

    app.delete(
      '/api/courses/:id/staff/:userId',
      { config: { access: 'instructor' }, schema: { params: StaffParams, response: { 200: MessageOutput } } },
      async (request) => removeStaff(ctx, currentUser(request), request.params.id, request.params.userId),
    );
  };
}
