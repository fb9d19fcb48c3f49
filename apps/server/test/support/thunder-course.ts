import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { gradingRuns, submissions } from '../../src/db/schema.ts';
import { ensureFileExtraction } from '../../src/services/ensure-file-extraction.ts';
import { addStudents, createAssignment, createCourse, createQuestion, submitAnswer } from './course-fixtures.ts';
import { registerUser, type TestUser } from './http.ts';
import { saveRubric } from './review-fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * A course whose questions all ask why lightning is seen before thunder is heard, with four
 * students' answers of differing quality on each: the setup of the course convention's tests
 * (decisions 0115, 0118). Through HTTP, as an instructor and students would build it.
 */

/** A question of the course: 10 points, the lightning rubric. */
export interface ThunderQuestion {
  assignmentId: string;
  questionId: string;
  points: number;
}

/** The answer of each student who answers every question, by name. */
export const THUNDER_ANSWERS: Record<string, string> = {
  Ann: 'Light travels much faster than sound, so the flash reaches us before the thunder.',
  Ben: 'Light is faster than sound.',
  Cat: 'The sound of thunder is slower than the light of the lightning.',
  Dan: 'Because the lightning is closer to us than the thunder.',
};

/** The rubric of a lightning question: one item of 10 points. */
export const LIGHTNING_RUBRIC = {
  questionText: 'Why do we see lightning before we hear thunder?',
  solutionText: 'Light travels much faster than sound, so the flash reaches us before the sound.',
  items: [{ id: 'item-1', criterion: 'Compares the speeds of light and sound', points: 10 }],
};

/** An instructor (Prof Ada), the named students and a course with them enrolled. */
export async function enrolledCourse(t: TestApp, names: readonly string[]) {
  const instructor = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  const students = new Map<string, TestUser>();
  for (const name of names) {
    students.set(name, await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` }));
  }
  const course = await createCourse(t.app, instructor);
  await addStudents(
    t.app,
    instructor,
    course._id,
    [...students.values()].map((student) => student.email),
  );
  return { instructor, students, course };
}

interface ThunderCourseOptions<Assignments extends readonly (0 | 1)[]> {
  /** The test app's environment. */
  env?: Parameters<typeof createTestApp>[0];
  /** Each question's assignment, in order: 0 for Homework 1, 1 for Homework 2. */
  assignmentOfQuestions: readonly [...Assignments];
  /** Whether Homework 1 allows resubmission. */
  resubmissionOnFirst?: boolean;
}

/**
 * A test app with jobs, Prof Ada's course with Ann, Ben, Cat, Dan (THUNDER_ANSWERS) and Eve, two
 * assignments (Homework 1 and Homework 2), the lightning questions in them, and Ann's to Dan's
 * answers submitted to each question. Eve is enrolled but answers nothing.
 */
export async function thunderCourse<const Assignments extends readonly (0 | 1)[]>(
  options: ThunderCourseOptions<Assignments>,
) {
  const t = await createTestApp(options.env ?? {}, { withJobs: true });
  const { instructor, students, course } = await enrolledCourse(t, [...Object.keys(THUNDER_ANSWERS), 'Eve']);
  const first = await createAssignment(t.app, instructor, course._id, { title: 'Homework 1' });
  if (options.resubmissionOnFirst) {
    const resubmission = await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${first._id}/settings`,
      headers: instructor.auth,
      payload: { allowsResubmission: true },
    });
    expect(resubmission.statusCode).toBe(200);
  }
  const second = await createAssignment(t.app, instructor, course._id, { title: 'Homework 2' });
  const assignments = [first, second];
  const questions: ThunderQuestion[] = [];
  for (const index of options.assignmentOfQuestions) {
    const assignmentId = assignments[index]!._id;
    const question = await createQuestion(t.app, instructor, assignmentId, { points: '10' });
    const ids = { assignmentId, questionId: question._id };
    await saveRubric(t.app, instructor, ids, LIGHTNING_RUBRIC);
    questions.push({ ...ids, points: 10 });
  }
  /** Each question's answers by student name: the submission id. */
  const answers = new Map<ThunderQuestion, Map<string, string>>();
  for (const question of questions) {
    const ids = new Map<string, string>();
    for (const [name, text] of Object.entries(THUNDER_ANSWERS)) {
      const submission = await submitAnswer(
        t.app,
        students.get(name)!,
        question.assignmentId,
        question.questionId,
        text,
      );
      ids.set(name, submission._id);
    }
    answers.set(question, ids);
  }
  /** The student's answer to the question, as a grading target. */
  const answerOf = (question: ThunderQuestion, name: string) => ({
    ...question,
    submissionId: answers.get(question)!.get(name)!,
  });
  return {
    t,
    instructor,
    students,
    /** The questions, one for each of `assignmentOfQuestions`. */
    questions: questions as { [K in keyof Assignments]: ThunderQuestion },
    answers,
    answerOf,
  };
}

/** The submission's newest succeeded grading run. */
export async function newestSucceededRun(t: TestApp, submissionId: string) {
  const [run] = await t.ctx.db
    .select()
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, submissionId), eq(gradingRuns.status, 'succeeded')))
    .orderBy(desc(gradingRuns.createdAt))
    .limit(1);
  return run!;
}

/** Every answer's text read, so no suggestion is made again because its class grew (decision 0093). */
export async function readEveryAnswer(t: TestApp) {
  for (const row of await t.ctx.db.select().from(submissions)) {
    expect((await ensureFileExtraction(t.ctx, row.fileId)).status).toBe('succeeded');
  }
}
