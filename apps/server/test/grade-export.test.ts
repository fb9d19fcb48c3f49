import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import type { CourseForStaff } from '@gradewise/shared/contracts/courses';
import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { escapeCsvCell, toCsv } from '../src/lib/csv.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { csvRows } from './support/csv.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let owner: TestUser;
let otherInstructor: TestUser;
let amy: TestUser;
let bob: TestUser;
let mallory: TestUser;
let nina: TestUser;
let course: CourseForStaff;
let homework: AssignmentDetail;
let limits: QuestionForStaff;
let untitled: QuestionForStaff;

const download = (user: TestUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user ? user.auth : {} });
const assignmentCsvUrl = (assignmentId: string) => `/api/assignments/${assignmentId}/grades.csv`;
const questionCsvUrl = (assignmentId: string, questionId: string) =>
  `/api/assignments/${assignmentId}/questions/${questionId}/grades.csv`;

const rowsOf = csvRows;
const rowOf = (rows: string[][], email: string) => rows.find((row) => row[1] === email);

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  amy = await registerUser(t.app, { name: 'Amy Adams', email: 'amy@example.edu' });
  bob = await registerUser(t.app, { name: 'Bob, "Jr."', email: 'bob@example.edu' });
  mallory = await registerUser(t.app, {
    name: '=HYPERLINK("http://evil.example","Zed")',
    email: 'mallory@example.edu',
  });
  nina = await registerUser(t.app, { name: 'Nina Nosubmit', email: 'nina@example.edu' });
  course = await createCourse(t.app, owner);
  await addStudents(t.app, owner, course._id, [amy.email, bob.email, mallory.email, nina.email]);
  homework = await createAssignment(t.app, owner, course._id, { title: 'Homework 1: Limits & Series' });
  limits = await createQuestion(t.app, owner, homework._id, { title: 'Limits, part A', points: '10' });
  untitled = await createQuestion(t.app, owner, homework._id, { title: '', points: '5' });

  const at = (question: QuestionForStaff, submission: SubmissionForStudent) => ({
    assignmentId: homework._id,
    questionId: question._id,
    submissionId: submission._id,
    points: question.points,
  });
  const amyLimits = await submitAnswer(t.app, amy, homework._id, limits._id);
  const amyUntitled = await submitAnswer(t.app, amy, homework._id, untitled._id);
  const malloryLimits = await submitAnswer(t.app, mallory, homework._id, limits._id);
  await submitAnswer(t.app, bob, homework._id, untitled._id);
  // A declined deduction does not count: 10 - 2.5 = 7.5.
  await saveGrade(t.app, owner, at(limits, amyLimits), [
    { text: 'Missing the epsilon step.', pointsDeducted: 2.5, accepted: true },
    { text: 'Sloppy notation.', pointsDeducted: 1, accepted: false },
  ]);
  await saveGrade(t.app, owner, at(untitled, amyUntitled));
  await saveGrade(t.app, owner, at(limits, malloryLimits), [
    { text: 'Off by one.', pointsDeducted: 1, accepted: true },
  ]);
  // Only the newest saved grade counts.
  await saveGrade(t.app, owner, at(limits, malloryLimits), [
    { text: 'Off by two.', pointsDeducted: 2, accepted: true },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/assignments/:assignmentId/grades.csv', () => {
  it('answers one row per student with the saved grade of each question, the total and the late flag', async () => {
    const response = await download(owner, assignmentCsvUrl(homework._id));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="homework-1-limits-series-grades.csv"');
    expect(response.headers['cache-control']).toBe('no-store');

    const rows = rowsOf(response.body);
    expect(rows[0]).toEqual([
      'Student name',
      'Email',
      'Limits, part A (10 pts)',
      'Question 2 (5 pts)',
      'Total (15 pts)',
      'Late',
    ]);
    expect(rows).toHaveLength(5);
    expect(rowOf(rows, 'amy@example.edu')).toEqual(['Amy Adams', 'amy@example.edu', '7.5', '5', '12.5', 'No']);
    // Submitted, not graded yet: empty cells, not zeros (an AI suggestion is not a grade).
    expect(rowOf(rows, 'bob@example.edu')).toEqual(['Bob, "Jr."', 'bob@example.edu', '', '', '', 'No']);
    expect(rowOf(rows, 'mallory@example.edu')).toEqual([
      `'=HYPERLINK("http://evil.example","Zed")`,
      'mallory@example.edu',
      '8',
      '',
      '8',
      'No',
    ]);
    // On the roster without any answer: a row with nothing in it, and no late flag.
    expect(rowOf(rows, 'nina@example.edu')).toEqual(['Nina Nosubmit', 'nina@example.edu', '', '', '', '']);
  });

  it('writes formula-looking names as text: the cell starts with an apostrophe inside its quotes', async () => {
    const response = await download(owner, assignmentCsvUrl(homework._id));
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"",""Zed"")"`);
    expect(response.body).not.toMatch(/(^|,|\r\n)"?=HYPERLINK/);
  });

  it('refuses an enrolled student (403), another instructor (404), a stranger id (404) and no token (401)', async () => {
    const student = await download(amy, assignmentCsvUrl(homework._id));
    expect(student.statusCode).toBe(403);
    expect(student.json()).toEqual({
      message: 'Only the instructor of this course can download its grades.',
      code: 'FORBIDDEN',
    });
    const other = await download(otherInstructor, assignmentCsvUrl(homework._id));
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: 'Assignment not found.', code: 'NOT_FOUND' });
    expect((await download(owner, assignmentCsvUrl('not-an-id'))).statusCode).toBe(404);
    expect((await download(null, assignmentCsvUrl(homework._id))).statusCode).toBe(401);
  });

  it('answers a header row alone for an assignment without questions', async () => {
    const empty = await createAssignment(t.app, owner, course._id, { title: 'Ünïcode only ✓' });
    const response = await download(owner, assignmentCsvUrl(empty._id));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="unicode-only-grades.csv"');
    const rows = rowsOf(response.body);
    expect(rows[0]).toEqual(['Student name', 'Email', 'Total (0 pts)', 'Late']);
    // Roster students still get their rows, so the file lines up with the gradebook.
    expect(
      rows
        .slice(1)
        .map((row) => row[1])
        .sort(),
    ).toEqual(['amy@example.edu', 'bob@example.edu', 'mallory@example.edu', 'nina@example.edu']);
  });
});

describe('GET .../questions/:questionId/grades.csv', () => {
  it('answers the same layout for one question', async () => {
    const response = await download(owner, questionCsvUrl(homework._id, limits._id));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="homework-1-limits-series-limits-part-a-grades.csv"',
    );
    const rows = rowsOf(response.body);
    expect(rows[0]).toEqual(['Student name', 'Email', 'Limits, part A (10 pts)', 'Total (10 pts)', 'Late']);
    expect(rowOf(rows, 'amy@example.edu')).toEqual(['Amy Adams', 'amy@example.edu', '7.5', '7.5', 'No']);
    // Bob answered the other question only: no answer here, so no late flag either.
    expect(rowOf(rows, 'bob@example.edu')).toEqual(['Bob, "Jr."', 'bob@example.edu', '', '', '']);
  });

  it('flags late answers and counts the latest version, or the grade saved on an earlier one until it is graded', async () => {
    const overdue = await createAssignment(t.app, owner, course._id, {
      title: 'Overdue',
      deadline: '2020-01-01T00:00:00.000Z',
    });
    const question = await createQuestion(t.app, owner, overdue._id, { title: 'Late one', points: '4' });
    const first = await submitAnswer(t.app, amy, overdue._id, question._id);
    await saveGrade(t.app, owner, {
      assignmentId: overdue._id,
      questionId: question._id,
      submissionId: first._id,
      points: 4,
    });
    let rows = rowsOf((await download(owner, questionCsvUrl(overdue._id, question._id))).body);
    expect(rowOf(rows, 'amy@example.edu')).toEqual(['Amy Adams', 'amy@example.edu', '4', '4', 'Yes']);

    // A new version (the instructor reopened the question for Amy) does not blank the saved grade:
    // it keeps counting as a grade on an earlier version until the new version is graded.
    const reopen = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${overdue._id}/questions/${question._id}/submissions/${first._id}/reopen`,
      headers: owner.auth,
    });
    expect(reopen.statusCode).toBe(200);
    const second = await submitAnswer(t.app, amy, overdue._id, question._id, 'A better answer.');
    rows = rowsOf((await download(owner, questionCsvUrl(overdue._id, question._id))).body);
    expect(rowOf(rows, 'amy@example.edu')).toEqual(['Amy Adams', 'amy@example.edu', '4', '4', 'Yes']);

    // Graded again: the latest version's own grade counts.
    await saveGrade(
      t.app,
      owner,
      { assignmentId: overdue._id, questionId: question._id, submissionId: second._id, points: 4 },
      [{ text: 'Units missing.', pointsDeducted: 1, accepted: true }],
    );
    rows = rowsOf((await download(owner, questionCsvUrl(overdue._id, question._id))).body);
    expect(rowOf(rows, 'amy@example.edu')).toEqual(['Amy Adams', 'amy@example.edu', '3', '3', 'Yes']);
  });

  it('refuses a student (403), another instructor (404), and a question under another assignment (404)', async () => {
    expect((await download(amy, questionCsvUrl(homework._id, limits._id))).statusCode).toBe(403);
    expect((await download(otherInstructor, questionCsvUrl(homework._id, limits._id))).statusCode).toBe(404);
    const elsewhere = await createAssignment(t.app, owner, course._id, { title: 'Elsewhere' });
    const response = await download(owner, questionCsvUrl(elsewhere._id, limits._id));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Question not found.', code: 'NOT_FOUND' });
  });
});

describe('CSV cells', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rReturn', `"'\rReturn"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
  ])('writes the text %j as %j', (value, expected) => {
    expect(escapeCsvCell(value)).toBe(expected);
  });

  it('writes numbers as numbers (never guarded), rounded to the hundredth, and null as an empty cell', () => {
    expect(toCsv([[7.5, 10, 3.333333, -1, null, undefined]])).toBe('7.5,10,3.33,-1,,\r\n');
  });
});
