import type { PersonRef } from '@gradewise/shared/contracts/courses';
import type {
  GradingWorkFields,
  SetQuestionGradersInput,
  SetStudentGradersInput,
  WorkSplitChangeOutput,
  WorkSplitOutput,
} from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectStaffOfCourse } from '../models/course-staff.ts';
import { selectCourseWithInstructor } from '../models/courses.ts';
import { selectRosterOfCourse } from '../models/enrollments.ts';
import { selectLatestAnswerKeys } from '../models/submissions.ts';
import { selectPeopleByIds, type UserRow } from '../models/users.ts';
import {
  replaceQuestionGraders,
  selectGradingWorkOfQuestion,
  selectQuestionGradersOfCourse,
  selectQuestionsOfCourse,
  selectStudentGradersOfCourse,
  writeStudentGraders,
} from '../models/work-split.ts';
import { loadVisibleCourse, requireGrader, requireOwner, type CourseScope } from '../policies/course-access.ts';
import { readStudentIdentities } from './anonymous-grading.ts';

/**
 * The work split of a course team (issue 12 item 1, decision 0031), and the one home of the rule
 * that says whose an answer is:
 * 1. a question with graders of its own splits its students among them in contiguous ranges, in
 *    the order staff lists use (by name; by anonymous label while the assignment is anonymous, so
 *    a range says nothing about names). Three graders on a 300-student question get 100 each, and
 *    no answer is in two shares;
 * 2. else the student's own grader (a section the instructor gave them) grades their answers;
 * 3. else the answer is everyone's.
 * The owner and the TAs can be graders. Removing a TA removes their rows (services/course-staff.ts),
 * so their answers fall back to the next rule.
 */

interface StudentColumns {
  id: string;
  name: string;
  email: string;
}

/** The graders of each answer to one question: grader ids, empty when the answer is everyone's. */
export function assignAnswers(input: {
  /** The question's own graders, in a fixed order. */
  questionGraderIds: readonly string[];
  /** Every student who may answer, in the order of staff lists. */
  studentsInOrder: readonly string[];
  /** Each student's grader (their section), when they have one. */
  studentGraders: ReadonlyMap<string, string>;
}): (studentId: string) => string[] {
  const { questionGraderIds, studentsInOrder, studentGraders } = input;
  if (questionGraderIds.length > 0) {
    const position = new Map(studentsInOrder.map((id, index) => [id, index]));
    const count = studentsInOrder.length;
    return (studentId) => {
      const index = position.get(studentId);
      // Not among the students listed (cannot happen for a current answer): the question's graders share it.
      if (index === undefined) return [...questionGraderIds];
      return [questionGraderIds[Math.floor((index * questionGraderIds.length) / count)]!];
    };
  }
  return (studentId) => {
    const grader = studentGraders.get(studentId);
    return grader ? [grader] : [];
  };
}

/** The work fields of a staff list's answers, and until when they hold without a write. */
export interface GradingWork {
  of: (answer: { studentId: string; submissionId: string }) => GradingWorkFields;
  /** When the first of the shown leases lapses (an answer stops being open with no write), if any. */
  openUntil: Date | null;
}

/**
 * For a staff list of one question (question page rows, review queue): each answer's graders,
 * whether it is in the viewer's share, and who has it open right now. `answers` are the rows shown
 * (a page of the question page is enough): whose share an answer is depends on the whole class, so
 * when the question has graders of its own the class (roster and everyone who answered) is read here.
 */
export async function readGradingWork(
  ctx: AppContext,
  scope: { assignment: AssignmentRow; question: { id: string } },
  viewer: UserRow,
  answers: readonly { submissionId: string }[],
): Promise<GradingWork> {
  const { assignment, question } = scope;
  const { questionGraderIds, studentGraders, leases } = await selectGradingWorkOfQuestion(ctx.db, {
    questionId: question.id,
    courseId: assignment.courseId,
    submissionIds: answers.map((answer) => answer.submissionId),
    now: currentTime(ctx),
  });
  const people = await selectPeopleByIds(ctx.db, [...questionGraderIds, ...studentGraders.values()]);
  const graderIds = [...questionGraderIds].sort((a, b) => byPerson(people.get(a), people.get(b)) || a.localeCompare(b));
  const studentsInOrder = graderIds.length > 0 ? await readClassInOrder(ctx, assignment, question.id) : [];
  const gradersOf = assignAnswers({ questionGraderIds: graderIds, studentsInOrder, studentGraders });
  const personRef = (id: string): PersonRef => ({ _id: id, name: people.get(id)?.name ?? 'Former grader' });
  const lapses = [...leases.values()].map((lease) => lease.expiresAt.getTime());
  return {
    of: ({ studentId, submissionId }) => {
      const assigned = gradersOf(studentId);
      const lease = leases.get(submissionId);
      return {
        assignedTo: assigned.map(personRef),
        isMine: assigned.length === 0 || assigned.includes(viewer.id),
        openBy: lease ? { _id: lease.graderId, name: lease.graderName, since: lease.startedAt.toISOString() } : null,
      };
    },
    openUntil: lapses.length > 0 ? new Date(Math.min(...lapses)) : null,
  };
}

/** Every student who may answer (the roster, and anyone who answered), in the order of staff lists. */
async function readClassInOrder(ctx: AppContext, assignment: AssignmentRow, questionId: string): Promise<string[]> {
  const [roster, answered] = await Promise.all([
    selectRosterOfCourse(ctx.db, assignment.courseId),
    selectLatestAnswerKeys(ctx.db, questionId),
  ]);
  const students = new Map<string, StudentColumns>(roster.map((student) => [student.id, student]));
  for (const { student } of answered) students.set(student.id, student);
  const identities = await readStudentIdentities(ctx, assignment, [...students.keys()]);
  return [...students.values()].sort(identities.compare).map((student) => student.id);
}

const byPerson = (a: { name: string } | undefined, b: { name: string } | undefined) =>
  (a?.name ?? '').localeCompare(b?.name ?? '', 'en', { sensitivity: 'base' });

/** GET /api/courses/:id/work-split: the graders, every question's graders and every student's grader. */
export async function readWorkSplit(ctx: AppContext, user: UserRow, courseId: string): Promise<WorkSplitOutput> {
  const scope = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), 'see its work split');
  return presentWorkSplit(ctx, scope);
}

async function presentWorkSplit(ctx: AppContext, { course }: CourseScope): Promise<WorkSplitOutput> {
  const [withInstructor, staff, questions, questionGraders, studentGraders, roster] = await Promise.all([
    selectCourseWithInstructor(ctx.db, course.id),
    selectStaffOfCourse(ctx.db, course.id),
    selectQuestionsOfCourse(ctx.db, course.id),
    selectQuestionGradersOfCourse(ctx.db, course.id),
    selectStudentGradersOfCourse(ctx.db, course.id),
    selectRosterOfCourse(ctx.db, course.id),
  ]);
  const owner = withInstructor!.instructor;
  const graders = [
    { _id: owner.id, name: owner.name, isOwner: true },
    ...staff.map((member) => ({ _id: member.id, name: member.name, isOwner: false })),
  ];
  const positionInAssignment = new Map<string, number>();
  return {
    graders,
    questions: questions.map((question) => {
      const position = (positionInAssignment.get(question.assignmentId) ?? 0) + 1;
      positionInAssignment.set(question.assignmentId, position);
      const order = new Map(graders.map((grader, index) => [grader._id, index]));
      return {
        questionId: question.id,
        assignmentId: question.assignmentId,
        assignmentTitle: question.assignmentTitle,
        questionLabel: question.title ?? `Question ${position}`,
        graderIds: [...(questionGraders.get(question.id) ?? [])].sort(
          (a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity),
        ),
      };
    }),
    students: roster.map((student) => ({
      _id: student.id,
      name: student.name,
      email: student.email,
      graderId: studentGraders.get(student.id) ?? null,
    })),
  };
}

/** The course's graders: its owner and its TAs (ids). */
async function graderIdsOf(ctx: AppContext, scope: CourseScope): Promise<Set<string>> {
  const staff = await selectStaffOfCourse(ctx.db, scope.course.id);
  return new Set([scope.course.instructorId, ...staff.map((member) => member.id)]);
}

function requireGraders(ids: readonly string[], graders: Set<string>): void {
  const strangers = ids.filter((id) => !graders.has(id));
  if (strangers.length > 0)
    throw badRequest(
      'Only the instructor and the teaching assistants of this course can be given work. Add them to the staff first.',
    );
}

/** PUT /api/courses/:id/work-split/questions/:questionId (owner): who grades this question. */
export async function setQuestionGraders(
  ctx: AppContext,
  user: UserRow,
  params: { courseId: string; questionId: string },
  input: SetQuestionGradersInput,
): Promise<WorkSplitChangeOutput> {
  const scope = requireOwner(await loadVisibleCourse(ctx.db, user, params.courseId), 'split the grading work');
  const questions = await selectQuestionsOfCourse(ctx.db, scope.course.id);
  if (!questions.some((question) => question.id === params.questionId)) throw notFound('Question not found.');
  const graderIds = [...new Set(input.graderIds)];
  requireGraders(graderIds, await graderIdsOf(ctx, scope));
  await ctx.db.transaction((tx) => replaceQuestionGraders(tx, params.questionId, graderIds));
  return {
    message:
      graderIds.length === 0
        ? 'This question has no graders of its own now.'
        : graderIds.length === 1
          ? 'This question has one grader now.'
          : `This question is split among ${graderIds.length} graders now.`,
    split: await presentWorkSplit(ctx, scope),
  };
}

/** PUT /api/courses/:id/work-split/students (owner): each listed student's grader. */
export async function setStudentGraders(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  input: SetStudentGradersInput,
): Promise<WorkSplitChangeOutput> {
  const scope = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'split the grading work');
  const studentIds = input.students.map((change) => change.studentId);
  if (new Set(studentIds).size !== studentIds.length) throw badRequest('Each student can be listed once.');
  const roster = new Set((await selectRosterOfCourse(ctx.db, scope.course.id)).map((student) => student.id));
  if (studentIds.some((id) => !roster.has(id)))
    throw badRequest('Only students on this course’s roster can be given a grader.');
  requireGraders(
    input.students.flatMap((change) => (change.graderId === null ? [] : [change.graderId])),
    await graderIdsOf(ctx, scope),
  );
  await ctx.db.transaction((tx) => writeStudentGraders(tx, scope.course.id, input.students));
  const count = input.students.length;
  return {
    message: `${count} ${count === 1 ? 'student' : 'students'} updated.`,
    split: await presentWorkSplit(ctx, scope),
  };
}
