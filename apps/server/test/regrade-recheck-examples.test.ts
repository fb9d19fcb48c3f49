import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegradeAiRecheck } from '@gradewise/shared/contracts/regrades';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { fitCourseConvention } from '../src/ai/builtin/course-convention.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { submissions } from '../src/db/schema.ts';
import { selectQuestionById } from '../src/models/grading-targets.ts';
import { selectRubricByQuestionId } from '../src/models/rubrics.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
import { classAnswersFor, courseGradesFor } from '../src/services/grading-input.ts';
import { createAssignment, createQuestion, submitAnswer } from './support/course-fixtures.ts';
import type { TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { refreshesFinished as refreshesFinishedOf } from './support/suggestion-refreshes.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { enrolledCourse, LIGHTNING_RUBRIC } from './support/thunder-course.ts';

/**
 * The regrade AI recheck grades as the grading job does (decision 0118): a whole-answer request
 * with the question's saved grades of other students as examples, so the instructor's own level
 * leads; a single rubric item cold, without examples (their scores are the whole question's), and
 * without the course's convention when the question has other students' grades. The course here
 * has a convention far from the grader's own: its other question was graded hard. Through HTTP
 * with the real built-in grader and job queue.
 */

interface Question {
  assignmentId: string;
  questionId: string;
}

let t: TestApp;
let instructor: TestUser;
let students: Map<string, TestUser>;
/** P: the course's other question, graded hard. Q: the question of the regrade requests. */
let questionP: Question;
let questionQ: Question;
/** Sam's and Tia's answers to Q, the same words. */
let samOnQ: string;
let tiaOnQ: string;

const SAME_ANSWER = 'Ice is less dense than liquid water, so it floats on it.';
/** Tia's grade on the same answer as Sam's (his is 7). */
const TIA_GRADE = 6;

const refreshesFinished = (question: Question) => refreshesFinishedOf(t, question.questionId);

async function requestRegrade(student: TestUser, submissionId: string, rubricItemId?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `${questionPath(questionQ.assignmentId, questionQ.questionId)}/regrade-requests`,
    headers: student.auth,
    payload: { submissionId, reason: 'Please look again.', ...(rubricItemId ? { rubricItemId } : {}) },
  });
  expect(response.statusCode).toBe(201);
  return response.json().request._id as string;
}

async function recheck(requestId: string): Promise<RegradeAiRecheck> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/regrade-requests/${requestId}/ai-recheck`,
    headers: instructor.auth,
  });
  expect(response.statusCode).toBe(200);
  return response.json().request.aiRecheck;
}

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  const enrolled = await enrolledCourse(t, ['Ann', 'Ben', 'Cat', 'Dan', 'Sam', 'Tia']);
  ({ instructor, students } = enrolled);
  const assignment = await createAssignment(t.app, instructor, enrolled.course._id);
  const questionOf = async (rubric: Parameters<typeof saveRubric>[3]): Promise<Question> => {
    const question = await createQuestion(t.app, instructor, assignment._id, { points: '10' });
    const ids = { assignmentId: assignment._id, questionId: question._id };
    await saveRubric(t.app, instructor, ids, rubric);
    return ids;
  };
  questionP = await questionOf(LIGHTNING_RUBRIC);
  questionQ = await questionOf({
    questionText: 'Why does ice float on water?',
    solutionText: 'Ice is less dense than liquid water, so the water holds it up and it floats.',
    items: [
      { id: 'item-1', criterion: 'Says that ice is less dense than water', points: 6 },
      { id: 'item-2', criterion: 'Links the lower density to floating', points: 4 },
    ],
  });
  // P: good answers, each judged by the built-in grader, then graded 1 / 10: a hard convention.
  const onP: Record<string, string> = {
    Ann: 'Light travels much faster than sound, so the flash reaches us before the thunder.',
    Ben: 'Light is faster than sound, so we see the flash first.',
    Cat: 'The sound of thunder is slower than the light of the lightning.',
    Dan: 'Light moves faster than sound does, so the lightning arrives first.',
  };
  for (const [name, text] of Object.entries(onP)) {
    const submission = await submitAnswer(
      t.app,
      students.get(name)!,
      questionP.assignmentId,
      questionP.questionId,
      text,
    );
    const target = { ...questionP, submissionId: submission._id };
    await gradeWithAi(t.app, instructor, target);
    await saveGrade(t.app, instructor, { ...target, points: 10 }, [
      { text: 'Say why light is faster.', pointsDeducted: 9, accepted: true, rubricItemId: 'item-1' },
    ]);
  }
  // Q: Sam and Tia give the same answer; the instructor grades Tia's 6 and Sam's 7.
  samOnQ = (await submitAnswer(t.app, students.get('Sam')!, questionQ.assignmentId, questionQ.questionId, SAME_ANSWER))
    ._id;
  tiaOnQ = (await submitAnswer(t.app, students.get('Tia')!, questionQ.assignmentId, questionQ.questionId, SAME_ANSWER))
    ._id;
  await saveGrade(t.app, instructor, { ...questionQ, submissionId: tiaOnQ, points: 10 }, [
    { text: 'Say how density makes it float.', pointsDeducted: 10 - TIA_GRADE, accepted: true, rubricItemId: 'item-2' },
  ]);
  await saveGrade(t.app, instructor, { ...questionQ, submissionId: samOnQ, points: 10 }, [
    { text: 'Say how density makes it float.', pointsDeducted: 3, accepted: true, rubricItemId: 'item-2' },
  ]);
  // The course's grades are read once their refreshes have stopped adding judgements.
  await refreshesFinished(questionP);
  await refreshesFinished(questionQ);
  // The course has a convention, which Q's suggestions would follow without saved grades of their own.
  expect(fitCourseConvention(await courseGradesFor(t.ctx, { kind: 'builtin' }, questionQ.questionId))).not.toBeNull();
});

afterAll(async () => {
  await t?.close();
});

describe('the regrade AI recheck', () => {
  it("rechecks a whole answer from the question's saved grades: the same answer as another's graded one gets that grade", async () => {
    const draft = await recheck(await requestRegrade(students.get('Sam')!, samOnQ));
    // Sam's own grade (7) is never an example; Tia's, on the same words, leads.
    expect(draft).toMatchObject({ points: 10, score: TIA_GRADE, grader: { kind: 'builtin' } });
  });

  it("judges one rubric item cold, without the course's convention, when the question has other students' grades", async () => {
    const draft = await recheck(await requestRegrade(students.get('Sam')!, samOnQ, 'item-2'));

    // What the built-in grader says for item 2 of Sam's answer, with and without the course's grades.
    const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, samOnQ));
    const rubric = (await selectRubricByQuestionId(t.ctx.db, questionQ.questionId))!;
    const question = (await selectQuestionById(t.ctx.db, questionQ.questionId))!;
    const item = rubric.items.find((candidate) => candidate.id === 'item-2')!;
    const cold: GradingInput = {
      questionText: rubric.questionText,
      solutionText: rubric.solutionText,
      rubricItems: [item],
      points: item.points,
      answerText: (await ensureFileExtraction(t.ctx, row!.fileId)).text!,
      showExpectedAnswer: question.showExpectedAnswer,
      classAnswers: await classAnswersFor(t.ctx, { kind: 'builtin' }, questionQ.questionId),
    };
    const judge = async (input: GradingInput) => {
      const grader = createBuiltinGrader();
      const suggestion = grader.interpretGrading((await grader.requestGrading(input)).rawOutput, input);
      return { score: suggestion.totalScore, confidenceLevel: Math.round(suggestion.confidence) };
    };
    const withoutCourse = await judge(cold);
    const withCourse = await judge({
      ...cold,
      courseGrades: await courseGradesFor(t.ctx, { kind: 'builtin' }, questionQ.questionId),
    });
    // The course's convention would move this judgement: the check below can tell them apart.
    expect(withCourse).not.toEqual(withoutCourse);

    expect(draft).toMatchObject({ points: 4, ...withoutCourse });
  });
});
