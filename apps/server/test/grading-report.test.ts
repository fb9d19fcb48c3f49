import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaveRubricOutput } from '@gradewise/shared/contracts/grading';
import { GradingReportForStaff, GradingReportForStudent } from '@gradewise/shared/contracts/review';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { expectJson } from './support/expect-json.ts';
import {
  addStudents,
  createCourseWorld,
  fetchFile,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let world: CourseWorld;
let classmate: TestUser;
let outsider: TestUser;
let otherInstructor: TestUser;
let submission: SubmissionForStudent;
let rubric: SaveRubricOutput['autoRubric'][number];

const reportUrl = (submissionId: string) =>
  `${questionPath(world.assignment._id, world.question._id)}/grade/${submissionId}/report`;
const readReport = (user: TestUser | null, submissionId: string) =>
  t.app.inject({ method: 'GET', url: reportUrl(submissionId), headers: user ? user.auth : {} });
const target = () => ({
  assignmentId: world.assignment._id,
  questionId: world.question._id,
  submissionId: submission._id,
  points: 10,
});

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
  classmate = await registerUser(t.app, { name: 'Cleo Classmate' });
  outsider = await registerUser(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  await addStudents(t.app, world.instructor, world.course._id, [classmate.email]);
  rubric = await saveRubric(
    t.app,
    world.instructor,
    { assignmentId: world.assignment._id, questionId: world.question._id },
    {
      questionText: 'What is 2 + 2?',
      solutionText: 'SECRET SOLUTION: 4',
      items: [
        { criterion: 'States the sum', points: 6, guidance: 'The answer is 4.' },
        { criterion: 'Explains the addition', points: 4 },
      ],
    },
  );
  submission = await submitAnswer(
    t.app,
    world.student,
    world.assignment._id,
    world.question._id,
    'The sum is 4 because two and two make four.',
  );
});
afterAll(async () => {
  await t?.close();
});

describe('GET .../grade/:submissionId/report', () => {
  it('before any saved grade: not graded, no text, no comments, for staff and student alike', async () => {
    // An AI suggestion alone is not a grade: the report waits for the instructor's save.
    await gradeWithAi(t.app, world.instructor, target());
    for (const user of [world.instructor, world.student]) {
      const response = await readReport(user, submission._id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ isAlreadyGraded: false, grade: null, extractedText: '', comments: [] });
    }
  });

  it('shows the owner every saved comment, declined ones marked, with the grade, text, confidence and grader', async () => {
    const sumItem = rubric.items[0]!;
    const explainItem = rubric.items[1]!;
    await saveGrade(t.app, world.instructor, target(), [
      { text: 'Good sum.', pointsDeducted: 0, accepted: true, rubricItemId: sumItem.id },
      { text: 'Explanation is thin.', pointsDeducted: 1.5, accepted: true, rubricItemId: explainItem.id },
      { text: 'AI thought the handwriting was unclear.', pointsDeducted: 2, accepted: false, rubricItemId: null },
    ]);
    const response = await readReport(world.instructor, submission._id);
    const report = expectJson(response, 200, GradingReportForStaff);
    expect(report).toMatchObject({
      viewer: 'staff',
      isAlreadyGraded: true,
      grade: 8.5,
      question: { _id: world.question._id, points: 10 },
      submission: { _id: submission._id, isLate: false, student: { _id: world.student.id, name: 'Sam Student' } },
      grader: { kind: 'builtin', provider: 'builtin' },
    });
    expect(report.extractedText).toContain('two and two make four');
    expect(report.confidenceLevel).toEqual(expect.any(Number));
    expect(report.comments.map((comment) => [comment.text, comment.pointsDeducted, comment.accepted])).toEqual([
      ['Good sum.', 0, true],
      ['Explanation is thin.', 1.5, true],
      ['AI thought the handwriting was unclear.', 2, false],
    ]);
    expect(report.comments[1]!.rubricItem).toEqual({
      id: explainItem.id,
      criterion: 'Explains the addition',
      points: 4,
    });
    expect((await fetchFile(t.app, report.submission.file)).statusCode).toBe(200);
  });

  it('shows the student only the accepted comments and the grade: nothing declined, no confidence, grader or rubric', async () => {
    const response = await readReport(world.student, submission._id);
    const report = expectJson(response, 200, GradingReportForStudent);
    expect(report.viewer).toBe('student');
    expect(report).toMatchObject({ isAlreadyGraded: true, grade: 8.5 });
    expect(report.comments.map((comment) => comment.text)).toEqual(['Good sum.', 'Explanation is thin.']);
    expect(report.comments.every((comment) => comment.accepted && comment.rubricItem === null)).toBe(true);
    // What the contract does not name is stripped by the parse: the absences are read on the raw body.
    expect(response.json()).not.toHaveProperty('confidenceLevel');
    expect(response.json()).not.toHaveProperty('grader');
    expect(response.body).not.toContain('handwriting');
    expect(response.body).not.toContain('SECRET SOLUTION');
    expect(response.body).not.toContain('Explains the addition');
    expect((await fetchFile(t.app, report.submission.file)).statusCode).toBe(200);
  });

  it('is 404 for a classmate, a stranger and another instructor, and 401 without a token', async () => {
    for (const user of [classmate, outsider, otherInstructor]) {
      const response = await readReport(user, submission._id);
      expect(response.statusCode).toBe(404);
    }
    expect((await readReport(classmate, submission._id)).json()).toEqual({
      message: 'Submission not found.',
      code: 'NOT_FOUND',
    });
    expect((await readReport(null, submission._id)).statusCode).toBe(401);
    expect((await readReport(world.instructor, 'not-an-id')).statusCode).toBe(404);
  });

  it("after a reopened resubmission: the student's earlier version is 404 (students see only their latest), the owner still reads it, and the new one shows the grade on the earlier version", async () => {
    const reopened = await t.app.inject({
      method: 'POST',
      url: `${questionPath(world.assignment._id, world.question._id)}/submissions/${submission._id}/reopen`,
      headers: world.instructor.auth,
    });
    expect(reopened.statusCode).toBe(200);
    const newer = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id, 'Second try: 4.');
    expect((await readReport(world.student, submission._id)).statusCode).toBe(404);
    expect((await readReport(world.instructor, submission._id)).json()).toMatchObject({
      isAlreadyGraded: true,
      grade: 8.5,
      isGradeOnEarlierVersion: false,
      gradedVersion: 1,
    });
    // Never a blank where a grade was saved: the new version shows the earlier grade, marked as such.
    const studentReport = expectJson(await readReport(world.student, newer._id), 200, GradingReportForStudent);
    expect(studentReport).toMatchObject({
      submission: { _id: newer._id },
      isAlreadyGraded: true,
      grade: 8.5,
      isGradeOnEarlierVersion: true,
      gradedVersion: 1,
    });
    expect(studentReport.comments.map((comment) => comment.text)).toEqual(['Good sum.', 'Explanation is thin.']);
    expect((await readReport(world.instructor, newer._id)).json()).toMatchObject({
      isAlreadyGraded: true,
      grade: 8.5,
      isGradeOnEarlierVersion: true,
      gradedVersion: 1,
    });
  });
});
