import type {
  CourseForStaff,
  CourseForStudent,
  CourseSummary,
  InvitationConfirmer,
} from '@gradewise/shared/contracts/courses';
import type { CourseSummaryRow, CourseWithInstructor } from '../models/courses.ts';
import type { RosterStudent } from '../models/enrollments.ts';
import type { PendingForOwner } from '../services/read-courses.ts';
import type { GraderRole } from '../policies/course-access.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';

/**
 * Course rows -> contract outputs. The image and the syllabus are part of the course for anyone
 * who may see the course, so both views sign them; only the staff view lists pending invitations.
 */
const person = (row: { id: string; name: string; email: string }) => ({
  _id: row.id,
  name: row.name,
  email: row.email,
});
/** Students see people by name only (no emails of classmates or the instructor). */
const personByName = (row: { id: string; name: string }) => ({ _id: row.id, name: row.name });
/** Only the demo course carries `isDemo` (the /demo page links to it); other outputs stay as they were. */
const demoFlag = (course: { isDemo: boolean }) => (course.isDemo ? { isDemo: true } : {});
const signedOrNull = (signer: FileUrlSigner, fileId: string | null) => (fileId ? signer.urlFor(fileId) : null);

export function presentCourseSummary(row: CourseSummaryRow, signer: FileUrlSigner): CourseSummary {
  return {
    _id: row.id,
    title: row.title,
    image: signedOrNull(signer, row.imageFileId),
    instructor: { _id: row.instructor.id, name: row.instructor.name },
    createdAt: row.createdAt.toISOString(),
    ...demoFlag(row),
  };
}

export interface CourseDetailRows {
  row: CourseWithInstructor;
  students: RosterStudent[];
}

function presentCourseBase({ row }: CourseDetailRows, signer: FileUrlSigner) {
  return {
    _id: row.course.id,
    title: row.course.title,
    image: signedOrNull(signer, row.course.imageFileId),
    syllabus: signedOrNull(signer, row.course.syllabusFileId),
    createdAt: row.course.createdAt.toISOString(),
  };
}

export function presentCourseForStaff(
  rows: CourseDetailRows,
  pending: PendingForOwner[],
  signer: FileUrlSigner,
  staffRole: GraderRole = 'owner',
  invitationsConfirmedBy?: InvitationConfirmer,
): CourseForStaff {
  return {
    ...presentCourseBase(rows, signer),
    viewer: 'staff',
    staffRole,
    ...(invitationsConfirmedBy && staffRole === 'owner' ? { invitationsConfirmedBy } : {}),
    instructor: person(rows.row.instructor),
    students: rows.students.map(person),
    ...demoFlag(rows.row.course),
    pendingStudents: pending.map((invite) => ({
      email: invite.email,
      invitedAt: invite.createdAt.toISOString(),
      registeredName: invite.registrant?.name ?? null,
      registeredAsInstructor: invite.registeredAsInstructor,
      ...(invite.registeredAsInstructor ? { instructorAccountClosable: invite.accountClosable } : {}),
      ...(invite.registrant ? { registrantClosable: invite.accountClosable } : {}),
    })),
  };
}

export function presentCourseForStudent(rows: CourseDetailRows, signer: FileUrlSigner): CourseForStudent {
  return {
    ...presentCourseBase(rows, signer),
    viewer: 'student',
    instructor: personByName(rows.row.instructor),
    students: rows.students.map(personByName),
  };
}
