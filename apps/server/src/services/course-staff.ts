import type { AddStaffInput, AddStaffOutput, StaffList, StaffMember } from '@gradewise/shared/contracts/staff';
import type { AppContext } from '../context.ts';
import { badRequest, conflict, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import {
  deleteStaffMember,
  insertStaffMember,
  selectStaffOfCourse,
  type StaffMember as StaffMemberRow,
} from '../models/course-staff.ts';
import { selectCourseWithInstructor } from '../models/courses.ts';
import { isEnrolled } from '../models/enrollments.ts';
import { selectUserByEmail, type UserRow } from '../models/users.ts';
import { deleteWorkOfGraderInCourse } from '../models/work-split.ts';
import { loadVisibleCourse, requireGrader, requireOwner } from '../policies/course-access.ts';

/**
 * Course staff (decision 0021): the owning instructor adds and removes teaching assistants; the
 * owner and the TAs read the list. A TA seat is for an account registered as an instructor (a
 * staff account): accounts have one role, a student account's screens have no grading, and a
 * student enrolled in a course must never grade it. Rosters, the other way round, take student
 * accounts only (services/add-students.ts), so nobody is both student and staff of one course.
 */

const presentMember = (row: StaffMemberRow): StaffMember => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  addedAt: row.addedAt.toISOString(),
});

export async function listStaff(ctx: AppContext, user: UserRow, courseId: string): Promise<StaffList> {
  const { course } = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), 'see its staff');
  const [withInstructor, staff] = await Promise.all([
    selectCourseWithInstructor(ctx.db, course.id),
    selectStaffOfCourse(ctx.db, course.id),
  ]);
  const owner = withInstructor!.instructor;
  return { owner: { _id: owner.id, name: owner.name, email: owner.email }, staff: staff.map(presentMember) };
}

export async function addStaff(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  input: { email: string; role: AddStaffInput['role'] },
): Promise<AddStaffOutput> {
  const { course } = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'add teaching assistants');
  const { email, role } = input;
  return ctx.db.transaction(async (tx) => {
    const account = await selectUserByEmail(tx, email);
    if (!account) {
      throw notFound(
        `Nobody has registered with ${email}. Ask them to create an instructor account with this email first.`,
      );
    }
    if (account.id === course.instructorId) throw badRequest('This is your own email: you already teach this course.');
    if (account.role !== 'instructor') {
      throw badRequest(
        (await isEnrolled(tx, course.id, account.id))
          ? `${email} is a student enrolled in this course; a student cannot grade their own course.`
          : `${email} is a student account. Teaching assistants need an instructor account (they can register one with another email).`,
      );
    }
    const added = await insertStaffMember(tx, { courseId: course.id, userId: account.id, role, addedById: user.id });
    if (!added) throw conflict(`${account.name} (${email}) is already a teaching assistant of this course.`);
    const member = (await selectStaffOfCourse(tx, course.id)).find((row) => row.id === account.id)!;
    return {
      message: `${account.name} is now a teaching assistant of ${course.title}.`,
      member: presentMember(member),
    };
  });
}

/** Removes a TA with their share of the work (their questions and students go back to unassigned). */
export async function removeStaff(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  staffUserId: string,
): Promise<{ message: string }> {
  const { course } = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'remove teaching assistants');
  if (staffUserId === course.instructorId) {
    throw badRequest('The instructor who owns the course cannot be removed from its staff.');
  }
  const notOnStaff = () => notFound('This person is not a teaching assistant of this course.');
  if (!isId(staffUserId)) throw notOnStaff();
  await ctx.db.transaction(async (tx) => {
    if (!(await deleteStaffMember(tx, course.id, staffUserId))) throw notOnStaff();
    await deleteWorkOfGraderInCourse(tx, course.id, staffUserId);
  });
  return { message: 'The teaching assistant was removed from this course.' };
}
