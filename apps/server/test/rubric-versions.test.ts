import { computeFinalGrade } from '@gradewise/shared/final-grade';
import { AUDIT_CSV_COLUMNS } from '@gradewise/shared/contracts/grade-audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradeHistoryOutput, RubricVersionsOutput } from '@gradewise/shared/contracts/grade-audit';
import { SaveRubricOutput } from '@gradewise/shared/contracts/grading';
import { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import { expectJson } from './support/expect-json.ts';
import {
  addStudents,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { csvRows } from './support/csv.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, type CommentInput } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 12, items 2 and 6: a dynamic rubric with versions and the audit trail of saved grades.
 * Changing an item's points or wording re-applies to every saved grade tied to the item (and to no
 * other), keeping each grade's previous row; each grade records its rubric version; the history
 * and the CSV say what the AI suggested, what the person changed, who saved it and when.
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

const ITEMS = [
  { id: 'item-1', criterion: 'Base case', points: 2, guidance: 'n = 0 returns 1.' },
  { id: 'item-2', criterion: 'Recursion', points: 3, guidance: 'n * f(n - 1).' },
  { id: 'item-3', criterion: 'Units', points: 5, guidance: 'States the unit.' },
];

interface Setup {
  assignmentId: string;
  questionId: string;
  points: number;
}

/** A fresh 10-point question with the three-item rubric, and `count` students who answered it. */
async function freshQuestion(count: number, names: string[] = []) {
  const question = await createQuestion(t.app, world.instructor, world.assignment._id, {
    title: `Factorial ${Math.random().toString(36).slice(2, 7)}`,
    points: '10',
  });
  const setup: Setup = { assignmentId: world.assignment._id, questionId: question._id, points: 10 };
  const rubric = await patchRubric(setup, ITEMS);
  expect(rubric.statusCode).toBe(200);
  const students: { user: TestUser; submissionId: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const user = await registerUser(t.app, { name: names[index] ?? `Learner ${index + 1}` });
    await addStudents(t.app, world.instructor, world.course._id, [user.email]);
    const submission = await submitAnswer(t.app, user, setup.assignmentId, setup.questionId, `Answer ${index}.`);
    students.push({ user, submissionId: submission._id });
  }
  return { setup, students };
}

function patchRubric(
  setup: Setup,
  items: { id?: string; criterion: string; points: number; guidance?: string }[],
  user: TestUser = world.instructor,
) {
  return t.app.inject({
    method: 'PATCH',
    url: `${questionPath(setup.assignmentId, setup.questionId)}/save-rubric`,
    headers: user.auth,
    payload: { questionText: 'Write factorial.', solutionText: 'f(0) = 1; f(n) = n f(n-1).', items },
  });
}

async function history(setup: Setup, submissionId: string, user: TestUser = world.instructor) {
  return t.app.inject({
    method: 'GET',
    url: `${questionPath(setup.assignmentId, setup.questionId)}/submissions/${submissionId}/grade-history`,
    headers: user.auth,
  });
}

async function entries(setup: Setup, submissionId: string) {
  return expectJson(await history(setup, submissionId), 200, GradeHistoryOutput).entries;
}

const save = (setup: Setup, submissionId: string, comments: CommentInput[]) =>
  saveGrade(t.app, world.instructor, { ...setup, submissionId }, comments);

const withPoints = (changes: Record<string, Partial<(typeof ITEMS)[number]>>) =>
  ITEMS.map((item) => ({ ...item, ...changes[item.id] }));

describe('re-applying a rubric change to saved grades', () => {
  it('moves the totals of exactly the grades tied to an item whose points changed, keeping their history', async () => {
    const { setup, students } = await freshQuestion(4);
    const [tiedToFirst, tiedToSecond, tiedToThird, ungraded] = students;
    const first = await save(setup, tiedToFirst!.submissionId, [
      { text: 'Base case: not shown.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
      { text: 'Good effort overall.', pointsDeducted: 0, accepted: true, rubricItemId: null },
    ]);
    const second = await save(setup, tiedToSecond!.submissionId, [
      { text: 'Recursion: partly shown.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-2' },
    ]);
    const third = await save(setup, tiedToThird!.submissionId, [
      { text: 'Units: missing.', pointsDeducted: 2.5, accepted: true, rubricItemId: 'item-3' },
      { text: 'Base case: a little vague.', pointsDeducted: 1, accepted: false, rubricItemId: 'item-1' },
    ]);
    expect([first.grade, second.grade, third.grade]).toEqual([8, 9, 7.5]);

    // item-1: 2 -> 4 points, item-3: 5 -> 3 points; item-2 untouched.
    const response = await patchRubric(setup, withPoints({ 'item-1': { points: 4 }, 'item-3': { points: 3 } }));
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Rubric saved successfully!');
    expect(response.json().regradedCount).toBe(2);
    const version = response.json().autoRubric[0].version;

    // A full deduction stays full (2 of 2 -> 4 of 4); a share stays a share (2.5 of 5 -> 1.5 of 3),
    // and a declined comment is rescaled but still does not count.
    const firstHistory = await entries(setup, tiedToFirst!.submissionId);
    expect(firstHistory.map((entry) => [entry.reason, entry.grade, entry.isCurrent])).toEqual([
      ['rubric-change', 6, true],
      ['save', 8, false],
    ]);
    expect(firstHistory[0]!.rubricVersion).toBe(version);
    expect(firstHistory[0]!.replacesGradeId).toBe(first._id);
    expect(firstHistory[0]!.savedBy.name).toBe('Prof Ada');
    expect(firstHistory[0]!.comments.map((comment) => comment.pointsDeducted)).toEqual([4, 0]);
    expect(firstHistory[0]!.changesFromPrevious?.summary[0]).toBe('Score 8 → 6.');
    expect(firstHistory[1]!.comments.map((comment) => comment.pointsDeducted)).toEqual([2, 0]);

    const thirdHistory = await entries(setup, tiedToThird!.submissionId);
    expect(thirdHistory[0]!.grade).toBe(8.5);
    expect(thirdHistory[0]!.comments.map((comment) => [comment.pointsDeducted, comment.accepted])).toEqual([
      [1.5, true],
      [2, false],
    ]);
    expect(thirdHistory[1]!.grade).toBe(7.5);

    // Untouched: the grade tied only to item-2 has no new row, the ungraded answer has no grade.
    const secondHistory = await entries(setup, tiedToSecond!.submissionId);
    expect(secondHistory.map((entry) => [entry.gradeId, entry.grade])).toEqual([[second._id, 9]]);
    expect(await entries(setup, ungraded!.submissionId)).toEqual([]);

    // Every surface shows the recomputed grade; the grading screen says a rubric change did it.
    const detail = await t.app.inject({
      method: 'GET',
      url: `${questionPath(setup.assignmentId, setup.questionId)}?includeSubmissions=1`,
      headers: world.instructor.auth,
    });
    const rows = expectJson(detail, 200, QuestionForStaff).submissions ?? [];
    const grades = Object.fromEntries(rows.map((row) => [row._id, row.grade]));
    expect(grades[tiedToFirst!.submissionId]).toBe(6);
    expect(grades[tiedToSecond!.submissionId]).toBe(9);
    const screen = await gradeWithAi(t.app, world.instructor, { ...setup, submissionId: tiedToFirst!.submissionId });
    expect(screen.isAlreadyGraded).toBe(true);
    expect(screen.gradingResult.totalScore).toBe(6);
    expect(screen.rubricVersion).toBe(version);
    expect(screen.rubricChange).toMatchObject({ version, by: 'Prof Ada' });
    const untouched = await gradeWithAi(t.app, world.instructor, {
      ...setup,
      submissionId: tiedToSecond!.submissionId,
    });
    expect(untouched.rubricChange).toBeNull();
    expect(untouched.rubricVersion).toBe(version - 1);
  });

  it('rewrites the quoted wording of an item in the comments tied to it, and nowhere else', async () => {
    const { setup, students } = await freshQuestion(2);
    await save(setup, students[0]!.submissionId, [
      { text: 'Base case: not shown.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
      { text: 'Base case handling is in the general remark.', pointsDeducted: 0, accepted: true, rubricItemId: null },
      { text: 'Recursion: fine, but Base case reappears.', pointsDeducted: 0, accepted: true, rubricItemId: 'item-2' },
    ]);
    const other = await save(setup, students[1]!.submissionId, [
      { text: 'Units: missing.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-3' },
    ]);

    const response = await patchRubric(setup, withPoints({ 'item-1': { criterion: 'States the base case' } }));
    expect(response.json().regradedCount).toBe(1);

    const [current, previous] = await entries(setup, students[0]!.submissionId);
    if (!current || !previous) throw new Error('expected two entries in the grade history');
    expect(current.reason).toBe('rubric-change');
    expect(current.grade).toBe(8);
    expect(current.comments.map((comment) => comment.text)).toEqual([
      'States the base case: not shown.',
      'Base case handling is in the general remark.',
      'Recursion: fine, but Base case reappears.',
    ]);
    expect(previous.comments[0]?.text).toBe('Base case: not shown.');
    expect(current.changesFromPrevious?.comments).toEqual([
      expect.objectContaining({
        kind: 'edited',
        textFrom: 'Base case: not shown.',
        textTo: 'States the base case: not shown.',
      }),
    ]);
    expect((await entries(setup, students[1]!.submissionId)).map((entry) => entry.gradeId)).toEqual([other._id]);
  });

  it('changes no grade for guidance edits, added or removed items, and a removed id is never reused', async () => {
    const { setup, students } = await freshQuestion(1);
    const saved = await save(setup, students[0]!.submissionId, [
      { text: 'Recursion: missing.', pointsDeducted: 3, accepted: true, rubricItemId: 'item-2' },
    ]);
    // item-2 goes away, a new item takes its points; guidance of item-1 changes.
    const response = await patchRubric(setup, [
      { ...ITEMS[0]!, guidance: 'Any base case that stops the recursion.' },
      { criterion: 'Recursive step', points: 3, guidance: '' },
      ITEMS[2]!,
    ]);
    const rubricSaved = expectJson(response, 200, SaveRubricOutput);
    expect(rubricSaved.regradedCount).toBe(0);
    const items = rubricSaved.autoRubric[0]!.items;
    expect(items.map((item) => item.id)).toEqual(['item-1', 'item-4', 'item-3']);
    expect((await entries(setup, students[0]!.submissionId)).map((entry) => entry.gradeId)).toEqual([saved._id]);

    const versions = await t.app.inject({
      method: 'GET',
      url: `${questionPath(setup.assignmentId, setup.questionId)}/rubric-versions`,
      headers: world.instructor.auth,
    });
    const [newest, oldest] = expectJson(versions, 200, RubricVersionsOutput).versions;
    if (!newest || !oldest) throw new Error('expected two rubric versions');
    expect(newest.version).toBe(oldest.version + 1);
    expect(newest.createdBy?.name).toBe('Prof Ada');
    expect(newest.regradedCount).toBe(0);
    expect(newest.changes).toEqual([
      'Item item-1: guidance changed.',
      'Added item "Recursive step" (3 pts).',
      'Removed item "Recursion" (3 pts).',
    ]);
    expect(oldest.items.map((item) => item.id)).toEqual(['item-1', 'item-2', 'item-3']);
  });

  it('refuses an invalid rubric without touching a grade or a version, and a stale grading screen after a change', async () => {
    const { setup, students } = await freshQuestion(1);
    const saved = await save(setup, students[0]!.submissionId, [
      { text: 'Base case: not shown.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
    ]);
    const invalid = await patchRubric(setup, withPoints({ 'item-1': { points: 7 } }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toMatch(/add up to 15 points/);
    const versionsUrl = `${questionPath(setup.assignmentId, setup.questionId)}/rubric-versions`;
    const before = await t.app.inject({ method: 'GET', url: versionsUrl, headers: world.instructor.auth });
    expect(before.json().versions).toHaveLength(1);
    expect((await entries(setup, students[0]!.submissionId)).map((entry) => entry.gradeId)).toEqual([saved._id]);

    const changed = await patchRubric(setup, withPoints({ 'item-1': { points: 1 }, 'item-2': { points: 4 } }));
    expect(changed.json().regradedCount).toBe(1);
    // A screen that loaded the grade before the change is told so, and nothing is overwritten.
    const stale = await t.app.inject({
      method: 'POST',
      url: `${questionPath(setup.assignmentId, setup.questionId)}/save-grade/${students[0]!.submissionId}`,
      headers: world.instructor.auth,
      payload: { grade: 10, feedback: '', comments: [], expectedGradeId: saved._id },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(
      /A rubric change by Prof Ada \(version \d+\) recomputed this grade to 9 \/ 10/,
    );
    expect((await entries(setup, students[0]!.submissionId)).map((entry) => entry.grade)).toEqual([9, 8]);
  });
});

describe('the audit record', () => {
  it('records the AI suggestion, what the person changed, who saved it, when and under which rubric version', async () => {
    const { setup, students } = await freshQuestion(1);
    const submissionId = students[0]!.submissionId;
    const suggestion = await gradeWithAi(t.app, world.instructor, { ...setup, submissionId });
    const aiComments = suggestion.gradingResult.comments;
    expect(aiComments.length).toBeGreaterThanOrEqual(2);
    const [edited, declined, ...kept] = aiComments;
    if (!edited || !declined) throw new Error('expected two AI comments');
    expect(declined.accepted).toBe(true);
    const comments = [
      { ...edited, text: `${edited.text} (checked)`, pointsDeducted: 1, accepted: true },
      { ...declined, accepted: false },
      ...kept,
      { text: 'Please write the unit.', pointsDeducted: 0.5, accepted: true, rubricItemId: 'item-3' },
    ];
    const grade = computeFinalGrade(10, comments);
    const response = await t.app.inject({
      method: 'POST',
      url: `${questionPath(setup.assignmentId, setup.questionId)}/save-grade/${submissionId}`,
      headers: world.instructor.auth,
      payload: { grade, feedback: '', comments, basedOnRunId: suggestion.gradingRunId, expectedGradeId: null },
    });
    expect(response.statusCode).toBe(200);

    const [entry] = await entries(setup, submissionId);
    if (!entry) throw new Error('expected an entry in the grade history');
    expect(entry.reason).toBe('save');
    expect(entry.savedBy.name).toBe('Prof Ada');
    expect(entry.rubricVersion).toBe(await currentRubricVersion(setup));
    expect(Date.parse(entry.savedAt)).not.toBeNaN();
    expect(entry.aiSuggestion).toMatchObject({
      gradingRunId: suggestion.gradingRunId,
      score: suggestion.gradingResult.totalScore,
      confidence: suggestion.confidenceLevel,
      grader: { kind: 'builtin', provider: 'builtin', model: suggestion.grader?.model },
    });
    expect(entry.aiSuggestion?.comments.map((comment) => comment.id)).toEqual(aiComments.map((c) => c.id));
    const kinds = entry.changesFromSuggestion?.comments.map((change) => [change.kind, change.commentId]);
    expect(kinds).toContainEqual(['edited', edited.id]);
    expect(kinds).toContainEqual(['added', expect.any(String)]);
    expect(kinds).toContainEqual(['declined', declined.id]);
    expect(entry.changesFromSuggestion?.scoreFrom).toBe(suggestion.gradingResult.totalScore);
    expect(entry.changesFromSuggestion?.scoreTo).toBe(grade);
    expect(entry.changesFromSuggestion?.summary).toContainEqual(
      expect.stringMatching(/^Added "Please write the unit\."/),
    );
    expect(entry.changesFromPrevious).toBeNull();
  });

  it('exports every grade row as CSV, named for the instructor and safe against formula injection', async () => {
    const { setup, students } = await freshQuestion(2, ['=HYPERLINK("http://evil")', 'Zoe Plain']);
    await save(setup, students[0]!.submissionId, [
      { text: '=1+1 Base case: not shown.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
    ]);
    await save(setup, students[1]!.submissionId, [
      { text: 'Units: missing.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-3' },
    ]);
    await patchRubric(setup, withPoints({ 'item-1': { points: 3 }, 'item-2': { points: 2 } }));

    const response = await t.app.inject({
      method: 'GET',
      url: `${questionPath(setup.assignmentId, setup.questionId)}/audit.csv`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+-audit\.csv"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const [header, ...rows] = csvRows(response.body);
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    const column = (name: (typeof AUDIT_CSV_COLUMNS)[number]) => AUDIT_CSV_COLUMNS.indexOf(name);
    // The first student: the save and its re-application; the second: one save.
    expect(
      rows.map((row) => [row[column('Student')], row[column('Reason')], row[column('Grade')], row[column('Current')]]),
    ).toEqual([
      [`'=HYPERLINK("http://evil")`, 'Saved', '8', 'No'],
      [`'=HYPERLINK("http://evil")`, 'Rubric change', '7', 'Yes'],
      ['Zoe Plain', 'Saved', '9', 'Yes'],
    ]);
    expect(rows[0]![column('Saved by')]).toBe('Prof Ada');
    expect(rows[0]![column('Email')]).toBe(students[0]!.user.email);
    expect(rows[1]![column('Changes from previous grade')]).toMatch(
      /^Score 8 → 7\. Edited: deduction 2 pts → 3 pts\.$/,
    );
    expect(rows[1]![column('Rubric version')]).toBe(String(Number(rows[0]![column('Rubric version')]) + 1));
    expect(rows[0]![column('Saved comments')]).toBe('−2: =1+1 Base case: not shown.');

    const whole = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${setup.assignmentId}/audit.csv`,
      headers: world.instructor.auth,
    });
    expect(whole.statusCode).toBe(200);
    const wholeRows = csvRows(whole.body).slice(1);
    const title = rows[0]![column('Question')];
    expect(wholeRows.filter((row) => row[column('Question')] === title)).toEqual(rows);
  });

  it('answers 404 for a submission of another question or a malformed id, 403 for a student', async () => {
    const { setup } = await freshQuestion(0);
    const other = await freshQuestion(1);
    const foreign = await history(setup, other.students[0]!.submissionId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Submission not found.');
    expect((await history(setup, 'not-an-id')).statusCode).toBe(404);
    const asStudent = await history(other.setup, other.students[0]!.submissionId, other.students[0]!.user);
    expect(asStudent.statusCode).toBe(403);
    expect(asStudent.json().message).toBe('Only the staff of this course can see the history of its grades.');
  });
});

async function currentRubricVersion(setup: Setup): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: questionPath(setup.assignmentId, setup.questionId),
    headers: world.instructor.auth,
  });
  return response.json().autoRubric[0].version;
}
