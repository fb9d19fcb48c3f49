import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { addStudents, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { questionPath, saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Student names and emails never reach an AI provider, anonymous grading or not (issue 12 item 4):
 * every call the product makes to a model — rubric generation, grading, regrading, the rubric
 * trial and the explicit re-suggest with saved grades as examples — goes to a real OpenAI-compatible
 * HTTP server (the fake model on loopback) that keeps each request body, and none of them carries a
 * student's name, email or account id. The prompts carry the answers: that is checked too, so the
 * test cannot pass on empty bodies.
 */

let fake: FakeLlmServer;
let t: TestApp;
let world: CourseWorld;
const students: TestUser[] = [];
const submissions: SubmissionForStudent[] = [];

const CLASS = [
  { name: 'Philippa Grimsditch', email: 'philippa.grimsditch@example.edu', answer: 'Two plus two makes four.' },
  { name: 'Barnaby Thistlewood', email: 'barnaby.thistlewood@example.edu', answer: 'The sum is 4 because 2 + 2 = 4.' },
  { name: 'Wilhelmina Oakenshaw', email: 'wilhelmina.oakenshaw@example.edu', answer: 'I think it is 22.' },
];

const base = () => questionPath(world.assignment._id, world.question._id);
const post = (url: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: world.instructor.auth, ...(payload ? { payload } : {}) });

function studentIdentifiers(): string[] {
  return [...students, world.student].flatMap((student) => [student.name, student.email, student.id]);
}

/** The identifiers found in any model request received since `from`. */
function leaksSince(from: number): string[] {
  const bodies = fake
    .chatRequests()
    .slice(from)
    .map((request) => JSON.stringify(request.body).toLowerCase());
  return studentIdentifiers().filter((identifier) => bodies.some((body) => body.includes(identifier.toLowerCase())));
}

async function exerciseEveryModelCall(): Promise<void> {
  const generated = await post(`${base()}/generate-rubric`);
  expect(generated.statusCode, generated.body).toBe(200);
  for (const submission of submissions) {
    const graded = await post(`${base()}/grade/${submission._id}`);
    expect(graded.statusCode, graded.body).toBe(200);
  }
  const regraded = await post(`${base()}/regrade/${submissions[0]!._id}`);
  expect(regraded.statusCode, regraded.body).toBe(200);
  const trial = await post(`${base()}/rubric-trial`, {
    questionText: 'What is 2 + 2?',
    solutionText: '2 + 2 = 4',
    items: [{ criterion: 'Gives the value 4', points: 10 }],
    submissionIds: submissions.map((submission) => submission._id),
  });
  expect(trial.statusCode, trial.body).toBe(200);
  // A saved grade becomes a few-shot example of the others' re-suggestions.
  await saveGrade(t.app, world.instructor, {
    assignmentId: world.assignment._id,
    questionId: world.question._id,
    submissionId: submissions[0]!._id,
    points: 10,
  });
  const before = fake.chatRequests().length;
  const resuggested = await post(`${base()}/resuggest`, { answers: 2 });
  expect(resuggested.statusCode, resuggested.body).toBe(200);
  expect(resuggested.json().queued).toBe(2);
  await fake.waitForChatRequests(before + 2);
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: fake.baseUrl, AI_MODEL: FAKE_MODEL_ID, AI_MAX_RETRIES: '0' },
    { withJobs: true },
  );
  world = await createCourseWorld(t.app);
  for (const person of CLASS) {
    const student = await registerUser(t.app, { name: person.name, email: person.email });
    await addStudents(t.app, world.instructor, world.course._id, [student.email]);
    students.push(student);
    submissions.push(await submitAnswer(t.app, student, world.assignment._id, world.question._id, person.answer));
  }
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('what reaches the AI provider', () => {
  it('on a named assignment: every answer, and no student name, email or id', async () => {
    const from = fake.chatRequests().length;
    await exerciseEveryModelCall();
    const bodies = fake
      .chatRequests()
      .slice(from)
      .map((request) => JSON.stringify(request.body));
    // rubric + 3 grades + regrade + 3 trial answers + 2 re-suggestions
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    for (const person of CLASS) expect(bodies.some((body) => body.includes(person.answer))).toBe(true);
    expect(leaksSince(from)).toEqual([]);
  });

  it('on an anonymous assignment: the same', async () => {
    const turnedOn = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${world.assignment._id}/anonymous-grading`,
      headers: world.instructor.auth,
      payload: { isAnonymous: true },
    });
    expect(turnedOn.statusCode).toBe(200);
    const from = fake.chatRequests().length;
    await exerciseEveryModelCall();
    // Grade now answers the stored suggestions; rubric, regrade, 3 trial answers and 2 re-suggestions call again.
    expect(fake.chatRequests().length - from).toBeGreaterThanOrEqual(7);
    expect(leaksSince(from)).toEqual([]);
  });
});
