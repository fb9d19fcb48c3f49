import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { registerUser } from './support/http.ts';
import { questionPath, saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * What the question, assignment and grading pages are told when a read fails. The web says
 * "not found" only for a 404, so a 404 must mean exactly that, and a fault on our side must never
 * pass for one.
 */
let t: TestApp;
let world: CourseWorld;
beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, auth: Record<string, string>) => t.app.inject({ method: 'GET', url, headers: auth });

describe('reads of a question or an assignment', () => {
  it("answer 404 with the spec's words only for one that does not exist or is not the caller's", async () => {
    const outsider = await registerUser(t.app);
    const missingQuestion = await get(
      `${questionPath(world.assignment._id, randomUUID())}?includeSubmissions=1`,
      world.instructor.auth,
    );
    expect(missingQuestion.statusCode).toBe(404);
    expect(missingQuestion.json()).toEqual({ message: 'Question not found.', code: 'NOT_FOUND' });

    const hiddenAssignment = await get(`/api/assignments/${world.assignment._id}`, outsider.auth);
    expect(hiddenAssignment.statusCode).toBe(404);
    expect(hiddenAssignment.json()).toEqual({ message: 'Assignment not found.', code: 'NOT_FOUND' });
  });

  it('answer a generic 500 (never "not found") when the database fails under them', async () => {
    const url = `${questionPath(world.assignment._id, world.question._id)}?includeSubmissions=1`;
    expect((await get(url, world.instructor.auth)).statusCode).toBe(200);

    // A real fault: the table the read needs is gone for a moment.
    await t.ctx.database.executeSql('ALTER TABLE questions RENAME TO questions_out_of_service');
    try {
      for (const response of [
        await get(url, world.instructor.auth),
        await get(url, world.student.auth),
        await get(`/api/assignments/${world.assignment._id}`, world.student.auth),
      ]) {
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          message: 'Something went wrong on our side. Please try again.',
          code: 'INTERNAL',
        });
      }
    } finally {
      await t.ctx.database.executeSql('ALTER TABLE questions_out_of_service RENAME TO questions');
    }
    expect((await get(url, world.instructor.auth)).statusCode).toBe(200);
  });
});

describe('a student at the grading address of their own answer', () => {
  it('is refused grading with a 403 that says why, and may read the report of the same submission', async () => {
    const { assignment, question, instructor, student } = world;
    const submission = await submitAnswer(t.app, student, assignment._id, question._id);
    const base = questionPath(assignment._id, question._id);

    const grade = await t.app.inject({ method: 'POST', url: `${base}/grade/${submission._id}`, headers: student.auth });
    expect(grade.statusCode).toBe(403);
    expect(grade.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the staff of this course can grade submissions.',
    });

    await saveGrade(
      t.app,
      instructor,
      { assignmentId: assignment._id, questionId: question._id, submissionId: submission._id, points: 10 },
      [{ text: 'Show the working.', pointsDeducted: 2, accepted: true }],
    );
    const report = await get(`${base}/grade/${submission._id}/report`, student.auth);
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({ viewer: 'student', grade: 8, submission: { _id: submission._id } });

    // A classmate gets neither: the submission is not theirs to know about.
    const classmate = await registerUser(t.app, { name: 'Cleo Classmate' });
    await t.app.inject({
      method: 'POST',
      url: `/api/courses/${world.course._id}/add-students`,
      headers: instructor.auth,
      payload: { emails: [classmate.email] },
    });
    const peek = await get(`${base}/grade/${submission._id}/report`, classmate.auth);
    expect(peek.statusCode).toBe(404);
    expect(peek.json()).toEqual({ message: 'Submission not found.', code: 'NOT_FOUND' });
  });
});
