import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { expectJson } from './support/expect-json.ts';
import type { StatisticsSources } from '../src/models/grading-statistics.ts';
import { computeStatistics, type StatisticsQuestion } from '../src/services/grade-statistics.ts';
import {
  addStudents,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { currentGradeId, gradeWithAi, questionPath, saveRubric, type CommentInput } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Grading statistics (issue 12 item 7) over HTTP against saved grades and real AI runs (the
 * built-in grader through the job queue), and the rules of the computation on hand-made histories
 * (several graders, late answers, resubmissions) that the API cannot yet produce with one owner.
 */

let t: TestApp;
let world: CourseWorld;
const students: TestUser[] = [];
const submissions: SubmissionForStudent[] = [];
const suggestions: GradingOutput[] = [];
let secondQuestion: QuestionForStaff;

const base = () => questionPath(world.assignment._id, world.question._id);
const get = (url: string, user: TestUser = world.instructor) =>
  t.app.inject({ method: 'GET', url, headers: user.auth });

async function save(
  submission: { _id: string },
  grade: number,
  comments: CommentInput[],
  basedOnRunId: string | null,
  question = world.question,
) {
  const target = { assignmentId: world.assignment._id, questionId: question._id, submissionId: submission._id };
  const expectedGradeId = await currentGradeId(t.app, world.instructor, target);
  const response = await t.app.inject({
    method: 'POST',
    url: `${questionPath(world.assignment._id, question._id)}/save-grade/${submission._id}`,
    headers: world.instructor.auth,
    payload: { grade, feedback: '', comments, basedOnRunId, expectedGradeId },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const WHY = { text: 'No explanation.', pointsDeducted: 4, accepted: true, rubricItemId: 'item-why' };
const VALUE = { text: 'Wrong value.', pointsDeducted: 6, accepted: true, rubricItemId: 'item-value' };

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
  const target = { assignmentId: world.assignment._id, questionId: world.question._id };
  await saveRubric(t.app, world.instructor, target, {
    questionText: 'What is 2 + 2? Explain.',
    solutionText: '2 + 2 = 4',
    items: [
      { id: 'item-value', criterion: 'Gives the value 4', points: 6 },
      { id: 'item-why', criterion: 'Explains the addition', points: 4 },
    ],
  });
  const answers = ['Four.', 'It is 4 because two and two make four.', 'Twenty-two.', 'Maybe 5.'];
  for (const [index, answer] of answers.entries()) {
    const student = await registerUser(t.app, { name: `Student ${String.fromCharCode(65 + index)}` });
    await addStudents(t.app, world.instructor, world.course._id, [student.email]);
    students.push(student);
    submissions.push(await submitAnswer(t.app, student, target.assignmentId, target.questionId, answer));
  }
  // Two answers start from an AI suggestion; one is graded by hand; one waits.
  suggestions.push(await gradeWithAi(t.app, world.instructor, { ...target, submissionId: submissions[0]!._id }));
  suggestions.push(await gradeWithAi(t.app, world.instructor, { ...target, submissionId: submissions[1]!._id }));
  await save(submissions[0]!, 6, [WHY], suggestions[0]!.gradingRunId);
  await save(submissions[1]!, 10, [], suggestions[1]!.gradingRunId);
  await save(submissions[2]!, 0, [VALUE, WHY], null);

  // A second question (5 points) answered and graded by two of the students, for the assignment totals.
  secondQuestion = await createQuestion(t.app, world.instructor, world.assignment._id, { title: 'Bonus', points: '5' });
  for (const index of [0, 2]) {
    const submission = await submitAnswer(t.app, students[index]!, world.assignment._id, secondQuestion._id, 'Yes.');
    await save(submission, 5, [], null, secondQuestion);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('question statistics over HTTP', () => {
  it('distribution, mean, median, rubric items, late share and agreement with the AI', async () => {
    const response = await get(`${base()}/statistics`);
    const stats = expectJson(response, 200, StatisticsOutput);
    expect(stats).toMatchObject({ scope: 'question', points: 10, answered: 4, graded: 3, median: 6, lateShare: 0 });
    expect(stats.mean).toBeCloseTo(16 / 3, 2);
    expect(stats.histogram).toHaveLength(10);
    expect(stats.histogram.map((bin) => bin.count)).toEqual([1, 0, 0, 0, 0, 0, 1, 0, 0, 1]);
    expect(stats.histogram[9]).toMatchObject({ from: 9, to: 10 });

    const item = (id: string) => stats.rubricItems.find((entry) => entry.itemId === id);
    // item-why lost points on 2 of 3 graded answers, 8 of the 14 points deducted.
    expect(item('item-why')).toMatchObject({ deductedCount: 2, answerShare: 0.6667, pointsShare: 0.5714 });
    expect(item('item-value')).toMatchObject({ deductedCount: 1, answerShare: 0.3333, pointsShare: 0.4286 });

    const [ai0, ai1] = suggestions.map((suggestion) => suggestion.gradingResult.totalScore as number);
    const differences = [Math.abs(6 - ai0!), Math.abs(10 - ai1!)];
    expect(stats.aiAgreement.compared).toBe(2);
    expect(stats.aiAgreement.meanAbsoluteDifference).toBeCloseTo((differences[0]! + differences[1]!) / 2, 2);
    expect(stats.aiAgreement.withinTenPercentShare).toBe(differences.filter((d) => d <= 1).length / 2);

    const [instructor, ai] = stats.graders;
    expect(instructor).toMatchObject({
      graderId: world.instructor.id,
      name: world.instructor.name,
      kind: 'person',
      isInstructor: true,
      count: 3,
      agreementWithInstructor: null,
    });
    expect(instructor?.meanGrade).toBeCloseTo(16 / 3, 2);
    expect(instructor?.agreementWithAi).toEqual(stats.aiAgreement);
    expect(ai).toMatchObject({ graderId: 'ai', kind: 'ai', count: 2 });
    expect(ai?.meanGrade).toBeCloseTo((ai0! + ai1!) / 2, 2);
    expect(ai?.agreementWithInstructor?.compared).toBe(2);
  });

  it('the assignment: students’ totals over both questions, items of both questions', async () => {
    const response = await get(`/api/assignments/${world.assignment._id}/statistics`);
    const stats = expectJson(response, 200, StatisticsOutput);
    // Totals: A 6 + 5, B 10, C 0 + 5 (D has no grade).
    expect(stats).toMatchObject({ scope: 'assignment', points: 15, answered: 4, graded: 3, median: 10 });
    expect(stats.mean).toBeCloseTo(26 / 3, 2);
    expect(stats.histogram.map((bin) => bin.count)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0]);
    expect(new Set(stats.rubricItems.map((entry) => entry.questionId))).toEqual(new Set([world.question._id]));
    expect(stats.graders[0]).toMatchObject({ isInstructor: true, count: 5 });
  });

  it('a question nobody answered has empty figures, not errors', async () => {
    const empty = await createQuestion(t.app, world.instructor, world.assignment._id, { title: 'Empty' });
    const response = await get(`${questionPath(world.assignment._id, empty._id)}/statistics`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      answered: 0,
      graded: 0,
      mean: null,
      median: null,
      lateShare: null,
      rubricItems: [],
      graders: [],
      aiAgreement: { compared: 0, meanAbsoluteDifference: null, withinTenPercentShare: null },
    });
  });

  it('staff only: a student is refused, a stranger and a bad id get 404', async () => {
    const asStudent = await get(`${base()}/statistics`, students[0]!);
    expect(asStudent.statusCode).toBe(403);
    expect(asStudent.json().message).toMatch(/statistics/);
    expect((await get(`/api/assignments/${world.assignment._id}/statistics`, students[0]!)).statusCode).toBe(403);
    const stranger = await registerUser(t.app, { role: 'instructor' });
    expect((await get(`${base()}/statistics`, stranger)).statusCode).toBe(404);
    expect((await get(`/api/assignments/not-an-id/statistics`)).statusCode).toBe(404);
  });

  // Last in this block: it adds an answer the figures above do not expect.
  it('the assignment: a partly graded student is counted apart, never in the mean, median or distribution', async () => {
    // B hands in the bonus question, not graded yet: B's total (10 so far) is not a grade.
    await submitAnswer(t.app, students[1]!, world.assignment._id, secondQuestion._id, 'Yes, I think.');
    const stats = expectJson(await get(`/api/assignments/${world.assignment._id}/statistics`), 200, StatisticsOutput);
    // Fully graded: A 6 + 5 = 11, C 0 + 5 = 5.
    expect(stats).toMatchObject({ answered: 4, graded: 2, partlyGraded: 1, mean: 8, median: 8 });
    expect(stats.histogram.reduce((sum, bin) => sum + bin.count, 0)).toBe(2);
    // A question's figures have no partly graded students.
    expect((await get(`${base()}/statistics`)).json().partlyGraded).toBe(0);
  });
});

describe('the statistics rules', () => {
  const question: StatisticsQuestion = {
    id: 'q1',
    label: 'Question 1',
    points: 10,
    rubricItems: [{ id: 'item-a', criterion: 'A', points: 10, guidance: '' }],
  };
  const instructor = { id: 'owner', name: 'Prof' };
  const ta = { id: 'ta', name: 'Tess TA' };
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
  let counter = 0;
  const grade = (
    submissionId: string,
    value: number,
    savedBy: { id: string; name: string },
    minute: number,
    gradingRunId: string | null = null,
  ) => ({
    id: `g${(counter += 1)}`,
    submissionId,
    grade: value,
    comments: [],
    gradingRunId,
    savedBy,
    createdAt: at(minute),
  });

  it('double-graded answers compare each grader with the instructor; the AI counts as a grader', () => {
    const sources: StatisticsSources = {
      submissions: [
        { id: 's1', questionId: 'q1', studentId: 'u1', version: 1, isLate: false },
        { id: 's2', questionId: 'q1', studentId: 'u2', version: 1, isLate: true },
        { id: 's3', questionId: 'q1', studentId: 'u3', version: 1, isLate: false },
        // u3 resubmitted: the grade on version 1 still counts, the answer is the newest version.
        { id: 's3b', questionId: 'q1', studentId: 'u3', version: 2, isLate: true },
      ],
      runs: [
        { id: 'r1', submissionId: 's1', totalScore: 9, createdAt: at(0) },
        { id: 'r2', submissionId: 's2', totalScore: 4, createdAt: at(0) },
      ],
      grades: [
        // s1: the TA saved 8 from the AI's 9, the instructor later 7: double-graded, 1 apart.
        grade('s1', 8, ta, 1, 'r1'),
        grade('s1', 7, instructor, 2, 'r1'),
        // s2: the TA alone, from the AI's 4.
        grade('s2', 6, ta, 3, 'r2'),
        // s3: the instructor then the TA: double-graded, 5 apart; the TA's save counts.
        grade('s3', 10, instructor, 4),
        grade('s3', 5, ta, 5),
      ],
    };
    const stats = computeStatistics({
      scope: 'question',
      title: 'Q',
      questions: [question],
      sources,
      instructorId: 'owner',
    });
    expect(stats).toMatchObject({ answered: 3, graded: 3, median: 6, lateShare: 0.6667 });
    const byId = new Map(stats.graders.map((row) => [row.graderId, row]));
    expect(stats.graders.map((row) => row.graderId)).toEqual(['owner', 'ta', 'ai']);
    expect(byId.get('owner')).toMatchObject({ count: 1, meanGrade: 7, agreementWithInstructor: null });
    expect(byId.get('ta')).toMatchObject({
      count: 2,
      meanGrade: 5.5,
      agreementWithInstructor: { compared: 2, meanAbsoluteDifference: 3, withinTenPercentShare: 0.5 },
      agreementWithAi: { compared: 1, meanAbsoluteDifference: 2, withinTenPercentShare: 0 },
    });
    // The AI against the instructor's grade that started from it: 9 against 7 on s1.
    expect(byId.get('ai')).toMatchObject({
      kind: 'ai',
      count: 2,
      meanGrade: 6.5,
      agreementWithInstructor: { compared: 1, meanAbsoluteDifference: 2, meanAbsoluteDifferencePercent: 20 },
    });
    // Overall: every counting grade against the suggestion it started from (s1: 7 vs 9, s2: 6 vs 4).
    expect(stats.aiAgreement).toMatchObject({ compared: 2, meanAbsoluteDifference: 2, withinTenPercentShare: 0 });
  });

  it('a difference of exactly 10% of the points agrees; the full mark falls in the last bar', () => {
    const sources: StatisticsSources = {
      submissions: [{ id: 's1', questionId: 'q1', studentId: 'u1', version: 1, isLate: false }],
      runs: [{ id: 'r1', submissionId: 's1', totalScore: 9, createdAt: at(0) }],
      grades: [grade('s1', 10, instructor, 1, 'r1')],
    };
    const stats = computeStatistics({
      scope: 'question',
      title: 'Q',
      questions: [question],
      sources,
      instructorId: 'owner',
    });
    expect(stats.aiAgreement.withinTenPercentShare).toBe(1);
    expect(stats.histogram.at(-1)!.count).toBe(1);
  });
});
