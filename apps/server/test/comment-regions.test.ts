import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradingOutput } from '@gradewise/shared/contracts/grading';
import { GradingReportForStaff, GradingReportForStudent } from '@gradewise/shared/contracts/review';
import { expectJson } from './support/expect-json.ts';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { createCourseWorld, type CourseWorld } from './support/course-fixtures.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { currentGradeId, questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 13 item 12: a comment may point at a place on the answer (a page and a box on it). The box
 * is checked by the contract, the page against the submission's own PDF; it is stored with the
 * grade and shown back in the grading data and the report (a student's only with accepted comments).
 */
let t: TestApp;
let world: CourseWorld;
let submissionId: string;
beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
  // A two-page answer.
  const content = Buffer.from(await buildTextPdf({ pages: [['Part (a): v = 12 m/s.'], ['Part (b): d = 36 m.']] }));
  const form = await multipart({ file: pdfPart(content) });
  const response = await t.app.inject({
    method: 'POST',
    url: `${questionPath(world.assignment._id, world.question._id)}/submit`,
    headers: { ...world.student.auth, ...form.headers },
    payload: form.payload,
  });
  expect(response.statusCode).toBe(201);
  submissionId = response.json().submission._id;
});
afterAll(async () => {
  await t?.close();
});

const base = () => questionPath(world.assignment._id, world.question._id);
const saveWith = async (comments: object[], grade: number) => {
  const target = { assignmentId: world.assignment._id, questionId: world.question._id, submissionId };
  const expectedGradeId = await currentGradeId(t.app, world.instructor, target);
  return t.app.inject({
    method: 'POST',
    url: `${base()}/save-grade/${submissionId}`,
    headers: world.instructor.auth,
    payload: { grade, feedback: '', comments, expectedGradeId },
  });
};
const box = { x: 0.1, y: 0.2, width: 0.5, height: 0.25 };

describe('comment regions', () => {
  it('are stored with the grade and come back in the grading data and both views of the report', async () => {
    const saved = await saveWith(
      [
        { text: 'Units missing in (b).', pointsDeducted: 2, accepted: true, region: { page: 2, ...box } },
        { text: 'Nice diagram.', pointsDeducted: 0, accepted: true },
        { text: 'Sign slip, not counted.', pointsDeducted: 1, accepted: false, region: { page: 1, ...box } },
      ],
      8,
    );
    expect(saved.statusCode).toBe(200);

    const grading = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submissionId}`,
      headers: world.instructor.auth,
    });
    expect(expectJson(grading, 200, GradingOutput).gradingResult.comments.map((comment) => comment.region)).toEqual([
      { page: 2, ...box },
      null,
      { page: 1, ...box },
    ]);

    const staff = await t.app.inject({
      method: 'GET',
      url: `${base()}/grade/${submissionId}/report`,
      headers: world.instructor.auth,
    });
    expect(
      expectJson(staff, 200, GradingReportForStaff).comments.map((comment) => comment.region?.page ?? null),
    ).toEqual([2, null, 1]);

    // The student sees the boxes of accepted comments only: the declined one (page 1) is not theirs.
    const student = await t.app.inject({
      method: 'GET',
      url: `${base()}/grade/${submissionId}/report`,
      headers: world.student.auth,
    });
    const studentReport = expectJson(student, 200, GradingReportForStudent);
    expect(studentReport.comments.map((comment) => [comment.text, comment.region])).toEqual([
      ['Units missing in (b).', { page: 2, ...box }],
      ['Nice diagram.', null],
    ]);
  });

  it('refuses a page the answer does not have, or a box outside the page, with a 400 that says why', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ page: 3, ...box }, /the region is on page 3, but the answer has 2 pages/],
      [{ page: 0, ...box }, /page must be 1 or more/],
      [{ page: 1.5, ...box }, /page must be a whole number/],
      [{ page: 1, ...box, x: -0.1 }, /between 0 and 1/],
      [{ page: 1, ...box, width: 0 }, /width must be more than 0/],
      [{ page: 1, ...box, x: 0.7, width: 0.5 }, /must end inside the page \(x \+ width ≤ 1\)/],
      [{ page: 1, ...box, y: 0.9, height: 0.2 }, /must end inside the page \(y \+ height ≤ 1\)/],
      [{ page: 1, x: 0.1, y: 0.1 }, /must be a number/],
    ];
    const before = await t.app.inject({
      method: 'GET',
      url: `${base()}/grade/${submissionId}/report`,
      headers: world.instructor.auth,
    });
    for (const [region, message] of cases) {
      const response = await saveWith([{ text: 'Here.', pointsDeducted: 1, accepted: true, region }], 9);
      expect(response.statusCode, JSON.stringify(region)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    // Nothing was saved by the refused attempts.
    const after = await t.app.inject({
      method: 'GET',
      url: `${base()}/grade/${submissionId}/report`,
      headers: world.instructor.auth,
    });
    expect(after.json()).toEqual(before.json());
  });
});
