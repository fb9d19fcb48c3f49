import { count, eq, like, notLike } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { deleteCourses } from '../services/delete-courses.ts';
import { assignments, courses, questions, submissions, users } from '../db/schema.ts';
import { buildCourseFixture, defaultAnswerKind } from './course-fixture.ts';
import { DEMO_QUESTIONS, type AnswerKind } from './demo-content.ts';

/**
 * `npm run demo`: one demo course (PHYS 101) with an instructor, nine students and 27 PDF answers
 * of every quality, including a blank one, a late one, a scanned one and one hiding an injection.
 */

export const DEMO_DOMAIN = 'demo.gradewise.local';
export const DEMO_INSTRUCTOR = {
  name: 'Dr. Robin Demo',
  email: `instructor@${DEMO_DOMAIN}`,
  password: 'gradewise-demo',
};
export const DEMO_STUDENT_PASSWORD = 'gradewise-student';
const DEMO_STUDENT_DOMAIN = `students.${DEMO_DOMAIN}`;
const DEMO_STUDENT_COUNT = 9;
const EXPECTED_SUBMISSIONS = DEMO_STUDENT_COUNT * DEMO_QUESTIONS.length;

/** The special cases the issue asks for, placed on different students and questions. */
function demoAnswerKind(studentIndex: number, questionIndex: number): AnswerKind {
  if (studentIndex === 5 && questionIndex === 0) return 'blank';
  if (studentIndex === 6 && questionIndex === 1) return 'scanned';
  if (studentIndex === 7 && questionIndex === 2) return 'hidden-injection';
  return defaultAnswerKind(studentIndex, questionIndex);
}
const LATE_STUDENT_INDEX = 8;

export class DemoRefusedError extends Error {}

export interface DemoResult {
  status: 'created' | 'already-loaded';
  courseId: string;
  students: { name: string; email: string }[];
}

export async function loadDemo(ctx: AppContext, options: { force?: boolean } = {}): Promise<DemoResult> {
  const existing = await selectDemoCourses(ctx);
  const complete = existing.find((course) => course.submissionCount >= EXPECTED_SUBMISSIONS);
  if (complete) return { status: 'already-loaded', courseId: complete.id, students: await selectDemoStudents(ctx) };

  if (!options.force && (await hasNonDemoData(ctx))) {
    throw new DemoRefusedError(
      'This data directory already holds courses or accounts that are not part of the demo, so the demo was not loaded.\n' +
        'Use another data directory (DATA_DIR=./demo-data npm run demo), or add the demo beside your data with: npm run demo -- --force',
    );
  }
  // A demo left half-built by an interrupted run is removed, its stored files with it, and built again.
  await deleteCourses(
    ctx,
    existing.map((course) => course.id),
  );
  const fixture = await buildCourseFixture(ctx, {
    instructor: DEMO_INSTRUCTOR,
    studentCount: DEMO_STUDENT_COUNT,
    studentPassword: DEMO_STUDENT_PASSWORD,
    studentEmailDomain: DEMO_STUDENT_DOMAIN,
    answerKind: demoAnswerKind,
    lateStudentIndexes: [LATE_STUDENT_INDEX],
    isDemo: true,
  });
  return {
    status: 'created',
    courseId: fixture.course.id,
    students: fixture.students.map((student) => ({ name: student.name, email: student.email })),
  };
}

async function selectDemoCourses(ctx: AppContext): Promise<{ id: string; submissionCount: number }[]> {
  const rows = await ctx.db
    .select({ id: courses.id, submissionCount: count(submissions.id) })
    .from(courses)
    .leftJoin(assignments, eq(assignments.courseId, courses.id))
    .leftJoin(questions, eq(questions.assignmentId, assignments.id))
    .leftJoin(submissions, eq(submissions.questionId, questions.id))
    .where(eq(courses.isDemo, true))
    .groupBy(courses.id);
  return rows.map((row) => ({ id: row.id, submissionCount: Number(row.submissionCount) }));
}

async function selectDemoStudents(ctx: AppContext): Promise<{ name: string; email: string }[]> {
  return ctx.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(like(users.email, `%@${DEMO_STUDENT_DOMAIN}`))
    .orderBy(users.name);
}

async function hasNonDemoData(ctx: AppContext): Promise<boolean> {
  const [otherUser] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(notLike(users.email, `%${DEMO_DOMAIN}`))
    .limit(1);
  const [otherCourse] = await ctx.db.select({ id: courses.id }).from(courses).where(eq(courses.isDemo, false)).limit(1);
  return Boolean(otherUser || otherCourse);
}
