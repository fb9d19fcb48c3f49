import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { Email } from './auth.ts';

/**
 * Course staff (issue 12, decision 0021). The owning instructor adds teaching assistants by the
 * email of their (instructor-role) account; a TA sees the course like its instructor and may
 * grade, but not manage it.
 */

/** Which staff view a caller got: `owner` may manage the course, `ta` may grade only. */
export const StaffRole = lazySchema(() => z.enum(['owner', 'ta']));
export type StaffRole = z.infer<typeof StaffRole>;

/** The roles the owner can give; one today. */
export const StaffSeatRole = lazySchema(() => z.enum(['ta'], { error: 'The role must be "ta".' }));
export type StaffSeatRole = z.infer<typeof StaffSeatRole>;

/** POST /api/courses/:id/staff */
export const AddStaffInput = lazySchema(() =>
  z.object({
    email: Email,
    role: StaffSeatRole,
  }),
);
export type AddStaffInput = z.input<typeof AddStaffInput>;

export const StaffMember = lazySchema(() =>
  z.object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    role: StaffSeatRole,
    addedAt: z.string(),
  }),
);
export type StaffMember = z.infer<typeof StaffMember>;

/** GET /api/courses/:id/staff (owner and TAs): the owner, then the TAs by name. */
export const StaffList = lazySchema(() =>
  z.object({
    owner: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
    staff: z.array(StaffMember),
  }),
);
export type StaffList = z.infer<typeof StaffList>;

export const AddStaffOutput = lazySchema(() => z.object({ message: z.string(), member: StaffMember }));
export type AddStaffOutput = z.infer<typeof AddStaffOutput>;
