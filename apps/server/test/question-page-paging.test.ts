import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { isLeftForGradeAll } from '@gradewise/shared/contracts/grading';
import type {
  QuestionForStaff,
  QuestionForStudent,
  QuestionPageForStaff,
  QuestionSubmissionForStaff,
} from '@gradewise/shared/contracts/questions';
import {
  addStudents,
  addTa,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { makePdf } from './support/files.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { gradeWithAi, questionPath, saveGrade } from './support/review-fixtures.ts';
import { refreshesFinished } from './support/suggestion-refreshes.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * GET .../questions/:q?includeSubmissions=1&limit=&offset= (decision 0042): one page of the
 * submissions table in the table's order, with what the table needs from the whole list.
 */
let t: TestApp;
let owner: TestUser;
let ta: TestUser;
let students: TestUser[];
let assignmentId: string;
let questionId: string;
const NAMES = ['Eve', 'alice', 'Dan', 'Carol', 'Bob'];

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  ta = await registerUser(t.app, { role: 'instructor', name: 'Tess TA' });
  students = [];
  for (const name of NAMES) students.push(await registerUser(t.app, { name }));
  const course = await createCourse(t.app, owner);
  await addStudents(
    t.app,
    owner,
    course._id,
    students.map((student) => student.email),
  );
  await addTa(t.app, owner, course._id, ta);
  const assignment = await createAssignment(t.app, owner, course._id);
  assignmentId = assignment._id;
  questionId = (await createQuestion(t.app, owner, assignmentId))._id;
  for (const student of students)
    await submitAnswer(t.app, student, assignmentId, questionId, `Answer of ${student.name}`);
});
afterAll(async () => {
  await t?.close();
});

async function read<T>(user: TestUser, query: string): Promise<T> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${questionPath(assignmentId, questionId)}?${query}`,
    headers: user.auth,
  });
  return expectStatus<T>(response, 200, `GET question ?${query}`);
}

const namesOf = (question: { submissions?: { student: { name: string } }[] }) =>
  (question.submissions ?? []).map((row) => row.student.name);

/** What a row of the whole list has and a row of a page leaves out (decision 0057). */
const ANSWER_FIELDS = ['comments', 'extractedText', 'hiddenText'] as const;

/**
 * Rows as a page of the table shows them: a whole-list row without the answer's fields; a page's
 * row must have none of them. File links are signed per time window, so only their path is compared.
 */
function tableRows(rows: QuestionPageForStaff['submissions'] | QuestionSubmissionForStaff[] | undefined) {
  return rows!.map((row) => {
    const { comments: _c, extractedText: _e, hiddenText: _h, ...table } = row as QuestionSubmissionForStaff;
    return { ...table, file: row.file.split('?')[0] };
  });
}

describe('the question page, paged', () => {
  it('without paging still answers the whole list with every field, and no page summary', async () => {
    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    expect(namesOf(whole)).toEqual(['alice', 'Bob', 'Carol', 'Dan', 'Eve']);
    expect(whole).not.toHaveProperty('submissionsPage');
    for (const row of whole.submissions!) for (const field of ANSWER_FIELDS) expect(row).toHaveProperty(field);
    const paged = await read<QuestionPageForStaff>(owner, 'includeSubmissions=1&limit=2&offset=0');
    expect(tableRows(paged.submissions)).toEqual(tableRows(whole.submissions!.slice(0, 2)));
  });

  it('pages in the table order and gives the total of the whole list', async () => {
    const pages = [];
    for (const offset of [0, 2, 4]) {
      const page = await read<QuestionForStaff>(owner, `includeSubmissions=1&limit=2&offset=${offset}`);
      expect(page.submissionsPage).toMatchObject({ offset, limit: 2, total: 5 });
      pages.push(namesOf(page));
    }
    expect(pages).toEqual([['alice', 'Bob'], ['Carol', 'Dan'], ['Eve']]);
    const pastTheEnd = await read<QuestionForStaff>(owner, 'includeSubmissions=1&limit=2&offset=10');
    expect(pastTheEnd.submissions).toEqual([]);
    expect(pastTheEnd.submissionsPage).toMatchObject({ total: 5 });
    // offset defaults to 0.
    expect(namesOf(await read<QuestionForStaff>(owner, 'includeSubmissions=1&limit=1'))).toEqual(['alice']);
  });

  it('says whether any submission is graded and what Grade All has left, whatever the page', async () => {
    const before = await read<QuestionForStaff>(owner, 'includeSubmissions=1&limit=1&offset=0');
    expect(before.submissionsPage).toMatchObject({ anyGraded: false, leftForGradeAll: 5 });

    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const rowOf = (name: string) => whole.submissions!.find((row) => row.student.name === name)!;
    // Eve (last page) gets a saved grade, Dan an AI suggestion: neither is left for Grade All.
    await saveGrade(t.app, owner, { assignmentId, questionId, submissionId: rowOf('Eve')._id, points: 10 });
    await gradeWithAi(t.app, owner, { assignmentId, questionId, submissionId: rowOf('Dan')._id });
    // Eve's save refreshes the question's pending suggestions in a job of its own; once it is done,
    // Dan's suggestion stays as the pages below read it (it may change once, learning from Eve).
    await refreshesFinished(t, questionId);

    const firstPage = await read<QuestionForStaff>(owner, 'includeSubmissions=1&limit=2&offset=0');
    expect(namesOf(firstPage)).toEqual(['alice', 'Bob']);
    expect(firstPage.submissions!.some((row) => row.isAlreadyGraded)).toBe(false);
    expect(firstPage.submissionsPage).toMatchObject({ anyGraded: true, leftForGradeAll: 3 });
    // The count is the same rule the whole list's rows show.
    const after = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    expect(after.submissions!.filter((row) => isLeftForGradeAll(row.reviewStatus))).toHaveLength(3);
  });

  it('gives a TA the same page, without the Grade All count (only the owner has Grade All)', async () => {
    const asOwner = await read<QuestionForStaff>(owner, 'includeSubmissions=1&limit=3&offset=1');
    const asTa = await read<QuestionForStaff>(ta, 'includeSubmissions=1&limit=3&offset=1');
    expect(namesOf(asTa)).toEqual(namesOf(asOwner));
    expect(asTa.submissionsPage).toMatchObject({ total: 5, anyGraded: true });
    expect(asTa.submissionsPage).not.toHaveProperty('leftForGradeAll');
  });

  it("leaves each answer's text, comments and findings out of a page's rows, and nothing else (decision 0057)", async () => {
    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const dan = whole.submissions!.find((row) => row.student.name === 'Dan')!;
    // Dan has an AI suggestion (from the test above): comments and a suggested score to leave out or keep.
    expect(dan.comments.length).toBeGreaterThan(0);
    expect(dan.suggestedScore).not.toBeNull();
    const page = await read<QuestionPageForStaff>(owner, 'includeSubmissions=1&limit=2&offset=3');
    expect(namesOf(page)).toEqual(['Dan', 'Eve']);
    for (const row of page.submissions!) for (const field of ANSWER_FIELDS) expect(row).not.toHaveProperty(field);
    expect(tableRows(page.submissions)).toEqual(tableRows(whole.submissions!.slice(3, 5)));
    // The one-submission read (the grading screen's) keeps every field.
    const one = await read<QuestionForStaff>(owner, `includeSubmissions=1&submissionId=${dan._id}`);
    expect(one.submissions![0]!.comments).toEqual(dan.comments);
  });

  it('gives a student only their own submission, paged or not', async () => {
    const eve = students[0]!;
    const page = await read<QuestionForStudent>(eve, 'includeSubmissions=1&limit=10');
    expect(page.viewer).toBe('student');
    expect(namesOf(page)).toEqual(['Eve']);
    expect(page.submissionsPage).toEqual({ offset: 0, limit: 10, total: 1, anyGraded: true });
    expect(page.submissionsPage).not.toHaveProperty('leftForGradeAll');
    const past = await read<QuestionForStudent>(eve, 'includeSubmissions=1&limit=10&offset=1');
    expect(past.submissions).toEqual([]);
    // Bob's answer is not graded: his own page says so, whatever is graded for his classmates.
    const bob = await read<QuestionForStudent>(students[4]!, 'includeSubmissions=1&limit=10');
    expect(namesOf(bob)).toEqual(['Bob']);
    expect(bob.submissionsPage).toMatchObject({ total: 1, anyGraded: false });
  });

  it.each([
    ['includeSubmissions=1&limit=0', 'The limit must be between 1 and 100.'],
    ['includeSubmissions=1&limit=101', 'The limit must be between 1 and 100.'],
    ['includeSubmissions=1&limit=abc', 'The limit must be a whole number.'],
    ['includeSubmissions=1&limit=1e2', 'The limit must be a whole number.'],
    ['includeSubmissions=1&limit=-1', 'The limit must be between 1 and 100.'],
    ['includeSubmissions=1&limit=10&offset=-5', 'The offset must be between 0 and 1000000.'],
    ['includeSubmissions=1&limit=10&offset=', 'The offset must be a whole number.'],
    ['includeSubmissions=1&offset=10', 'An offset needs a limit: say how many submissions a page holds.'],
    ['limit=10', 'A limit or offset pages the submissions: ask for them with includeSubmissions=1.'],
    [
      'includeSubmissions=0&limit=10',
      'A limit or offset pages the submissions: ask for them with includeSubmissions=1.',
    ],
    ['includeSubmissions=1&submissionId=abc', 'The submissionId must be the id of a submission.'],
    [
      'submissionId=00000000-0000-4000-8000-000000000000',
      'A submissionId picks one of the submissions: ask for them with includeSubmissions=1.',
    ],
    [
      'includeSubmissions=1&limit=10&submissionId=00000000-0000-4000-8000-000000000000',
      'Ask for one submission or for a page of them, not both.',
    ],
  ])('refuses ?%s with a 400 that says why', async (query, message) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${questionPath(assignmentId, questionId)}?${query}`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('keeps the route closed to callers outside the course, paged or not', async () => {
    const outsider = await registerUser(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: `${questionPath(assignmentId, questionId)}?includeSubmissions=1&limit=2`,
      headers: outsider.auth,
    });
    expect(response.statusCode).toBe(404);
  });
});

/** The grading screen's read (decision 0046): the list narrowed to one submission. */
describe('the question page, one submission', () => {
  it('answers the very row the whole list has for it, and no page summary', async () => {
    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const unsigned = (row: NonNullable<QuestionForStaff['submissions']>[number]) => ({
      ...row,
      file: row.file.split('?')[0],
    });
    for (const row of whole.submissions!) {
      for (const viewer of [owner, ta]) {
        const one = await read<QuestionForStaff>(viewer, `includeSubmissions=1&submissionId=${row._id}`);
        expect(one.submissions!.map(unsigned)).toEqual([unsigned(row)]);
        expect(one).not.toHaveProperty('submissionsPage');
      }
    }
    // The question's own fields are the whole list's.
    const one = await read<QuestionForStaff>(owner, `includeSubmissions=1&submissionId=${whole.submissions![0]!._id}`);
    expect({ ...one, submissions: undefined, questionFile: undefined, solutionFile: undefined }).toEqual({
      ...whole,
      submissions: undefined,
      questionFile: undefined,
      solutionFile: undefined,
    });
  });

  it("answers no row for an id that is not in the list: unknown, or a student's earlier version", async () => {
    const unknown = await read<QuestionForStaff>(
      owner,
      'includeSubmissions=1&submissionId=00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.submissions).toEqual([]);

    const carol = students[3]!;
    const before = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const earlier = before.submissions!.find((row) => row.student.name === 'Carol')!;
    const form = await multipart({ studentEmail: carol.email, file: pdfPart(await makePdf('Carol, second version')) });
    const upload = await t.app.inject({
      method: 'POST',
      url: `${questionPath(assignmentId, questionId)}/upload-submission`,
      headers: { ...owner.auth, ...form.headers },
      payload: form.payload,
    });
    expectStatus(upload, 201, 'upload a second version');
    const old = await read<QuestionForStaff>(owner, `includeSubmissions=1&submissionId=${earlier._id}`);
    expect(old.submissions).toEqual([]);
    const latest = (await read<QuestionForStaff>(owner, 'includeSubmissions=1')).submissions!.find(
      (row) => row.student.name === 'Carol',
    )!;
    const now = await read<QuestionForStaff>(owner, `includeSubmissions=1&submissionId=${latest._id.toUpperCase()}`);
    expect(now.submissions!.map((row) => [row._id, row.versions])).toEqual([[latest._id, 2]]);
  });

  it("gives a student their own submission only: a classmate's id answers no row", async () => {
    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const idOf = (name: string) => whole.submissions!.find((row) => row.student.name === name)!._id;
    const eve = students[0]!;
    const own = await read<QuestionForStudent>(eve, `includeSubmissions=1&submissionId=${idOf('Eve')}`);
    expect(own.viewer).toBe('student');
    expect(namesOf(own)).toEqual(['Eve']);
    const classmate = await read<QuestionForStudent>(eve, `includeSubmissions=1&submissionId=${idOf('Bob')}`);
    expect(classmate.submissions).toEqual([]);
  });

  it('keeps the route closed to callers outside the course', async () => {
    const whole = await read<QuestionForStaff>(owner, 'includeSubmissions=1');
    const outsider = await registerUser(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: `${questionPath(assignmentId, questionId)}?includeSubmissions=1&submissionId=${whole.submissions![0]!._id}`,
      headers: outsider.auth,
    });
    expect(response.statusCode).toBe(404);
  });
});
