import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { Email } from './auth.ts';
import { FileUrl } from './files.ts';
import { StaffRole } from './staff.ts';

/** Someone shown next to a course: its instructor, a student on its roster. */
export const PersonRef = lazySchema(() => z.object({ _id: z.string(), name: z.string() }));
export type PersonRef = z.infer<typeof PersonRef>;
export const Person = lazySchema(() => PersonRef.extend({ email: z.string() }));
export type Person = z.infer<typeof Person>;

export const COURSE_TITLE_MAX_LENGTH = 200;

/**
 * POST /api/courses is multipart/form-data: the text field `title` (validated by this schema) and
 * the optional files `courseImage` (PNG, JPEG, WebP or GIF) and `syllabusFile` (PDF).
 */
export const CreateCourseFields = lazySchema(() =>
  z.object({
    title: z
      .string({ error: 'Please provide a course title.' })
      .trim()
      .min(1, 'Please provide a course title.')
      .max(COURSE_TITLE_MAX_LENGTH, `The course title must be at most ${COURSE_TITLE_MAX_LENGTH} characters.`),
  }),
);
export type CreateCourseFields = z.input<typeof CreateCourseFields>;
export const CREATE_COURSE_FILE_FIELDS = { image: 'courseImage', syllabus: 'syllabusFile' } as const;

/** GET /api/courses: instructors get the courses they own, students the courses they are enrolled in. */
export const CourseSummary = lazySchema(() =>
  z.object({
    _id: z.string(),
    title: z.string(),
    image: FileUrl.nullable(),
    instructor: PersonRef,
    createdAt: z.string(),
    /** True for the demo course that `npm run demo` loads (the /demo page links to it). */
    isDemo: z.boolean().optional(),
  }),
);
export type CourseSummary = z.infer<typeof CourseSummary>;
export const CourseList = lazySchema(() => z.array(CourseSummary));
export type CourseList = z.infer<typeof CourseList>;

const CourseDetailBase = lazySchema(() =>
  z.object({
    _id: z.string(),
    title: z.string(),
    image: FileUrl.nullable(),
    syllabus: FileUrl.nullable(),
    createdAt: z.string(),
  }),
);

/**
 * An email added to the roster before its owner had an account. It becomes an enrolment only once
 * the address is proved: the owner follows the email link (with SMTP), or the instructor confirms
 * the registrant (`registeredName` set: "registered, awaiting your confirmation").
 */
export const PendingStudent = lazySchema(() =>
  z.object({
    email: z.string(),
    invitedAt: z.string(),
    /** The name of the student account registered with this email, waiting for the instructor's confirmation. */
    registeredName: z.string().nullable().default(null),
    /**
     * The email has an instructor account: it cannot take a student seat, so the invitation waits
     * (never dropped) for that account to be closed or for another address (`instructorAccountClosable`).
     */
    registeredAsInstructor: z.boolean().default(false),
    /**
     * Only beside `registeredAsInstructor`: true when that account never proved the address and holds
     * nothing, so "Not my student" closes it and the invitation waits for the student (decision
     * 0090); false when it proved or uses the address, and the instructor asks for another one.
     */
    instructorAccountClosable: z.boolean().optional(),
    /**
     * Only beside `registeredName`: true when that student account never proved the address and
     * holds nothing, so "Not my student" closes it; false when it proved or uses the address (the
     * server refuses to close it, 409), and the instructor only confirms it (decision 0096).
     */
    registrantClosable: z.boolean().optional(),
  }),
);
export type PendingStudent = z.infer<typeof PendingStudent>;

/**
 * Who turns an invitation into a seat, as the screens word it: `email` with SMTP (the student
 * proves the address by the emailed link, then joins), `instructor` without (the instructor
 * confirms the registered student on the Students page).
 */
export const InvitationConfirmer = lazySchema(() => z.enum(['email', 'instructor']));
export type InvitationConfirmer = z.infer<typeof InvitationConfirmer>;

/**
 * GET /api/invitations (any signed-in user): the courses whose invitation waits for the caller's
 * own email, so a registered student sees "waiting for your instructor to confirm" rather than an
 * empty course list. Empty for an instructor and for a student with nothing waiting.
 */
export const WaitingInvitationsOutput = lazySchema(() =>
  z.object({
    invitations: z.array(
      z.object({
        courseTitle: z.string(),
        instructorName: z.string(),
        invitedAt: z.string(),
        waitingFor: InvitationConfirmer,
      }),
    ),
  }),
);
export type WaitingInvitationsOutput = z.infer<typeof WaitingInvitationsOutput>;

/**
 * GET /api/courses/:id. `viewer` says which view the caller got: `staff` (the owning instructor or a TA,
 * who may add students and create assignments) or `student` (an enrolled student).
 */
export const CourseForStaff = lazySchema(() =>
  CourseDetailBase.extend({
    viewer: z.literal('staff'),
    /** `ta` for a teaching assistant, who sees the course but may not manage it (absent: the owner). */
    staffRole: StaffRole.optional(),
    instructor: Person,
    /** Enrolled students, by name, with their emails (the roster the owner manages). */
    students: z.array(Person),
    pendingStudents: z.array(PendingStudent),
    /** How an invited student comes in on this server (absent for a TA, who cannot invite). */
    invitationsConfirmedBy: InvitationConfirmer.optional(),
    /** True for the demo course that `npm run demo` loads. */
    isDemo: z.boolean().optional(),
  }),
);
export type CourseForStaff = z.infer<typeof CourseForStaff>;
/**
 * A student sees who is in the course by name only: classmates' emails (and the instructor's) are
 * not theirs to collect, so this view has no email field at all.
 */
export const CourseForStudent = lazySchema(() =>
  CourseDetailBase.extend({
    viewer: z.literal('student'),
    instructor: PersonRef,
    students: z.array(PersonRef),
  }),
);
export type CourseForStudent = z.infer<typeof CourseForStudent>;
export const CourseDetail = lazySchema(() => z.discriminatedUnion('viewer', [CourseForStaff, CourseForStudent]));
export type CourseDetail = z.infer<typeof CourseDetail>;

export const CreateCourseOutput = lazySchema(() => z.object({ message: z.string(), course: CourseForStaff }));
export type CreateCourseOutput = z.infer<typeof CreateCourseOutput>;

// ---- Rosters ---------------------------------------------------------------------------------

/** Most entries one add-students request (JSON or spreadsheet) may carry. */
export const MAX_ROSTER_ENTRIES = 2000;

/**
 * Splits what a person typed or pasted into roster entries: commas (the spec's separator),
 * semicolons and line breaks; trimmed; empty entries dropped. Used by the web form and the server.
 */
export function splitRosterEntries(text: string): string[] {
  return text
    .split(/[,;\r\n]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** POST /api/courses/:id/add-students (JSON). Each entry is checked on its own; bad ones are reported, not fatal. */
export const AddStudentsInput = lazySchema(() =>
  z.object({
    emails: z
      .array(z.string({ error: 'Each email must be text.' }).max(320, 'An email is at most 320 characters.'), {
        error: 'Please enter at least one email.',
      })
      .max(MAX_ROSTER_ENTRIES, `Please add at most ${MAX_ROSTER_ENTRIES} students at a time.`)
      .transform((entries) => entries.flatMap(splitRosterEntries))
      .refine((entries) => entries.length > 0, 'Please enter at least one email.'),
  }),
);
export type AddStudentsInput = z.input<typeof AddStudentsInput>;

/** POST /api/courses/:id/add-students/excel is multipart with this one file field (.xlsx or .xls). */
export const ADD_STUDENTS_EXCEL_FILE_FIELD = 'excelFile';

export const RosterRejection = lazySchema(() =>
  z.object({
    /** The entry as given (typed text or spreadsheet cell content). */
    entry: z.string(),
    reason: z.string(),
  }),
);
export type RosterRejection = z.infer<typeof RosterRejection>;

/**
 * The outcome of adding students, by email:
 * - added: accounts enrolled now;  alreadyEnrolled: accounts that were on the roster already;
 * - invited: emails without an account yet, now pending (they join when they register);
 * - alreadyInvited: emails that were pending already;  rejected: entries not added, with the reason.
 * A request where nothing at all could be added is a 400 whose `issues` list the rejections.
 */
export const AddStudentsOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    added: z.number().int(),
    alreadyEnrolled: z.number().int(),
    invited: z.number().int(),
    alreadyInvited: z.number().int(),
    rejected: z.array(RosterRejection),
  }),
);
export type AddStudentsOutput = z.infer<typeof AddStudentsOutput>;

/** POST /api/courses/:id/confirm-student: the instructor confirms a registrant their invitation waits for. */
export const ConfirmStudentInput = lazySchema(() => z.object({ email: Email }));
export type ConfirmStudentInput = z.input<typeof ConfirmStudentInput>;

/**
 * POST /api/courses/:id/decline-registrant: "Not my student". The account registered with an
 * invited email is closed (if its address was never proved and it holds nothing), so the invited
 * student can register with it; the invitation keeps waiting.
 */
export const DeclineRegistrantInput = lazySchema(() => z.object({ email: Email }));
export type DeclineRegistrantInput = z.input<typeof DeclineRegistrantInput>;
