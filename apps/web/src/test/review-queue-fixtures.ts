import type { GradingComment, GradingOutput, ReviewStatus } from '@gradewise/shared/contracts/grading';
import type { QuestionForStaff, QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import type { ReviewQueueItem, ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import type { GradingLeaseOutput } from '@gradewise/shared/contracts/work-split';
import { ASSIGNMENT_ID, fileUrl, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from './fixtures.ts';
import { INSTRUCTOR, jsonResponse, type Responder } from './network.ts';

/**
 * One question's review queue as the grading screen reads it, for tests that walk the queue from
 * answer to answer. Each answer is a student's name (Ann, Ben…): the name gives the submission's
 * id, the student, the answer's PDF and the stored suggestion. Payloads are typed by the shared
 * contracts, as in fixtures.ts.
 */

export const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
export const QUESTION_API = `/api${QUESTION_PATH}`;

/** Where an answer of the queue stands: a suggestion waits for review, or there is none yet. */
export type QueueStatus = Extract<ReviewStatus, 'needs-review' | 'not-graded'>;

export const idOf = (name: string) => `submission-${name.toLowerCase()}`;

const person = (name: string) => ({
  _id: `user-${name.toLowerCase()}`,
  name,
  email: `${name.toLowerCase()}@example.edu`,
});

/** The answer's row of the question page (its submission, with an 8 of 10 suggested when it has one). */
function staffRow(name: string, status: QueueStatus): QuestionSubmissionForStaff {
  return staffSubmission({
    _id: idOf(name),
    file: fileUrl(`answer-${name.toLowerCase()}`),
    student: person(name),
    uploadedBy: { _id: person(name)._id, name },
    gradingStatus: status === 'not-graded' ? 'none' : 'succeeded',
    reviewStatus: status,
    suggestedScore: status === 'not-graded' ? null : 8,
  });
}

function queueItem(name: string, status: QueueStatus): ReviewQueueItem {
  return {
    submissionId: idOf(name),
    student: person(name),
    isLate: false,
    status,
    confidenceLevel: status === 'not-graded' ? null : 40,
    grade: null,
    isGradeFirst: false,
    represents: null,
    groupSize: null,
  };
}

/** The question with each answer's submission, in the queue's order (the statuses' keys' order). */
export function questionOfQueue(statuses: Readonly<Record<string, QueueStatus>>): QuestionForStaff {
  return questionForStaff({
    submissions: Object.entries(statuses).map(([name, status]) => staffRow(name, status)),
  });
}

export function reviewComment(id: string, text: string, pointsDeducted: number): GradingComment {
  return { _id: id, id, text, pointsDeducted, accepted: true, rubricItemId: null, rubricItem: null };
}

/**
 * The suggestion POST grade answers for an answer with one (no AI call: it is stored): 8 of 10, made
 * before any grade of the question was saved (no examples).
 */
export function suggestionOf(name: string): GradingOutput {
  return {
    submissionText: `${name}'s answer.`,
    gradingResult: { comments: [reviewComment(`c-${name}`, `${name} forgot the units.`, 2)], totalScore: 8 },
    questionPoints: 10,
    confidenceLevel: 40,
    grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
    hiddenText: [],
    gradingRunId: `run-${name}`,
    isAlreadyGraded: false,
    currentGradeId: null,
    examplesUsed: 0,
  };
}

/**
 * The server's answer to Save Grade of `name`'s answer: the grade stored (8 of 10, its first) with
 * the comments saved, on the answer's stored suggestion, saved by the instructor.
 */
export const savedGradeOf = (name: string, comments: GradingComment[]) =>
  jsonResponse(200, {
    message: 'Grade saved successfully!',
    grade: {
      _id: `grade-${name.toLowerCase()}-1`,
      id: `grade-${name.toLowerCase()}-1`,
      submissionId: idOf(name),
      grade: 8,
      feedback: '',
      comments,
      confidenceLevel: 40,
      gradingRunId: `run-${name}`,
      savedBy: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
      createdAt: '2030-01-01T10:00:00.000Z',
    },
  });

/** GET .../answer-groups/of/:submissionId for an answer in no group. */
export const noGroup = () => jsonResponse(200, { questionPoints: 10, group: null });

const leaseTaken = () =>
  jsonResponse(200, {
    isMine: true,
    holder: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name, since: '2030-01-01T00:00:00.000Z' },
    expiresAt: '2030-01-01T00:00:00.000Z',
  } satisfies GradingLeaseOutput);
const leaseGiven = () => jsonResponse(200, { message: 'Lease released.' });

/**
 * The network of an instructor walking the queue: the question, the queue (nothing graded yet),
 * each answer's group (none: the grading screen reads the open answer's group only, decision
 * 0095), lease and PDF. `grade` answers each answer's POST grade (an answer left out has no
 * route: a call for it fails the test); `extra` adds routes (save, undo) or replaces any above.
 */
export function reviewQueueRoutes<Name extends string>(
  statuses: Readonly<Record<Name, QueueStatus>>,
  grade: Partial<Record<Name, Responder>>,
  extra: Record<string, Responder> = {},
): Record<string, Responder> {
  const names = Object.keys(statuses) as Name[];
  const queue: ReviewQueueOutput = {
    questionPoints: 10,
    items: names.map((name) => queueItem(name, statuses[name])),
    remaining: names.length,
  };
  return {
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () => jsonResponse(200, questionOfQueue(statuses)),
    [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, queue),
    ...Object.fromEntries(
      names.flatMap((name) => [
        [`GET ${QUESTION_API}/answer-groups/of/${idOf(name)}`, noGroup],
        [`POST ${QUESTION_API}/grade/${idOf(name)}/lease`, leaseTaken],
        [`DELETE ${QUESTION_API}/grade/${idOf(name)}/lease`, leaseGiven],
        [`GET /api/files/answer-${name.toLowerCase()}`, () => new Response('%PDF-1.4 not read')],
      ]),
    ),
    ...Object.fromEntries(
      Object.entries<Responder | undefined>(grade).flatMap(([name, responder]) =>
        responder ? [[`POST ${QUESTION_API}/grade/${idOf(name)}`, responder]] : [],
      ),
    ),
    ...extra,
  };
}

/** A POST grade responder answering the answer's stored suggestion every time. */
export const storedSuggestion =
  (name: string): Responder =>
  () =>
    jsonResponse(200, suggestionOf(name));
