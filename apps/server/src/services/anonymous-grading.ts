import { randomInt } from 'node:crypto';
import type { Person, PersonRef } from '@gradewise/shared/contracts/courses';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectAssignmentSummaryById, type AssignmentSummaryRow } from '../models/assignments.ts';
import {
  insertAnonymousNumbers,
  selectAnonymousNumbers,
  selectHighestAnonymousNumber,
  selectParticipantIds,
  updateAssignmentAnonymity,
} from '../models/anonymous-students.ts';
import {
  insertIdentityReveal,
  selectIdentityRevealsOfAssignment,
  type IdentityRevealKind,
} from '../models/identity-reveals.ts';
import { takeTransactionLock } from '../models/locks.ts';
import type { UserRow } from '../models/users.ts';
import { newId } from '../lib/ids.ts';
import { loadVisibleAssignment, requireGrader, requireOwner } from '../policies/course-access.ts';

/**
 * Anonymous grading (issue 12 item 4, issue 28; decisions 0024 and 0069). While an assignment is
 * anonymous, every route and export staff reach about it shows its students as "Student N" with no
 * email and an opaque id: the question page's submissions, the review queue, answer groups, the
 * rubric trial, versions and reopening, the grading report (the owner's too), the regrade queue and
 * the audit CSV. The class list (roster, work split) is the course's and stays named. The one way
 * names show during anonymity is the owner's explicit reveal, recorded (`recordIdentityReveal`):
 * the grades CSV for a gradebook, or turning anonymity off. This module is the one home of the
 * rule: staff presenters and exports take the `StudentIdentities` it answers and never read a
 * student's name themselves; test/anonymity-every-route.test.ts walks every route to hold it.
 */

interface StudentColumns {
  id: string;
  name: string;
  email: string;
}

export interface StudentIdentities {
  isAnonymous: boolean;
  /** The student as staff see them on a grading surface. */
  person(student: StudentColumns): Person;
  /** Who uploaded a version: the student themself is masked like the student; staff stay named. */
  uploader(uploader: { id: string; name: string }, studentId: string): PersonRef;
  /** The order staff lists use: by label number when anonymous (random, fixed), else by name. */
  compare(a: StudentColumns, b: StudentColumns): number;
}

/**
 * Whether names are hidden right now. Anonymity lasts until the instructor releases the
 * assignment's held grades (decision 0023: hold, grade anonymously, release) or turns it off. An
 * assignment whose grades were never held releases each grade on save, which is no moment to
 * unmask every name, so its anonymity lasts until it is turned off.
 */
export function isAnonymousNow(
  assignment: Pick<AssignmentRow, 'isAnonymous' | 'gradesHeld' | 'gradesReleasedAt'>,
): boolean {
  return assignment.isAnonymous && (assignment.gradesHeld || assignment.gradesReleasedAt === null);
}

// One collator for every comparison: localeCompare with a locale builds one per call, which
// sorting a class of 300 did thousands of times per question page.
const nameCollator = new Intl.Collator('en', { sensitivity: 'base' });
const byName = (a: StudentColumns, b: StudentColumns) =>
  nameCollator.compare(a.name, b.name) || a.email.localeCompare(b.email) || a.id.localeCompare(b.id);

const NAMED: StudentIdentities = {
  isAnonymous: false,
  person: (student) => ({ _id: student.id, name: student.name, email: student.email }),
  uploader: (uploader) => ({ _id: uploader.id, name: uploader.name }),
  compare: byName,
};

export const anonymousLabel = (number: number) => `Student ${number}`;
/** Not a user id: an id could be matched against the roster, which is named. */
const anonymousId = (number: number) => `anonymous-${number}`;

/** The identities to show staff for these students of the assignment (numbering late-comers first). */
export async function readStudentIdentities(
  ctx: AppContext,
  assignment: AssignmentRow,
  studentIds: readonly string[],
): Promise<StudentIdentities> {
  if (!isAnonymousNow(assignment)) return NAMED;
  let numbers = await selectAnonymousNumbers(ctx.db, assignment.id, studentIds);
  const missing = studentIds.filter((id) => !numbers.has(id));
  if (missing.length > 0) {
    await ctx.db.transaction((tx) => numberStudents(tx, assignment.id, missing));
    numbers = await selectAnonymousNumbers(ctx.db, assignment.id, studentIds);
  }
  const numberOf = (studentId: string) => {
    const number = numbers.get(studentId);
    // Every id asked for was numbered above; a stranger id is a caller's bug, never a name leak.
    if (number === undefined) throw new Error(`Student ${studentId} has no anonymous number`);
    return number;
  };
  return {
    isAnonymous: true,
    person: (student) => {
      const number = numberOf(student.id);
      return { _id: anonymousId(number), name: anonymousLabel(number), email: '' };
    },
    uploader: (uploader, studentId) => {
      if (uploader.id !== studentId) return { _id: uploader.id, name: uploader.name };
      const number = numberOf(studentId);
      return { _id: anonymousId(number), name: anonymousLabel(number) };
    },
    compare: (a, b) => numberOf(a.id) - numberOf(b.id),
  };
}

/**
 * Gives the students without a number the next numbers, in a random order. Serialised per
 * assignment (an advisory lock), so two requests never hand out the same number.
 */
async function numberStudents(tx: Db, assignmentId: string, studentIds: readonly string[]): Promise<void> {
  await takeTransactionLock(tx, `anonymous-students:${assignmentId}`);
  const existing = await selectAnonymousNumbers(tx, assignmentId, studentIds);
  const missing = shuffle(studentIds.filter((id) => !existing.has(id)));
  const highest = await selectHighestAnonymousNumber(tx, assignmentId);
  await insertAnonymousNumbers(
    tx,
    assignmentId,
    missing.map((studentId, index) => ({ studentId, number: highest + index + 1 })),
  );
}

/** Fisher–Yates with a cryptographic source: the numbers must not follow names or enrolment order. */
function shuffle<T>(items: T[]): T[] {
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled;
}

/**
 * Records that names were shown while the assignment was anonymous (the owner's explicit reveal),
 * in the caller's transaction or on its own. Nothing is recorded when names were not hidden.
 */
export async function recordIdentityReveal(
  db: Db,
  assignment: AssignmentRow,
  reveal: { kind: IdentityRevealKind; revealedById: string; questionId?: string },
): Promise<void> {
  if (!isAnonymousNow(assignment)) return;
  await insertIdentityReveal(db, {
    id: newId(),
    assignmentId: assignment.id,
    questionId: reveal.questionId ?? null,
    revealedById: reveal.revealedById,
    kind: reveal.kind,
  });
}

/** GET /api/assignments/:id/identity-reveals (course staff): who saw names during anonymity, and when. */
export async function readIdentityReveals(ctx: AppContext, user: UserRow, assignmentId: string) {
  const { assignment } = requireGrader(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'see when student names were revealed',
  );
  return selectIdentityRevealsOfAssignment(ctx.db, assignment.id);
}

/**
 * PUT /api/assignments/:id/anonymous-grading (owning instructor). Turning it on numbers everyone
 * taking part now, in one random draw; numbers are kept when it is turned off, so turning it on
 * again shows the same labels. Turning it off while names are hidden reveals them to every grader,
 * and is recorded as a reveal.
 */
export async function setAnonymousGrading(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  isAnonymous: boolean,
): Promise<AssignmentSummaryRow> {
  const { assignment } = requireOwner(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'change anonymous grading',
  );
  await ctx.db.transaction(async (tx) => {
    if (!isAnonymous) await recordIdentityReveal(tx, assignment, { kind: 'anonymity-off', revealedById: user.id });
    await updateAssignmentAnonymity(tx, assignment.id, isAnonymous);
    if (isAnonymous) await numberStudents(tx, assignment.id, await selectParticipantIds(tx, assignment.id));
  });
  return (await selectAssignmentSummaryById(ctx.db, assignment.id))!;
}
