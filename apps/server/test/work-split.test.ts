import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addStudents,
  addTa,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 12's "done when": an instructor and two TAs grade one question of a 300-student course
 * without colliding (decision 0031). The work split gives each grader their own share of the
 * review queue, no answer in two shares; an answer someone has open is marked for the others, in
 * the queue, on the question page and when they open it. (Who may call the routes is in
 * authorization-matrix.test.ts.)
 */
const CLASS_SIZE = 300;
let now = Date.now();
let t: TestApp;
let owner: TestUser;
let tina: TestUser;
let theo: TestUser;
let students: TestUser[];
let courseId: string;
let assignmentId: string;
let questionId: string;
let base: string;
const submissionOf = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(now) });
  owner = await registerUser(t.app, { role: 'instructor', name: 'Ada Owner' });
  tina = await registerUser(t.app, { role: 'instructor', name: 'Tina Assistant' });
  theo = await registerUser(t.app, { role: 'instructor', name: 'Theo Assistant' });
  const course = await createCourse(t.app, owner, { title: 'Big Course' });
  courseId = course._id;
  await addTa(t.app, owner, courseId, tina);
  await addTa(t.app, owner, courseId, theo);
  students = [];
  // Registration hashes a password per student: a few at a time keeps the shared machine usable.
  for (let from = 0; from < CLASS_SIZE; from += 10) {
    const batch = Array.from({ length: Math.min(10, CLASS_SIZE - from) }, (_, index) =>
      registerUser(t.app, { name: `Student ${String(from + index).padStart(3, '0')} Learner` }),
    );
    students.push(...(await Promise.all(batch)));
  }
  await addStudents(
    t.app,
    owner,
    courseId,
    students.map((student) => student.email),
  );
  assignmentId = (await createAssignment(t.app, owner, courseId))._id;
  questionId = (await createQuestion(t.app, owner, assignmentId))._id;
  base = `/api/assignments/${assignmentId}/questions/${questionId}`;
  for (let from = 0; from < CLASS_SIZE; from += 10) {
    await Promise.all(
      students.slice(from, from + 10).map(async (student) => {
        const submission = await submitAnswer(t.app, student, assignmentId, questionId, `Answer of ${student.name}`);
        submissionOf.set(student.id, submission._id);
      }),
    );
  }
}, 600_000);
afterAll(async () => {
  await t?.close();
});

const queue = async (user: TestUser, share?: 'mine' | 'all') => {
  const response = await t.app.inject({
    method: 'GET',
    url: `${base}/review-queue${share ? `?share=${share}` : ''}`,
    headers: user.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const setQuestionGraders = (user: TestUser, graderIds: string[], question = questionId) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/courses/${courseId}/work-split/questions/${question}`,
    headers: user.auth,
    payload: { graderIds },
  });
const setStudentGraders = (user: TestUser, changes: { studentId: string; graderId: string | null }[]) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/courses/${courseId}/work-split/students`,
    headers: user.auth,
    payload: { students: changes },
  });
const lease = (user: TestUser, submissionId: string, method: 'POST' | 'DELETE' = 'POST') =>
  t.app.inject({ method, url: `${base}/grade/${submissionId}/lease`, headers: user.auth });
const split = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}/work-split`, headers: user.auth })).json();

describe('three graders on one 300-student question', () => {
  it('before any split, every grader’s queue is the whole class and nothing is anyone’s in particular', async () => {
    const own = await queue(tina);
    expect(own.items).toHaveLength(CLASS_SIZE);
    expect(own.share).toEqual({
      scope: 'mine',
      isSplit: false,
      mine: CLASS_SIZE,
      total: CLASS_SIZE,
      remainingInQuestion: CLASS_SIZE,
    });
    expect(own.items.every((item: any) => item.isMine && item.assignedTo.length === 0 && item.openBy === null)).toBe(
      true,
    );
  });

  it('splits the question among its three graders: 100 each, no answer twice, none left out', async () => {
    const response = await setQuestionGraders(owner, [owner.id, tina.id, theo.id, tina.id]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('This question is split among 3 graders now.');
    const listed = response.json().split.questions.find((question: any) => question.questionId === questionId);
    expect(listed.graderIds).toEqual([owner.id, theo.id, tina.id].sort((a, b) => order(a) - order(b)));

    const shares = await Promise.all([owner, tina, theo].map((grader) => queue(grader)));
    const seen = new Set<string>();
    for (const [index, share] of shares.entries()) {
      const grader = [owner, tina, theo][index]!;
      expect(share.items).toHaveLength(CLASS_SIZE / 3);
      // Left to grade: the share's 100 for each, and the whole question's 300 beside it (what the
      // owner has left, whoever's answers they are).
      expect(share.share).toEqual({
        scope: 'mine',
        isSplit: true,
        mine: CLASS_SIZE / 3,
        total: CLASS_SIZE,
        remainingInQuestion: CLASS_SIZE,
      });
      expect(share.remaining).toBe(CLASS_SIZE / 3);
      for (const item of share.items) {
        expect(item.assignedTo).toEqual([{ _id: grader.id, name: grader.name }]);
        expect(seen.has(item.submissionId)).toBe(false);
        seen.add(item.submissionId);
      }
    }
    expect([...seen].sort()).toEqual([...submissionOf.values()].sort());

    // Ranges follow the list order (by name here): the first hundred names go to the first grader.
    const everyone = await queue(tina, 'all');
    expect(everyone.items).toHaveLength(CLASS_SIZE);
    expect(everyone.share).toMatchObject({ scope: 'all', mine: CLASS_SIZE / 3, total: CLASS_SIZE });
    const firstByName = shares.find((share) =>
      share.items.some((item: any) => item.student.name === 'Student 000 Learner'),
    )!;
    expect(firstByName.items.map((item: any) => item.student.name).sort()).toEqual(
      Array.from({ length: 100 }, (_, index) => `Student ${String(index).padStart(3, '0')} Learner`),
    );
  });

  it('marks an answer someone has open: the second grader is told who, the lists show it, closing frees it', async () => {
    const [first, second] = students;
    const submissionId = submissionOf.get(first!.id)!;
    const taken = await lease(tina, submissionId);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ isMine: true, holder: { _id: tina.id, name: 'Tina Assistant' } });

    const refused = await lease(theo, submissionId);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({
      isMine: false,
      holder: { _id: tina.id, name: 'Tina Assistant', since: taken.json().holder.since },
    });

    const queued = (await queue(theo, 'all')).items.find((item: any) => item.submissionId === submissionId);
    const since = taken.json().holder.since;
    expect(queued.openBy).toEqual({ _id: tina.id, name: 'Tina Assistant', since });
    const page = await t.app.inject({ method: 'GET', url: `${base}?includeSubmissions=1`, headers: owner.auth });
    const rows = page.json().submissions;
    expect(rows.find((row: any) => row._id === submissionId).openBy).toEqual({
      _id: tina.id,
      name: 'Tina Assistant',
      since,
    });
    expect(rows.find((row: any) => row._id === submissionOf.get(second!.id)).openBy).toBeNull();

    // Renewing keeps when she started; someone else's close leaves her lease alone.
    now += 60_000;
    expect((await lease(tina, submissionId)).json().holder.since).toBe(taken.json().holder.since);
    expect((await lease(theo, submissionId, 'DELETE')).statusCode).toBe(200);
    expect((await lease(theo, submissionId)).json().isMine).toBe(false);

    expect((await lease(tina, submissionId, 'DELETE')).json()).toEqual({ message: 'The answer is no longer open.' });
    const freed = (await queue(theo, 'all')).items.find((item: any) => item.submissionId === submissionId);
    expect(freed.openBy).toBeNull();
    expect((await lease(theo, submissionId)).json()).toMatchObject({ isMine: true, holder: { _id: theo.id } });
  });

  it('gives an answer opened by three graders at once to exactly one of them', async () => {
    const submissionId = submissionOf.get(students[5]!.id)!;
    const answers = await Promise.all([owner, tina, theo].map((grader) => lease(grader, submissionId)));
    const holders = new Set(answers.map((answer) => answer.json().holder._id));
    expect(holders.size).toBe(1);
    expect(answers.filter((answer) => answer.json().isMine)).toHaveLength(1);
  });

  it('lets a lease lapse by itself: a closed tab frees the answer after a few minutes', async () => {
    const submissionId = submissionOf.get(students[7]!.id)!;
    expect((await lease(owner, submissionId)).json().isMine).toBe(true);
    now += 4 * 60_000;
    expect((await lease(tina, submissionId)).json().isMine).toBe(false);
    now += 2 * 60_000;
    const after = (await queue(owner, 'all')).items.find((item: any) => item.submissionId === submissionId);
    expect(after.openBy).toBeNull();
    expect((await lease(tina, submissionId)).json()).toMatchObject({ isMine: true, holder: { _id: tina.id } });
  });
});

describe('sections: students given to graders', () => {
  it('a question without graders of its own follows each student’s grader; the rest stays everyone’s', async () => {
    expect((await setQuestionGraders(owner, [])).json().message).toBe('This question has no graders of its own now.');
    const changes = students.slice(0, 150).map((student, index) => ({
      studentId: student.id,
      graderId: index < 100 ? tina.id : theo.id,
    }));
    const response = await setStudentGraders(owner, changes);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('150 students updated.');

    expect((await queue(tina)).items).toHaveLength(100 + 150);
    expect((await queue(theo)).items).toHaveLength(50 + 150);
    // The owner gave every section away but the unassigned half: that half is theirs too.
    const own = await queue(owner);
    expect(own.share).toEqual({
      scope: 'mine',
      isSplit: true,
      mine: 150,
      total: CLASS_SIZE,
      remainingInQuestion: CLASS_SIZE,
    });
    const listed = await split(tina);
    expect(listed.students.filter((student: any) => student.graderId === tina.id)).toHaveLength(100);
    expect(listed.graders.map((grader: any) => grader.name)).toEqual(['Ada Owner', 'Theo Assistant', 'Tina Assistant']);

    // null takes a student out of their section again: their answer is everyone's (Tina's too).
    await setStudentGraders(owner, [{ studentId: students[0]!.id, graderId: null }]);
    const after = await queue(tina);
    expect(after.items).toHaveLength(99 + 151);
    const freed = after.items.find((item: any) => item.submissionId === submissionOf.get(students[0]!.id));
    expect(freed).toMatchObject({ assignedTo: [], isMine: true });
  });

  it('a removed TA’s share goes back to unassigned, at once', async () => {
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${courseId}/staff/${theo.id}`,
      headers: owner.auth,
    });
    expect(removed.statusCode).toBe(200);
    const listed = await split(owner);
    expect(listed.students.some((student: any) => student.graderId === theo.id)).toBe(false);
    expect((await queue(owner)).share).toMatchObject({ mine: CLASS_SIZE - 99 });
    await addTa(t.app, owner, courseId, theo);
  });

  it('refuses bad changes with a clear 4xx and writes nothing', async () => {
    const before = await split(owner);
    const stranger = await registerUser(t.app, { role: 'instructor' });
    const outsider = await registerUser(t.app);
    const otherCourse = await createCourse(t.app, stranger, { title: 'Elsewhere' });
    const otherAssignment = await createAssignment(t.app, stranger, otherCourse._id);
    const otherQuestion = await createQuestion(t.app, stranger, otherAssignment._id);

    const cases = [
      [await setQuestionGraders(owner, [tina.id, stranger.id]), 400, 'Only the instructor and the teaching assistants'],
      [await setQuestionGraders(owner, ['not-an-id']), 400, 'Only the instructor and the teaching assistants'],
      [await setQuestionGraders(owner, [tina.id], otherQuestion._id), 404, 'Question not found.'],
      [await setStudentGraders(owner, [{ studentId: outsider.id, graderId: tina.id }]), 400, 'roster'],
      [
        await setStudentGraders(owner, [
          { studentId: students[1]!.id, graderId: tina.id },
          { studentId: students[1]!.id, graderId: theo.id },
        ]),
        400,
        'Each student can be listed once.',
      ],
      [await setStudentGraders(owner, [{ studentId: students[1]!.id, graderId: stranger.id }]), 400, 'staff'],
      [await setStudentGraders(owner, []), 400, 'Name at least one student.'],
      [await setQuestionGraders(tina, []), 403, 'Only the instructor of this course can split the grading work.'],
    ] as const;
    for (const [response, status, message] of cases) {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
    }
    expect(await split(owner)).toEqual(before);
  });
});

describe('an anonymous assignment', () => {
  it('splits by label, so a range says nothing about names, and names nobody in a share', async () => {
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignmentId}/anonymous-grading`,
      headers: owner.auth,
      payload: { isAnonymous: true },
    });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    expect((await setQuestionGraders(owner, [owner.id, tina.id, theo.id])).statusCode).toBe(200);
    const ranges = [];
    for (const grader of [owner, tina, theo]) {
      const share = await queue(grader);
      expect(share.items).toHaveLength(CLASS_SIZE / 3);
      expect(JSON.stringify(share)).not.toMatch(/Learner|@example\.edu/);
      const numbers = share.items.map((item: any) => Number(/^Student (\d+)$/.exec(item.student.name)![1]));
      ranges.push([Math.min(...numbers), Math.max(...numbers)]);
    }
    // Graders go by name (Ada, Theo, Tina); each holds one contiguous run of labels.
    expect(ranges.sort((a, b) => a[0]! - b[0]!)).toEqual([
      [1, 100],
      [101, 200],
      [201, 300],
    ]);
  });
});

function order(id: string): number {
  return [owner.id, ...[tina, theo].sort((a, b) => a.name.localeCompare(b.name)).map((ta) => ta.id)].indexOf(id);
}
