import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionForStaff, QuestionForStudent } from '@gradewise/shared/contracts/questions';
import { expectJson } from './support/expect-json.ts';
import { RESUBMISSION_REFUSED_MESSAGE } from '@gradewise/shared/resubmission';
import {
  addStudents,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { makePdf } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { currentGradeId as loadedGradeId, gradeWithAi, questionPath, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * A grade's life (issue 10): a saved grade belongs to the version it graded; a graded answer is
 * final for its student unless the instructor reopens it or the assignment allows resubmission;
 * a resubmission never blanks a saved grade (CSV, staff table, reports); and a save made from a
 * stale screen is refused (409) instead of silently overwriting what someone else saved.
 */
let t: TestApp;
let world: CourseWorld;

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
});
afterAll(async () => {
  await t?.close();
});

interface Target {
  assignmentId: string;
  questionId: string;
}

/** A fresh question (and student) per test, so the tests do not depend on each other's grades. */
async function freshAnswer(options: { allowsResubmission?: boolean } = {}) {
  let assignmentId = world.assignment._id as string;
  if (options.allowsResubmission !== undefined) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: world.instructor.auth,
      payload: {
        title: 'Drafts welcome',
        courseId: world.course._id,
        allowsResubmission: options.allowsResubmission,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().assignment.allowsResubmission).toBe(options.allowsResubmission);
    assignmentId = created.json().assignment._id;
  }
  const question = await createQuestion(t.app, world.instructor, assignmentId, { points: '10' });
  const student = await registerUser(t.app, { name: `Student ${Math.random().toString(36).slice(2, 8)}` });
  await addStudents(t.app, world.instructor, world.course._id, [student.email]);
  const target: Target = { assignmentId, questionId: question._id };
  const first = await submitAnswer(t.app, student, assignmentId, question._id, 'The answer is 4.');
  return { target, student, first };
}

const base = (target: Target) => questionPath(target.assignmentId, target.questionId);

async function submitRaw(student: TestUser, target: Target, text: string): Promise<LightMyRequestResponse> {
  const form = await multipart({ file: pdfPart(await makePdf(text)) });
  return t.app.inject({
    method: 'POST',
    url: `${base(target)}/submit`,
    headers: { ...student.auth, ...form.headers },
    payload: form.payload,
  });
}

/** A save; without an `expectedGradeId` of its own it starts from the grade saved now, as a screen opened now would. */
async function saveGradeRaw(
  target: Target,
  submissionId: string,
  body: { grade: number; comments?: unknown[]; expectedGradeId?: string | null; basedOnRunId?: string | null },
  user: TestUser = world.instructor,
): Promise<LightMyRequestResponse> {
  const expectedGradeId =
    'expectedGradeId' in body ? body.expectedGradeId : await loadedGradeId(t.app, user, { ...target, submissionId });
  return t.app.inject({
    method: 'POST',
    url: `${base(target)}/save-grade/${submissionId}`,
    headers: user.auth,
    payload: { feedback: '', comments: [], ...body, expectedGradeId },
  });
}

function reopen(target: Target, submissionId: string, user: TestUser = world.instructor) {
  return t.app.inject({
    method: 'POST',
    url: `${base(target)}/submissions/${submissionId}/reopen`,
    headers: user.auth,
  });
}

async function staffRow(target: Target, studentId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base(target)}?includeSubmissions=1`,
    headers: world.instructor.auth,
  });
  const row = expectJson(response, 200, QuestionForStaff).submissions?.find((found) => found.student._id === studentId);
  if (!row) throw new Error(`no staff row for student ${studentId}`);
  return row;
}

async function studentRow(target: Target, student: TestUser) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base(target)}?includeSubmissions=1`,
    headers: student.auth,
  });
  const row = expectJson(response, 200, QuestionForStudent).submissions?.[0];
  if (!row) throw new Error(`no row for ${student.name}`);
  return row;
}

async function csvCell(target: Target, email: string): Promise<string | undefined> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base(target)}/grades.csv`,
    headers: world.instructor.auth,
  });
  expect(response.statusCode).toBe(200);
  const line = response.body.split(/\r?\n/).find((row) => row.includes(email));
  // Student name, Email, <the question>, Total, Late
  return line?.split(',')[2];
}

async function versionCount(target: Target, submissionId: string): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base(target)}/submissions/${submissionId}/versions`,
    headers: world.instructor.auth,
  });
  return response.json().versions.length;
}

describe('resubmitting a graded answer', () => {
  it('is refused with a clear message once a grade is saved, storing nothing; the student is told beforehand', async () => {
    const { target, student, first } = await freshAnswer();
    expect((await studentRow(target, student)).canResubmit).toBe(true);
    expect((await saveGradeRaw(target, first._id, { grade: 10 })).statusCode).toBe(200);

    expect(await studentRow(target, student)).toMatchObject({ grade: 10, isAlreadyGraded: true, canResubmit: false });
    const refused = await submitRaw(student, target, 'A second thought.');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: RESUBMISSION_REFUSED_MESSAGE, code: 'CONFLICT' });
    expect(await versionCount(target, first._id)).toBe(1);
    expect(await csvCell(target, student.email)).toBe('10');
  });

  it('is accepted after the instructor reopens the question; the earlier grade stays visible as a grade on an earlier version until the new one is graded', async () => {
    const { target, student, first } = await freshAnswer();
    expect((await saveGradeRaw(target, first._id, { grade: 10 })).statusCode).toBe(200);
    const reopened = await reopen(target, first._id);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({
      message: expect.stringContaining(student.name),
      student: { _id: student.id, name: student.name },
    });
    expect(await staffRow(target, student.id)).toMatchObject({ isReopened: true, version: 1 });
    expect((await studentRow(target, student)).canResubmit).toBe(true);

    const second = await submitRaw(student, target, 'Corrected: 2 + 2 = 4.');
    expect(second.statusCode).toBe(201);
    const secondId = second.json().submission._id;

    // Nowhere blank: the staff table, the student's row, both reports and the CSV keep the grade.
    expect(await staffRow(target, student.id)).toMatchObject({
      _id: secondId,
      version: 2,
      grade: 10,
      isAlreadyGraded: true,
      isGradeOnEarlierVersion: true,
      gradedVersion: 1,
      isReopened: true,
    });
    expect(await studentRow(target, student)).toMatchObject({
      _id: secondId,
      grade: 10,
      isGradeOnEarlierVersion: true,
      gradedVersion: 1,
    });
    for (const reader of [world.instructor, student]) {
      const report = await t.app.inject({
        method: 'GET',
        url: `${base(target)}/grade/${secondId}/report`,
        headers: reader.auth,
      });
      expect(report.json()).toMatchObject({ grade: 10, isAlreadyGraded: true, isGradeOnEarlierVersion: true });
    }
    expect(await csvCell(target, student.email)).toBe('10');
    // The grading screen of the new version grades it afresh: the earlier grade is not its own.
    expect((await gradeWithAi(t.app, world.instructor, { ...target, submissionId: secondId })).isAlreadyGraded).toBe(
      false,
    );

    // Grading the new version closes the reopening: its own grade counts and resubmitting is refused again.
    expect((await saveGradeRaw(target, secondId, { grade: 10 })).statusCode).toBe(200);
    expect(await staffRow(target, student.id)).toMatchObject({
      grade: 10,
      isGradeOnEarlierVersion: false,
      gradedVersion: 2,
      isReopened: false,
    });
    expect((await submitRaw(student, target, 'Third try.')).statusCode).toBe(409);
  });

  it('is accepted when the assignment allows resubmission, with the earlier grade kept until regraded', async () => {
    const { target, student, first } = await freshAnswer({ allowsResubmission: true });
    expect((await saveGradeRaw(target, first._id, { grade: 7, comments: [] })).statusCode).toBe(400);
    const deduction = [{ text: 'Missing units.', pointsDeducted: 3, accepted: true }];
    expect((await saveGradeRaw(target, first._id, { grade: 7, comments: deduction })).statusCode).toBe(200);
    expect((await studentRow(target, student)).canResubmit).toBe(true);
    const second = await submitRaw(student, target, 'With units: 4 apples.');
    expect(second.statusCode).toBe(201);
    expect(await staffRow(target, student.id)).toMatchObject({
      version: 2,
      grade: 7,
      isGradeOnEarlierVersion: true,
      gradedVersion: 1,
    });
    expect(await csvCell(target, student.email)).toBe('7');
  });

  it('follows the assignment setting as the owner changes it later', async () => {
    const { target, student, first } = await freshAnswer({ allowsResubmission: false });
    expect((await saveGradeRaw(target, first._id, { grade: 10 })).statusCode).toBe(200);
    const setRule = (allowsResubmission: unknown, user: TestUser = world.instructor) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/assignments/${target.assignmentId}/settings`,
        headers: user.auth,
        payload: { allowsResubmission },
      });

    expect((await submitRaw(student, target, 'Try while final.')).statusCode).toBe(409);
    const opened = await setRule(true);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({
      message: 'Students may now resubmit after grading.',
      assignment: { _id: target.assignmentId, allowsResubmission: true },
    });
    expect((await submitRaw(student, target, 'Now allowed.')).statusCode).toBe(201);

    expect((await setRule(false)).json().assignment.allowsResubmission).toBe(false);
    expect((await submitRaw(student, target, 'Final again.')).statusCode).toBe(409);
    expect((await setRule('yes')).statusCode).toBe(400);
    expect((await setRule(true, student)).statusCode).toBe(403);
  });

  it('reopening is the owner’s act: a student of the course 403, another instructor 404', async () => {
    const { target, student, first } = await freshAnswer();
    expect((await reopen(target, first._id, student)).statusCode).toBe(403);
    const stranger = await registerUser(t.app, { role: 'instructor' });
    expect((await reopen(target, first._id, stranger)).statusCode).toBe(404);
  });
});

describe('a save racing a resubmission', () => {
  it('lands on the version it names; the newer version shows it as a grade on an earlier version', async () => {
    const { target, student, first } = await freshAnswer();
    const shown = await gradeWithAi(t.app, world.instructor, { ...target, submissionId: first._id });
    const firstSave = await saveGradeRaw(target, first._id, { grade: 10, expectedGradeId: shown.currentGradeId });
    expect(firstSave.statusCode).toBe(200);
    expect((await reopen(target, first._id)).statusCode).toBe(200);
    // The instructor's screen, reloaded after that save, still shows version 1 while the student resubmits.
    const [save, submit] = await Promise.all([
      saveGradeRaw(target, first._id, {
        grade: 10,
        expectedGradeId: firstSave.json().grade.id,
        basedOnRunId: shown.gradingRunId,
      }),
      submitRaw(student, target, 'A newer answer.'),
    ]);
    expect(save.statusCode).toBe(200);
    expect(save.json().grade).toMatchObject({ submissionId: first._id, gradingRunId: shown.gradingRunId });
    // Whichever came first, a saved grade is never lost from the table.
    const row = await staffRow(target, student.id);
    if (submit.statusCode === 201) {
      expect(row).toMatchObject({ version: 2, grade: 10, isGradeOnEarlierVersion: true, gradedVersion: 1 });
    } else {
      // The save came first and closed the reopening.
      expect(submit.statusCode).toBe(409);
      expect(row).toMatchObject({ version: 1, grade: 10, isGradeOnEarlierVersion: false });
    }
    expect(row.grade).not.toBeNull();
  });

  it('without a reopening, either the resubmission is refused or the grade counts for it — never a blank', async () => {
    const { target, student, first } = await freshAnswer();
    const [save, submit] = await Promise.all([
      saveGradeRaw(target, first._id, { grade: 10, expectedGradeId: null }),
      submitRaw(student, target, 'Changed my mind.'),
    ]);
    expect(save.statusCode).toBe(200);
    expect(save.json().grade.submissionId).toBe(first._id);
    expect([201, 409]).toContain(submit.statusCode);
    const row = await staffRow(target, student.id);
    expect(row).toMatchObject({ grade: 10, isAlreadyGraded: true, gradedVersion: 1 });
    expect(row.version).toBe(submit.statusCode === 201 ? 2 : 1);
    expect(await csvCell(target, student.email)).toBe('10');
  });
});

async function currentGradeId(target: Target, submissionId: string): Promise<string | null> {
  const shown = await gradeWithAi(t.app, world.instructor, { ...target, submissionId });
  return shown.currentGradeId ?? null;
}

describe('save-grade: optimistic concurrency', () => {
  it('two saves from one loaded state: exactly one succeeds, the other is 409 with who saved what and when', async () => {
    const { target, first } = await freshAnswer();
    const colleague = world.instructor;
    const shown = await gradeWithAi(t.app, world.instructor, { ...target, submissionId: first._id });
    expect(shown.currentGradeId).toBeNull();
    const loaded = { expectedGradeId: shown.currentGradeId, basedOnRunId: shown.gradingRunId };
    const deduction = [{ text: 'Sloppy.', pointsDeducted: 2, accepted: true }];
    const responses = await Promise.all([
      saveGradeRaw(target, first._id, { grade: 10, ...loaded }),
      saveGradeRaw(target, first._id, { grade: 8, comments: deduction, ...loaded }, colleague),
    ]);
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = responses.find((response) => response.statusCode === 200)!.json().grade;
    const loser = responses.find((response) => response.statusCode === 409)!.json();
    expect(loser).toMatchObject({
      code: 'CONFLICT',
      conflict: {
        kind: 'grade',
        id: winner.id,
        grade: winner.grade,
        savedBy: { _id: world.instructor.id, name: world.instructor.name },
        savedAt: winner.createdAt,
      },
    });
    expect(loser.message).toContain(world.instructor.name);
    expect(loser.message).toContain(`${winner.grade} / 10`);
    expect(loser.message).toContain('Reload');

    // Only the winner was stored: the current grade is the winner's; a reload then save goes through.
    expect(await currentGradeId(target, first._id)).toBe(winner.id);
    const again = await saveGradeRaw(target, first._id, { grade: 10, expectedGradeId: winner.id });
    expect(again.statusCode).toBe(200);
    // The one loaded before is stale for good.
    expect((await saveGradeRaw(target, first._id, { grade: 10, expectedGradeId: winner.id })).statusCode).toBe(409);
  });

  it('a save that does not say which grade it started from is refused with 428, saying what to send, and changes nothing', async () => {
    const { target, first } = await freshAnswer();
    const unversioned = (user: TestUser) =>
      t.app.inject({
        method: 'POST',
        url: `${base(target)}/save-grade/${first._id}`,
        headers: user.auth,
        payload: { grade: 10, feedback: '', comments: [] },
      });
    // Before any grade, and after one: an API client that omits the version never overwrites a save.
    for (const round of ['no grade yet', 'a grade saved']) {
      const refused = await unversioned(world.instructor);
      expect(refused.statusCode, round).toBe(428);
      expect(refused.json()).toEqual({
        code: 'PRECONDITION_REQUIRED',
        message:
          'Say which saved grade this save starts from: send expectedGradeId, the currentGradeId your grading screen loaded (null when it loaded no saved grade), so a grade saved since is never overwritten unseen.',
        issues: [{ path: 'expectedGradeId', message: 'is required: the currentGradeId you loaded, or null' }],
      });
      if (round === 'no grade yet') {
        expect(await loadedGradeId(t.app, world.instructor, { ...target, submissionId: first._id })).toBeNull();
        expect((await saveGradeRaw(target, first._id, { grade: 10, expectedGradeId: null })).statusCode).toBe(200);
      }
    }
    const saved = await loadedGradeId(t.app, world.instructor, { ...target, submissionId: first._id });
    expect((await unversioned(world.instructor)).statusCode).toBe(428);
    expect(await loadedGradeId(t.app, world.instructor, { ...target, submissionId: first._id })).toBe(saved);
  });

  it('records the AI run the screen showed, not a newer regrade it never saw; a run of another submission is refused', async () => {
    const { target, first } = await freshAnswer();
    const other = await freshAnswer();
    const shown = await gradeWithAi(t.app, world.instructor, { ...target, submissionId: first._id });
    const regraded = await t.app.inject({
      method: 'POST',
      url: `${base(target)}/regrade/${first._id}`,
      headers: world.instructor.auth,
    });
    expect(regraded.statusCode).toBe(200);
    expect(regraded.json().gradingRunId).not.toBe(shown.gradingRunId);

    const saved = await saveGradeRaw(target, first._id, {
      grade: 10,
      expectedGradeId: null,
      basedOnRunId: shown.gradingRunId,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().grade).toMatchObject({
      gradingRunId: shown.gradingRunId,
      confidenceLevel: shown.confidenceLevel,
    });

    const otherRun = await gradeWithAi(t.app, world.instructor, { ...other.target, submissionId: other.first._id });
    const foreign = await saveGradeRaw(target, first._id, { grade: 10, basedOnRunId: otherRun.gradingRunId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().issues).toEqual([expect.objectContaining({ path: 'basedOnRunId' })]);
  });
});

describe('save-rubric: optimistic concurrency', () => {
  const items = [
    { criterion: 'States the sum', points: 6 },
    { criterion: 'Explains it', points: 4 },
  ];

  it('a save on a version no longer current is 409 with who saved it; of two concurrent saves of one version exactly one wins', async () => {
    const { target } = await freshAnswer();
    const loaded = await saveRubric(t.app, world.instructor, target, { questionText: 'Q', solutionText: 'S', items });
    expect(loaded.version).toEqual(expect.any(Number));

    const patch = (expectedVersion: number | null | undefined, questionText: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${base(target)}/save-rubric`,
        headers: world.instructor.auth,
        payload: { questionText, solutionText: 'S', expectedVersion },
      });
    const responses = await Promise.all([patch(loaded.version, 'Tab one'), patch(loaded.version, 'Tab two')]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const won = responses.find((response) => response.statusCode === 200)!.json().autoRubric[0];
    expect(won.version).toBe(loaded.version! + 1);
    const lost = responses.find((response) => response.statusCode === 409)!.json();
    expect(lost).toMatchObject({
      code: 'CONFLICT',
      conflict: {
        kind: 'rubric',
        version: won.version,
        savedBy: { _id: world.instructor.id, name: world.instructor.name },
        savedAt: won.updatedAt,
      },
    });
    expect(lost.message).toContain(`${world.instructor.name} saved a newer version of this rubric`);

    // The stale version stays stale; the current one saves; the spec client (no version) is not checked.
    expect((await patch(loaded.version, 'Late')).statusCode).toBe(409);
    const fresh = await patch(won.version, 'Fresh');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().autoRubric[0]).toMatchObject({ questionText: 'Fresh', version: won.version + 1 });
    expect((await patch(undefined, 'Spec client')).statusCode).toBe(200);
  });
});
