import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudents, addTa, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Anonymous grading (issue 12 item 4, issue 28): while an assignment is anonymous, no staff response
 * of its grading surfaces carries a student's name, email or user id; students go by "Student N",
 * stable per assignment. The class list stays named; the owner's grades CSV is an explicit reveal,
 * recorded. (test/anonymity-every-route.test.ts walks every route the same way.)
 */

let t: TestApp;
let world: CourseWorld;
const students: TestUser[] = [];
const submissionOf = new Map<string, any>();

// Names and emails that cannot appear by accident in anything else a response carries.
const CLASS = [
  { name: 'Zoltan Quackenbush', email: 'zoltan.quackenbush@example.edu', answer: 'Two plus two is four.' },
  { name: 'Abigail Xylophone', email: 'abigail.xylophone@example.edu', answer: 'It is 4 since 2 + 2 = 4.' },
  { name: 'Mortimer Yellowhammer', email: 'mortimer.yellowhammer@example.edu', answer: 'Two plus two is four.' },
];

const base = () => questionPath(world.assignment._id, world.question._id);
const setAnonymous = (isAnonymous: boolean, user: TestUser = world.instructor) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${world.assignment._id}/anonymous-grading`,
    headers: user.auth,
    payload: { isAnonymous },
  });

/** Every name, email and user id of the class (the world's student included). */
function identifiers(): string[] {
  return [...students, world.student].flatMap((student) => [student.name, student.email, student.id]);
}

function leaksOf(body: string): string[] {
  const lower = body.toLowerCase();
  return identifiers().filter((identifier) => lower.includes(identifier.toLowerCase()));
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: world.instructor.auth });

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
  const target = { assignmentId: world.assignment._id, questionId: world.question._id };
  await saveRubric(t.app, world.instructor, target, {
    questionText: 'What is 2 + 2?',
    solutionText: '2 + 2 = 4',
    items: [
      { id: 'item-value', criterion: 'Gives the value 4', points: 6 },
      { id: 'item-why', criterion: 'Explains the addition', points: 4 },
    ],
  });
  for (const person of CLASS) {
    const student = await registerUser(t.app, { name: person.name, email: person.email });
    await addStudents(t.app, world.instructor, world.course._id, [student.email]);
    students.push(student);
    submissionOf.set(
      student.id,
      await submitAnswer(t.app, student, target.assignmentId, target.questionId, person.answer),
    );
  }
  // One answer suggested and graded, one suggested only: every status shows on the surfaces.
  const first = submissionOf.get(students[0]!.id);
  await gradeWithAi(t.app, world.instructor, { ...target, submissionId: first._id });
  await saveGrade(t.app, world.instructor, { ...target, submissionId: first._id, points: 10 }, [
    { text: 'No explanation.', pointsDeducted: 4, accepted: true, rubricItemId: 'item-why' },
  ]);
  await gradeWithAi(t.app, world.instructor, { ...target, submissionId: submissionOf.get(students[1]!.id)._id });
});

afterAll(async () => {
  await t?.close();
});

describe('anonymous grading', () => {
  it('is off by default: staff see names and emails', async () => {
    const detail = (await get(`${base()}?includeSubmissions=1`)).json();
    expect(detail.submissions.map((row: any) => row.student.name).sort()).toEqual(CLASS.map((p) => p.name).sort());
    expect((await get(`/api/assignments/${world.assignment._id}`)).json().isAnonymous).toBe(false);
  });

  it('only the owner may turn it on; bad input is a clear 400 that changes nothing', async () => {
    const asStudent = await setAnonymous(true, students[0]!);
    expect(asStudent.statusCode).toBe(403);
    const stranger = await registerUser(t.app, { role: 'instructor' });
    expect((await setAnonymous(true, stranger)).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${world.assignment._id}/anonymous-grading`,
      headers: world.instructor.auth,
      payload: { isAnonymous: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/true or false/);
    expect((await get(`/api/assignments/${world.assignment._id}`)).json().isAnonymous).toBe(false);
  });

  it('turned on, staff see Student 1…N, stable, with no email and no user id, ordered by label', async () => {
    const response = await setAnonymous(true);
    expect(response.statusCode).toBe(200);
    expect(response.json().assignment.isAnonymous).toBe(true);

    const detail = (await get(`${base()}?includeSubmissions=1`)).json();
    // Everyone in the class was numbered when it was turned on (4 with the world's student, who
    // has not submitted), so the 3 submitters carry 3 distinct numbers of 1…4, listed in order.
    const numbers = detail.submissions.map((row: any) => Number(/^Student (\d+)$/.exec(row.student.name)?.[1]));
    expect(numbers).toHaveLength(3);
    expect(new Set(numbers).size).toBe(3);
    for (const number of numbers) expect([1, 2, 3, 4]).toContain(number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    for (const row of detail.submissions) {
      expect(row.student.email).toBe('');
      expect(row.student._id).toMatch(/^anonymous-\d+$/);
      // Uploaded by the student themself: masked the same way.
      expect(row.uploadedBy).toEqual({ _id: row.student._id, name: row.student.name });
    }

    // The same student has the same label on every surface and on every read.
    const labelOf = (rows: { submissionId?: string; _id?: string; student: { name: string } }[]) =>
      new Map(rows.map((row) => [row.submissionId ?? row._id, row.student.name]));
    const onQuestionPage = labelOf(detail.submissions);
    const queue = (await get(`${base()}/review-queue`)).json();
    expect(labelOf(queue.items)).toEqual(onQuestionPage);
    const again = (await get(`${base()}?includeSubmissions=1`)).json();
    expect(labelOf(again.submissions)).toEqual(onQuestionPage);
    const groups = (await get(`${base()}/answer-groups`)).json();
    for (const member of groups.groups.flatMap((group: any) => group.members)) {
      expect(member.student.name).toBe(onQuestionPage.get(member.submissionId));
    }
  });

  it('no staff grading response of the assignment carries a student name, email or user id', async () => {
    const target = submissionOf.get(students[0]!.id);
    const responses: [string, { statusCode: number; body: string }][] = [];
    const record = async (what: string, response: Promise<{ statusCode: number; body: string }>) => {
      const answered = await response;
      responses.push([what, answered]);
      return answered;
    };
    await record('assignment', get(`/api/assignments/${world.assignment._id}`));
    await record('assignments list', get(`/api/assignments?courseId=${world.course._id}`));
    await record('question list', get(`/api/assignments/${world.assignment._id}/questions`));
    await record('question page', get(`${base()}?includeSubmissions=1`));
    await record('review queue', get(`${base()}/review-queue`));
    await record('answer groups', get(`${base()}/answer-groups`));
    await record('suggestion summary', get(`${base()}/suggestion-summary`));
    await record('AI quota', get(`${base()}/ai-quota`));
    await record('versions', get(`${base()}/submissions/${target._id}/versions`));
    await record(
      'grading screen (saved grade)',
      t.app.inject({ method: 'POST', url: `${base()}/grade/${target._id}`, headers: world.instructor.auth }),
    );
    await record(
      'grading screen (fresh suggestion)',
      t.app.inject({
        method: 'POST',
        url: `${base()}/grade/${submissionOf.get(students[2]!.id)._id}`,
        headers: world.instructor.auth,
      }),
    );
    await record(
      'regrade',
      t.app.inject({ method: 'POST', url: `${base()}/regrade/${target._id}`, headers: world.instructor.auth }),
    );
    await record(
      'rubric trial on chosen submissions',
      t.app.inject({
        method: 'POST',
        url: `${base()}/rubric-trial`,
        headers: world.instructor.auth,
        payload: {
          questionText: 'What is 2 + 2?',
          solutionText: '2 + 2 = 4',
          items: [{ criterion: 'Gives the value 4', points: 10 }],
          submissionIds: [...submissionOf.values()].map((submission) => submission._id),
        },
      }),
    );
    await record(
      'save grade',
      t.app.inject({
        method: 'POST',
        url: `${base()}/save-grade/${submissionOf.get(students[1]!.id)._id}`,
        headers: world.instructor.auth,
        payload: { grade: 10, feedback: '', comments: [], expectedGradeId: null },
      }),
    );
    await record(
      'reopen',
      t.app.inject({
        method: 'POST',
        url: `${base()}/submissions/${target._id}/reopen`,
        headers: world.instructor.auth,
      }),
    );
    await record(
      'grade all',
      t.app.inject({ method: 'POST', url: `${base()}/grade-all`, headers: world.instructor.auth }),
    );

    for (const [what, response] of responses) {
      expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(300);
      expect(leaksOf(response.body), what).toEqual([]);
    }
    // The walk saw the class: labels, not nothing.
    const trial = JSON.parse(responses.find(([what]) => what.startsWith('rubric trial'))![1].body);
    const page = JSON.parse(responses.find(([what]) => what === 'question page')![1].body);
    expect(trial.results.map((result: any) => result.label).sort()).toEqual(
      page.submissions.map((row: any) => row.student.name).sort(),
    );
    const reopen = JSON.parse(responses.find(([what]) => what === 'reopen')![1].body);
    expect(reopen.message).toMatch(/^Reopened for Student \d:/);
  });

  it('a TA grading the anonymous assignment sees labels everywhere, the report and statistics included', async () => {
    const ta = await registerUser(t.app, { role: 'instructor', name: 'Tessa Assistant' });
    await addTa(t.app, world.instructor, world.course._id, ta);
    const asTa = (url: string) => t.app.inject({ method: 'GET', url, headers: ta.auth });
    const target = submissionOf.get(students[0]!.id);
    const urls = [
      `${base()}?includeSubmissions=1`,
      `${base()}/review-queue`,
      `${base()}/answer-groups`,
      `${base()}/grade/${target._id}/report`,
      `${base()}/statistics`,
      `/api/assignments/${world.assignment._id}/statistics`,
    ];
    for (const url of urls) {
      const response = await asTa(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(leaksOf(response.body), url).toEqual([]);
    }
    const report = (await asTa(`${base()}/grade/${target._id}/report`)).json();
    expect(report.submission.student.name).toMatch(/^Student \d+$/);
  });

  it("the class list stays named; the grades CSV is the owner's explicit reveal, recorded; the report shows the label to the owner too", async () => {
    const roster = (await get(`/api/courses/${world.course._id}`)).json();
    expect(roster.students.map((s: any) => s.email)).toEqual(expect.arrayContaining(CLASS.map((p) => p.email)));
    const reveals = () => get(`/api/assignments/${world.assignment._id}/identity-reveals`);
    expect((await reveals()).json()).toEqual({ reveals: [] });

    const csv = await get(`/api/assignments/${world.assignment._id}/grades.csv`);
    expect(csv.statusCode).toBe(200);
    for (const person of CLASS) expect(csv.body).toContain(person.email);
    const questionCsv = await get(`${base()}/grades.csv`);
    expect(questionCsv.statusCode).toBe(200);
    const recorded = (await reveals()).json().reveals;
    expect(recorded).toEqual([
      {
        _id: expect.any(String),
        kind: 'grades-csv',
        questionId: world.question._id,
        revealedBy: { _id: world.instructor.id, name: world.instructor.name },
        revealedAt: expect.any(String),
        description: `${world.instructor.name} downloaded a question's grades CSV, with names.`,
      },
      {
        _id: expect.any(String),
        kind: 'grades-csv',
        questionId: null,
        revealedBy: { _id: world.instructor.id, name: world.instructor.name },
        revealedAt: expect.any(String),
        description: `${world.instructor.name} downloaded the assignment's grades CSV, with names.`,
      },
    ]);
    // The record names staff only.
    expect(leaksOf(JSON.stringify(recorded))).toEqual([]);

    const target = submissionOf.get(students[0]!.id);
    const report = (await get(`${base()}/grade/${target._id}/report`)).json();
    expect(report.submission.student.name).toMatch(/^Student \d+$/);
  });

  it('a student who joins later gets the next number; turning it off names everyone, on again keeps the labels', async () => {
    const before = (await get(`${base()}?includeSubmissions=1`)).json();
    const late = await registerUser(t.app, { name: 'Ophelia Latecomer', email: 'ophelia.latecomer@example.edu' });
    students.push(late);
    await addStudents(t.app, world.instructor, world.course._id, [late.email]);
    await submitAnswer(t.app, late, world.assignment._id, world.question._id, 'Four.');
    const withLate = (await get(`${base()}?includeSubmissions=1`)).json();
    expect(withLate.submissions).toHaveLength(4);
    // Four were numbered when it was turned on (the world's student too): the late-comer is the fifth, listed last.
    const lateRow = withLate.submissions.find(
      (row: any) => !before.submissions.some((old: any) => old._id === row._id),
    );
    expect(lateRow.student.name).toBe('Student 5');
    expect(withLate.submissions.at(-1)._id).toBe(lateRow._id);
    expect(leaksOf(JSON.stringify(withLate))).toEqual([]);

    expect((await setAnonymous(false)).statusCode).toBe(200);
    // Turning it off showed every grader the names: recorded as a reveal (once; off again is not).
    expect((await setAnonymous(false)).statusCode).toBe(200);
    const reveals = (await get(`/api/assignments/${world.assignment._id}/identity-reveals`)).json().reveals;
    expect(reveals.filter((reveal: any) => reveal.kind === 'anonymity-off')).toEqual([
      expect.objectContaining({
        revealedBy: { _id: world.instructor.id, name: world.instructor.name },
        description: `${world.instructor.name} turned anonymous grading off: graders see names again.`,
      }),
    ]);
    const named = (await get(`${base()}?includeSubmissions=1`)).json();
    expect(named.submissions.map((row: any) => row.student.email).sort()).toEqual(
      [...CLASS.map((p) => p.email), late.email].sort(),
    );

    expect((await setAnonymous(true)).statusCode).toBe(200);
    const relabelled = (await get(`${base()}?includeSubmissions=1`)).json();
    const labelsById = (rows: any[]) => new Map(rows.map((row) => [row._id, row.student.name]));
    expect(labelsById(relabelled.submissions)).toEqual(labelsById(withLate.submissions));
  });
});
