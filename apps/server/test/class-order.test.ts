import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { QuestionPageForStaff } from '@gradewise/shared/contracts/questions';
import { questions, users } from '../src/db/schema.ts';
import { updateUser } from '../src/models/users.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The question page keeps each class's order for one revision of the question (decision 0058):
 * whatever changes the order moves the revision in the database, so a page never shows an order
 * from before the change, and what does not change it leaves the kept order in use.
 */
let t: TestApp;
let owner: TestUser;
let students: TestUser[];
let courseId: string;
let assignmentId: string;
let questionId: string;

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  students = [];
  for (const name of ['Eve', 'alice', 'Dan', 'Carol', 'Bob']) students.push(await registerUser(t.app, { name }));
  courseId = (await createCourse(t.app, owner))._id;
  await addStudents(
    t.app,
    owner,
    courseId,
    students.map((student) => student.email),
  );
  assignmentId = (await createAssignment(t.app, owner, courseId))._id;
  questionId = (await createQuestion(t.app, owner, assignmentId))._id;
  for (const student of students)
    await submitAnswer(t.app, student, assignmentId, questionId, `Answer of ${student.name}`);
});
afterAll(async () => {
  await t?.close();
});

async function page(limit = 10): Promise<QuestionPageForStaff> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${questionPath(assignmentId, questionId)}?includeSubmissions=1&offset=0&limit=${limit}`,
    headers: owner.auth,
  });
  return expectStatus<QuestionPageForStaff>(response, 200, 'question page');
}

const names = (read: QuestionPageForStaff) => read.submissions!.map((row) => row.student.name);

async function revision(): Promise<number> {
  const [row] = await t.ctx.db
    .select({ revision: questions.classRevision })
    .from(questions)
    .where(eq(questions.id, questionId));
  return row!.revision;
}

const studentNamed = (name: string) => students.find((student) => student.name === name)!;

describe('the class order of the question page', () => {
  it('shows a new student and a new version at once', async () => {
    expect(names(await page())).toEqual(['alice', 'Bob', 'Carol', 'Dan', 'Eve']);
    const before = await revision();

    const aaron = await registerUser(t.app, { name: 'Aaron' });
    await addStudents(t.app, owner, courseId, [aaron.email]);
    await submitAnswer(t.app, aaron, assignmentId, questionId, 'Answer of Aaron');
    expect(await revision()).toBe(before + 1);
    const withAaron = await page();
    expect(names(withAaron)).toEqual(['Aaron', 'alice', 'Bob', 'Carol', 'Dan', 'Eve']);
    expect(withAaron.submissionsPage!.total).toBe(6);

    const oldId = withAaron.submissions!.find((row) => row.student.name === 'Bob')!._id;
    const newVersion = await submitAnswer(t.app, studentNamed('Bob'), assignmentId, questionId, 'Bob, again');
    const afterVersion = await page();
    const bob = afterVersion.submissions!.find((row) => row.student.name === 'Bob')!;
    expect(bob._id).toBe(newVersion._id);
    expect(bob._id).not.toBe(oldId);
    expect(afterVersion.submissionsPage!.total).toBe(6);
  });

  it('moves a student who deleted their account to where their new name sorts', async () => {
    expect(names(await page(3))).toEqual(['Aaron', 'alice', 'Bob']);
    const leaving = studentNamed('alice');
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: leaving.auth,
      payload: { password: leaving.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect(names(await page(3))).toEqual(['Aaron', 'Bob', 'Carol']);
    expect(names(await page())).toEqual(['Aaron', 'Bob', 'Carol', 'Dan', 'Deleted account', 'Eve']);
  });

  it('shows anonymous labels in label order as soon as anonymity is turned on, and names when it is off', async () => {
    const turn = (isAnonymous: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/assignments/${assignmentId}/anonymous-grading`,
        headers: owner.auth,
        payload: { isAnonymous },
      });
    expect((await turn(true)).statusCode).toBe(200);
    const labels = names(await page());
    expect(labels).toHaveLength(6);
    for (const label of labels) expect(label).toMatch(/^Student \d+$/);
    const numbers = labels.map((label) => Number(label.slice('Student '.length)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

    expect((await turn(false)).statusCode).toBe(200);
    expect(names(await page())).toEqual(['Aaron', 'Bob', 'Carol', 'Dan', 'Deleted account', 'Eve']);
  });

  it('moves the revision for a rename of a student who answered, and for nothing else about accounts', async () => {
    const before = await revision();
    const dan = studentNamed('Dan');
    // A password change, a sign-out everywhere: the same name and email, the same order.
    await updateUser(t.ctx.db, dan.id, { tokenVersion: sql`${users.tokenVersion} + 1` as unknown as number });
    await updateUser(t.ctx.db, dan.id, { name: 'Dan' });
    expect(await revision()).toBe(before);
    // Someone who never answered this question.
    const outsider = await registerUser(t.app, { name: 'Outsider' });
    await updateUser(t.ctx.db, outsider.id, { name: 'Zed Outsider' });
    expect(await revision()).toBe(before);

    await updateUser(t.ctx.db, dan.id, { name: 'Abigail' });
    expect(await revision()).toBe(before + 1);
    expect(names(await page(2))).toEqual(['Aaron', 'Abigail']);
    await updateUser(t.ctx.db, dan.id, { email: `renamed-${dan.email}` });
    expect(await revision()).toBe(before + 2);
  });
});
