import { roundToHundredths } from '@gradewise/shared/final-grade';
import type { JWK } from 'jose';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { currentTime } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { SCOPE } from '../lti/claims.ts';
import { importPrivateKey } from '../lti/keys.ts';
import { fetchServiceToken } from '../lti/service-token.ts';
import { selectAssignmentWithCourse, type AssignmentRow } from '../models/assignments.ts';
import { selectCountingGrades } from '../models/grades.ts';
import {
  insertScorePostUnlessQueued,
  markScorePostRunning,
  markScorePostSucceeded,
  noteScorePostPlatformMessage,
  recordScorePostFailure,
  selectContextById,
  selectEnrolledLmsStudentIds,
  selectGradebookContextsOfCourse,
  selectLatestScorePosts,
  selectLineItemUrl,
  selectLmsSubjects,
  selectPlatformById,
  selectUnfinishedScorePostIds,
  upsertLineItem,
  type LtiContextRow,
  type LtiScorePostRow,
} from '../models/lti.ts';
import { selectQuestionsOfAssignment } from '../models/questions.ts';
import { selectRegradeRequestsOfStudent } from '../models/regrade-requests.ts';
import { selectLatestSubmissionOfStudent } from '../models/submissions.ts';
import { selectPeopleByIds, type UserRow } from '../models/users.ts';
import { loadVisibleAssignment, requireGrader, requireOwner } from '../policies/course-access.ts';
import { isGradeReleased } from '../policies/grade-release.ts';
import { readStudentIdentities } from './anonymous-grading.ts';
import { MAX_JOB_STARTS } from './job-work.ts';
import { activeToolKey } from './lti-registration.ts';

/**
 * Assignment and Grade Services 2.0 (decision 0076): each student's released score on an
 * assignment goes to the line item of that assignment in every LMS course linked to its course.
 * Whatever changes a student's released score (a save, a release, a regrade opened or answered)
 * queues a score post; the post is a durable job that computes the score when it runs, from the
 * grades released at that moment (a held grade is never sent), so a post that waited sends the
 * newest state, and one queued while another waits joins it.
 */

const LINE_ITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
const LINE_ITEM_CONTAINER_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';
const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
/** What the LMS answered, kept for the instructor: long enough to read, short enough to show. */
const PLATFORM_MESSAGE_MAX = 500;

/** The AGS grading progress Gradewise sends (AGS 2.0, "gradingProgress"). */
type GradingProgress = 'FullyGraded' | 'Pending' | 'PendingManual';

/** A student's released score on an assignment, as the LMS gets it. */
interface ReleasedScore {
  scoreGiven: number;
  scoreMaximum: number;
  gradingProgress: GradingProgress;
  comment: string;
}

/**
 * Called after anything that may change students' released scores on the assignment (all its LMS
 * students when `studentIds` is omitted). Never fails its caller: the grade is saved, and a post
 * that could not be queued is logged (the instructor's "Send grades to the LMS" sends it later).
 */
export async function requestScorePassback(
  ctx: AppContext,
  assignmentId: string,
  studentIds?: readonly string[],
): Promise<void> {
  try {
    await queueScorePosts(ctx, assignmentId, studentIds);
  } catch (error) {
    ctx.log.error({ err: error, assignmentId }, 'could not queue the LMS score posts');
  }
}

/** Queues a post per LMS course and student; answers how many posts were queued or joined. */
async function queueScorePosts(
  ctx: AppContext,
  assignmentId: string,
  studentIds: readonly string[] | undefined,
): Promise<number> {
  const found = await selectAssignmentWithCourse(ctx.db, assignmentId);
  if (!found) return 0;
  const contexts = await selectGradebookContextsOfCourse(ctx.db, found.course.id);
  const ids: string[] = [];
  let count = 0;
  for (const context of contexts) {
    const students = studentIds
      ? [...(await selectLmsSubjects(ctx.db, context.platformId, studentIds)).keys()]
      : await selectEnrolledLmsStudentIds(ctx.db, found.course.id, context.platformId);
    for (const studentId of students) {
      count += 1;
      const row = await insertScorePostUnlessQueued(ctx.db, {
        id: newId(),
        contextId: context.id,
        assignmentId,
        studentId,
      });
      if (row) ids.push(row.id);
    }
  }
  // Without a queue in this process the rows wait for the boot sweep of a process with one.
  if (ids.length > 0 && ctx.jobs)
    await ctx.jobs.sendMany(
      postLtiScoreJob,
      ids.map((id) => ({ id })),
    );
  return count;
}

/** Another post of the same student's score is running: this one waits for a retry of its job. */
class ScorePostBusyError extends Error {
  constructor() {
    super('Another post of this score is running; this one runs after it.');
  }
}

/** The LMS answered a failure worth trying again (its server, its rate limit, the network). */
class PlatformUnavailable extends Error {}

export const postLtiScoreJob = defineJob({
  name: 'lti-score-post',
  payload: z.object({ id: z.uuid() }),
  // An LMS that is down for a while: 5 s, 10 s, 20 s, 40 s; then the post is failed and shown, and
  // "Send grades to the LMS" sends it again.
  retry: { limit: 4, delaySeconds: 5, backoff: true },
  expireInSeconds: 120,
  // One at a time per process: the first post of an assignment creates its line item, and two at
  // once could create two.
  concurrency: () => 1,
  handle: (ctx, payload) => postScore(ctx, payload.id),
  recordFailure: (ctx, payload, failure, isFinal) => recordScorePostFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedScorePostIds(ctx.db),
});

/** The job's work: computes the released score now, finds or creates the line item, posts the score. */
async function postScore(ctx: AppContext, postId: string): Promise<void> {
  let post: LtiScorePostRow | undefined;
  try {
    post = await markScorePostRunning(ctx.db, postId);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ScorePostBusyError();
    throw error;
  }
  if (!post) return;
  if (post.attempts > MAX_JOB_STARTS) {
    throw new AppError(
      'UNPROCESSABLE',
      `Sending the score was given up: it was started ${MAX_JOB_STARTS} times and the server stopped each time before it finished.`,
    );
  }
  const context = await selectContextById(ctx.db, post.contextId);
  const platform = context ? await selectPlatformById(ctx.db, context.platformId) : undefined;
  const found = await selectAssignmentWithCourse(ctx.db, post.assignmentId);
  if (!context || !platform || !found || context.courseId !== found.course.id || !context.lineItemsUrl) {
    throw new AppError('CONFLICT', 'This LMS course is no longer linked to the course of this assignment.');
  }
  const subject = (await selectLmsSubjects(ctx.db, platform.id, [post.studentId])).get(post.studentId);
  if (!subject) throw new AppError('CONFLICT', 'This student has no account in the LMS.');
  const score = await releasedScoreOf(ctx.db, found.assignment, post.studentId);
  if (!score) {
    await markScorePostSucceeded(ctx.db, post.id, {
      scoreGiven: null,
      scoreMaximum: null,
      gradingProgress: null,
      skipped: true,
    });
    return;
  }
  try {
    const key = await activeToolKey(ctx);
    const token = await fetchServiceToken({
      tokenUrl: platform.authTokenUrl,
      clientId: platform.clientId,
      scopes: [SCOPE.lineItems, SCOPE.scores],
      key: await importPrivateKey(key.privateJwk as JWK),
      kid: key.kid,
      now: currentTime(ctx),
    }).catch((error: unknown) => {
      throw new PlatformUnavailable((error as Error).message);
    });
    const lineItemUrl = await lineItemOf(ctx.db, { context, assignment: found.assignment, token, score });
    await sendJson(scoresUrlOf(lineItemUrl), token, SCORE_MEDIA_TYPE, {
      userId: subject,
      scoreGiven: score.scoreGiven,
      scoreMaximum: score.scoreMaximum,
      comment: score.comment,
      timestamp: currentTime(ctx).toISOString(),
      activityProgress: 'Completed',
      gradingProgress: score.gradingProgress,
    });
  } catch (error) {
    if (error instanceof PlatformUnavailable || error instanceof AppError) {
      await noteScorePostPlatformMessage(ctx.db, post.id, error.message);
    }
    throw error;
  }
  await markScorePostSucceeded(ctx.db, post.id, {
    scoreGiven: score.scoreGiven,
    scoreMaximum: score.scoreMaximum,
    gradingProgress: score.gradingProgress,
    skipped: false,
  });
  ctx.log.info({ postId, assignmentId: post.assignmentId, progress: score.gradingProgress }, 'LMS score posted');
}

/**
 * What the student may see of their grades on the assignment, added up: only released grades count
 * (policies/grade-release.ts); the maximum is every question's points. FullyGraded when every
 * answer has a released grade and no regrade request is open; PendingManual while a request waits
 * for a person; Pending while an answer has no released grade yet. Undefined when nothing is released.
 */
async function releasedScoreOf(
  db: Db,
  assignment: AssignmentRow,
  studentId: string,
): Promise<ReleasedScore | undefined> {
  const questions = await selectQuestionsOfAssignment(db, assignment.id);
  let scoreGiven = 0;
  let scoreMaximum = 0;
  let anyReleased = false;
  let incomplete = false;
  let regradeOpen = false;
  const comments: string[] = [];
  for (const [index, question] of questions.entries()) {
    scoreMaximum += question.points;
    const latest = await selectLatestSubmissionOfStudent(db, question.id, studentId);
    if (!latest) continue;
    const counting = (await selectCountingGrades(db, [latest.submission.id])).get(latest.submission.id);
    if (!counting || !isGradeReleased(assignment, question)) {
      incomplete = true;
      continue;
    }
    anyReleased = true;
    scoreGiven += counting.grade.grade;
    const requests = await selectRegradeRequestsOfStudent(db, question.id, studentId);
    if (requests.some((request) => request.status === 'open')) regradeOpen = true;
    // The released comments: the feedback and the accepted comments, as the student's report shows them.
    const said = [
      counting.grade.feedback.trim(),
      ...counting.grade.comments.filter((comment) => comment.accepted).map((comment) => comment.text.trim()),
    ].filter(Boolean);
    if (said.length > 0) comments.push(`${question.title?.trim() || `Question ${index + 1}`}: ${said.join(' ')}`);
  }
  if (!anyReleased) return undefined;
  return {
    scoreGiven: roundToHundredths(scoreGiven),
    scoreMaximum: roundToHundredths(scoreMaximum),
    gradingProgress: regradeOpen ? 'PendingManual' : incomplete ? 'Pending' : 'FullyGraded',
    comment: comments.join('\n'),
  };
}

/**
 * The assignment's line item in this LMS course: the one recorded (from a launch, or created
 * before), else the one the LMS lists with `resourceId` = the assignment's id, else a new one.
 */
async function lineItemOf(
  db: Db,
  options: { context: LtiContextRow; assignment: AssignmentRow; token: string; score: ReleasedScore },
): Promise<string> {
  const { context, assignment, token } = options;
  const known = await selectLineItemUrl(db, assignment.id, context.id);
  if (known) return known;
  const listUrl = new URL(context.lineItemsUrl!);
  listUrl.searchParams.set('resource_id', assignment.id);
  const listed = await request(listUrl.toString(), {
    headers: { authorization: `Bearer ${token}`, accept: LINE_ITEM_CONTAINER_MEDIA_TYPE },
  });
  const items = z
    .array(z.object({ id: z.string(), resourceId: z.string().optional() }))
    .safeParse(await listed.json().catch(() => undefined));
  let url = items.success ? items.data.find((item) => item.resourceId === assignment.id)?.id : undefined;
  if (!url) {
    const created = await sendJson(context.lineItemsUrl!, token, LINE_ITEM_MEDIA_TYPE, {
      scoreMaximum: options.score.scoreMaximum,
      label: assignment.title,
      resourceId: assignment.id,
      tag: 'gradewise',
    });
    const item = z.object({ id: z.string().min(1) }).safeParse(await created.json().catch(() => undefined));
    if (!item.success) throw new PlatformUnavailable('The LMS created the line item but did not say its address.');
    url = item.data.id;
  }
  await upsertLineItem(db, { assignmentId: assignment.id, contextId: context.id, url });
  return url;
}

/** The scores endpoint of a line item: its path with `/scores` (AGS 2.0, 3.4), before any query. */
function scoresUrlOf(lineItemUrl: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/scores`;
  return url.toString();
}

function sendJson(url: string, token: string, mediaType: string, body: unknown): Promise<Response> {
  return request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': mediaType, accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * One call to the LMS. A refusal the LMS would repeat (4xx but 408 and 429) fails the post for
 * good with the LMS's own words; its server errors and the network are tried again.
 */
async function request(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new PlatformUnavailable(`The LMS could not be reached: ${(error as Error).message}`);
  }
  if (response.ok) return response;
  const said = (await response.text().catch(() => '')).trim().slice(0, PLATFORM_MESSAGE_MAX);
  const message = `The LMS answered ${response.status}${said ? `: ${said}` : '.'}`;
  const retried = response.status >= 500 || response.status === 408 || response.status === 429;
  if (retried) throw new PlatformUnavailable(message);
  throw new AppError('UNPROCESSABLE', message);
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

// ---- what the course's staff see

type PassbackState = 'sent' | 'pending' | 'failed' | 'nothing-released';

export interface PassbackRow {
  student: { _id: string; name: string };
  lmsCourse: string;
  state: PassbackState;
  scoreGiven: number | null;
  scoreMaximum: number | null;
  gradingProgress: string | null;
  message: string | null;
  at: Date;
}

export interface PassbackView {
  /** LMS courses linked to the course that take grades (AGS). */
  lmsCourses: string[];
  rows: PassbackRow[];
}

/**
 * GET /api/assignments/:id/lti-grade-passback: the newest post per LMS course and student, for the
 * course's staff (students never). Students shown as on every grading surface (a label while the
 * assignment is anonymous).
 */
export async function readGradePassback(ctx: AppContext, user: UserRow, assignmentId: string): Promise<PassbackView> {
  const { assignment, course } = requireGrader(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'see what was sent to the LMS',
  );
  const contexts = await selectGradebookContextsOfCourse(ctx.db, course.id);
  const posts = contexts.length > 0 ? await selectLatestScorePosts(ctx.db, assignment.id) : [];
  const titleOf = new Map(contexts.map((context) => [context.id, context.title]));
  const studentIds = [...new Set(posts.map((post) => post.studentId))];
  const [students, identities] = await Promise.all([
    selectPeopleByIds(ctx.db, studentIds),
    readStudentIdentities(ctx, assignment, studentIds),
  ]);
  const rows = posts.flatMap((post): PassbackRow[] => {
    const student = students.get(post.studentId);
    const lmsCourse = titleOf.get(post.contextId);
    if (!student || lmsCourse === undefined) return [];
    const shown = identities.person(student);
    return [
      {
        student: { _id: shown._id, name: shown.name },
        lmsCourse,
        state: stateOf(post),
        scoreGiven: post.scoreGiven,
        scoreMaximum: post.scoreMaximum,
        gradingProgress: post.gradingProgress,
        message: post.status === 'succeeded' ? null : (post.platformMessage ?? post.error),
        at: post.finishedAt ?? post.createdAt,
      },
    ];
  });
  rows.sort((a, b) => a.student.name.localeCompare(b.student.name) || a.lmsCourse.localeCompare(b.lmsCourse));
  return { lmsCourses: contexts.map((context) => context.title), rows };
}

function stateOf(post: LtiScorePostRow): PassbackState {
  if (post.status === 'failed') return 'failed';
  if (post.status !== 'succeeded') return 'pending';
  return post.skipped ? 'nothing-released' : 'sent';
}

/** POST /api/assignments/:id/lti-grade-passback: the owner sends every LMS student's score again. */
export async function sendGradesToLms(ctx: AppContext, user: UserRow, assignmentId: string): Promise<number> {
  const { assignment, course } = requireOwner(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'send its grades to the LMS',
  );
  if ((await selectGradebookContextsOfCourse(ctx.db, course.id)).length === 0) {
    throw new AppError('BAD_REQUEST', 'This course is not linked to an LMS course that takes grades (AGS).');
  }
  if (!ctx.jobs) throw new AppError('UNAVAILABLE', 'Sending grades is not running in this server process.');
  return queueScorePosts(ctx, assignment.id, undefined);
}
