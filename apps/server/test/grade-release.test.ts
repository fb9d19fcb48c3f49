import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addStudents,
  createAssignment,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Release of grades (issue 12 item 5): by default a grade is visible when it is saved, as before;
 * an instructor may hold the grades of an assignment or of one question, and then no route a
 * student reads (the report, the question detail with their row) carries the score, the comments,
 * the answer text of a graded report or the AI-use note until they are released. Staff see all.
 */
let t: TestApp;
let world: CourseWorld;

beforeAll(async () => {
  // With jobs: one test grades with the AI, to check the AI-use note follows the release.
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
});
afterAll(async () => {
  await t?.close();
});

interface Graded {
  student: TestUser;
  assignmentId: string;
  questionId: string;
  submissionId: string;
  base: string;
}

async function gradedAnswer(assignmentId: string, options: { withAi?: boolean } = {}): Promise<Graded> {
  const question = await createQuestion(t.app, world.instructor, assignmentId, { points: '10' });
  const student = await registerUser(t.app, { name: `Student ${Math.random().toString(36).slice(2, 8)}` });
  await addStudents(t.app, world.instructor, world.course._id, [student.email]);
  const submission = await submitAnswer(t.app, student, assignmentId, question._id, 'The answer is 4.');
  const target = { assignmentId, questionId: question._id, submissionId: submission._id };
  if (options.withAi) await gradeWithAi(t.app, world.instructor, target);
  await saveGrade(t.app, world.instructor, { ...target, points: 10 }, [
    { text: 'Missing the reasoning.', pointsDeducted: 3, accepted: true, rubricItemId: null },
  ]);
  return { student, ...target, base: questionPath(assignmentId, question._id) };
}

async function setRelease(url: string, released: boolean, as: TestUser = world.instructor) {
  return t.app.inject({ method: 'POST', url, headers: as.auth, payload: { released } });
}

/** Everything a student can read about their grade, through each route that shows one. */
async function studentView(answer: Graded) {
  const report = await t.app.inject({
    method: 'GET',
    url: `${answer.base}/grade/${answer.submissionId}/report`,
    headers: answer.student.auth,
  });
  const detail = await t.app.inject({
    method: 'GET',
    url: `${answer.base}?includeSubmissions=1`,
    headers: answer.student.auth,
  });
  expect(report.statusCode).toBe(200);
  expect(detail.statusCode).toBe(200);
  return { report: report.json(), row: detail.json().submissions[0] };
}

function expectNothingOfTheGrade(view: Awaited<ReturnType<typeof studentView>>) {
  expect(view.report).toMatchObject({
    isAlreadyGraded: false,
    grade: null,
    comments: [],
    extractedText: '',
    gradeWithheld: true,
    isAiAssisted: false,
    gradedVersion: null,
  });
  expect(view.row).toMatchObject({ grade: null, isAlreadyGraded: false, gradeWithheld: true, gradedVersion: null });
  // Nothing of the held grade anywhere in what the student receives.
  const everything = JSON.stringify(view);
  expect(everything).not.toContain('Missing the reasoning.');
  expect(everything).not.toMatch(/"grade":7\b/);
}

describe('release of grades', () => {
  it('shows a grade as soon as it is saved by default, as before', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Default' });
    const answer = await gradedAnswer(assignment._id);
    const view = await studentView(answer);
    expect(view.report).toMatchObject({ isAlreadyGraded: true, grade: 7, gradeWithheld: false, isAiAssisted: false });
    expect(view.report.comments.map((comment: { text: string }) => comment.text)).toEqual(['Missing the reasoning.']);
    expect(view.row).toMatchObject({ grade: 7, isAlreadyGraded: true, gradeWithheld: false });
  });

  it('hides every grade of a held assignment from its students until it is released; staff still see them', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Held' });
    const answer = await gradedAnswer(assignment._id);
    const held = await setRelease(`/api/assignments/${assignment._id}/grade-release`, false);
    expect(held.statusCode).toBe(200);
    expect(held.json().release).toEqual({ isHeld: true, releasedAt: null });
    expectNothingOfTheGrade(await studentView(answer));

    // Staff: the report, the question detail (with its release state) and the assignment say it.
    const staffReport = await t.app.inject({
      method: 'GET',
      url: `${answer.base}/grade/${answer.submissionId}/report`,
      headers: world.instructor.auth,
    });
    expect(staffReport.json()).toMatchObject({ grade: 7, isAlreadyGraded: true });
    const staffDetail = await t.app.inject({
      method: 'GET',
      url: `${answer.base}?includeSubmissions=1`,
      headers: world.instructor.auth,
    });
    expect(staffDetail.json().submissions[0].grade).toBe(7);
    expect(staffDetail.json().gradeRelease).toMatchObject({
      isReleased: false,
      assignment: { isHeld: true },
      question: { isHeld: false },
    });
    const assignmentDetail = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment._id}`,
      headers: world.instructor.auth,
    });
    expect(assignmentDetail.json()).toMatchObject({ gradesHeld: true });

    // A grade saved while held stays hidden too.
    const later = await gradedAnswer(assignment._id);
    expectNothingOfTheGrade(await studentView(later));

    const released = await setRelease(`/api/assignments/${assignment._id}/grade-release`, true);
    expect(released.json().release.isHeld).toBe(false);
    expect(released.json().release.releasedAt).not.toBeNull();
    for (const each of [answer, later]) {
      const view = await studentView(each);
      expect(view.report).toMatchObject({ grade: 7, isAlreadyGraded: true, gradeWithheld: false });
      expect(view.row).toMatchObject({ grade: 7, gradeWithheld: false });
    }
  });

  it('holds one question without touching the others of the assignment', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Per question' });
    const heldAnswer = await gradedAnswer(assignment._id);
    const openAnswer = await gradedAnswer(assignment._id);
    const held = await setRelease(`${heldAnswer.base}/grade-release`, false);
    expect(held.statusCode).toBe(200);
    expectNothingOfTheGrade(await studentView(heldAnswer));
    expect((await studentView(openAnswer)).report.grade).toBe(7);
    await setRelease(`${heldAnswer.base}/grade-release`, true);
    expect((await studentView(heldAnswer)).report.grade).toBe(7);
  });

  it('shows the AI-use note only with a released grade that started from an AI suggestion', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'AI note' });
    const answer = await gradedAnswer(assignment._id, { withAi: true });
    expect((await studentView(answer)).report.isAiAssisted).toBe(true);
    await setRelease(`/api/assignments/${assignment._id}/grade-release`, false);
    expectNothingOfTheGrade(await studentView(answer));
    await setRelease(`/api/assignments/${assignment._id}/grade-release`, true);
    expect((await studentView(answer)).report).toMatchObject({ isAiAssisted: true, grade: 7 });
  });

  it('ends anonymous grading when the held grades of the assignment are released', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Blind' });
    const answer = await gradedAnswer(assignment._id);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment._id}/anonymous-grading`,
      headers: world.instructor.auth,
      payload: { isAnonymous: true },
    });
    expect(anonymous.statusCode).toBe(200);
    const staffRow = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `${answer.base}?includeSubmissions=1`,
          headers: world.instructor.auth,
        })
      ).json().submissions[0].student;
    // Never held: each grade was released on save, so anonymity lasts until it is turned off.
    expect((await staffRow()).name).toMatch(/^Student \d+$/);
    await setRelease(`/api/assignments/${assignment._id}/grade-release`, false);
    expect((await staffRow()).name).toMatch(/^Student \d+$/);
    await setRelease(`/api/assignments/${assignment._id}/grade-release`, true);
    expect((await staffRow()).name).toBe(answer.student.name);
  });

  it('lets only the owning instructor hold or release, and checks the body', async () => {
    const url = `/api/assignments/${world.assignment._id}/grade-release`;
    expect((await setRelease(url, false, world.student)).statusCode).toBe(403);
    const stranger = await registerUser(t.app, { role: 'instructor' });
    expect((await setRelease(url, false, stranger)).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: world.instructor.auth,
      payload: { released: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${world.assignment._id}`,
      headers: world.instructor.auth,
    });
    expect(detail.json().gradesHeld).toBe(false);
  });
});
