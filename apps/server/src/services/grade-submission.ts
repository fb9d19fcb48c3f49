import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import { selectFileExtraction, type FileExtractionRow } from '../models/file-extractions.ts';
import { selectCurrentGrade, type GradeRow } from '../models/grades.ts';
import {
  insertGradingRunUnlessActive,
  isActiveRun,
  selectActiveGradingRun,
  selectGradingRunById,
  selectLatestSucceededRun,
  type GradingRunRow,
} from '../models/grading-runs.ts';
import type { QuestionRow } from '../models/questions.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectSubmissionInQuestion, type SubmissionRow } from '../models/submissions.ts';
import { selectUserById, type UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { checkProviderQuota, countInteractiveCall, spendScopeOf, type SpendScope } from './ai-spend.ts';
import type { AiProviderConfig } from '../config.ts';
import { courseProvider, describeProvider } from './course-ai.ts';
import { draftRubricAndWait } from './generate-rubric.ts';
import { errorOfFailedRow, GRADING_WAIT_MS, requireJobs, stillRunning } from './job-work.ts';
import { gradeSubmissionJob } from './run-grading.ts';

export interface GradeParams {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

/** What the grade and regrade calls answer, as read; presenters/grading-presenter.ts presents it. */
export type GradingAnswer = {
  points: number;
  rubric: RubricRow | undefined;
  extraction: FileExtractionRow | undefined;
} & (
  | {
      kind: 'saved';
      grade: GradeRow;
      /** The AI run the saved grade started from. */
      run: GradingRunRow | undefined;
      /** Who changed the rubric, for a grade its re-application wrote (`reason: 'rubric-change'`). */
      rubricEditor: { name: string } | undefined;
    }
  | {
      kind: 'run';
      run: GradingRunRow;
      /** The saved grade current when this answer is made (a regrade never changes it). */
      currentGradeId: string | null;
    }
);

/**
 * POST grade/:submissionId. A submission already graded answers what is stored — the saved grade,
 * or the finished AI suggestion — instead of paying for a new one. Otherwise it is graded as a
 * durable job (drafting the rubric first if the question has none) and the call waits for it.
 */
export async function gradeSubmission(ctx: AppContext, user: UserRow, params: GradeParams): Promise<GradingAnswer> {
  const { question, submission, spendScope } = await loadForGrading(ctx, user, params, 'grade submissions');
  const saved = await selectCurrentGrade(ctx.db, submission.id);
  if (saved) {
    const run = saved.gradingRunId ? await selectGradingRunById(ctx.db, saved.gradingRunId) : undefined;
    return {
      kind: 'saved',
      grade: saved,
      run,
      points: question.points,
      ...(await readContext(ctx, question, submission)),
      rubricEditor: saved.reason === 'rubric-change' ? await selectUserById(ctx.db, saved.savedById) : undefined,
    };
  }
  const finished = await selectLatestSucceededRun(ctx.db, submission.id);
  if (finished)
    return {
      kind: 'run',
      run: finished,
      points: question.points,
      ...(await readContext(ctx, question, submission)),
      currentGradeId: null,
    };
  // A run that succeeds from here on (a job re-sent at boot, another tab) is joined, not doubled.
  return gradeAsJob(ctx, user, spendScope, question, submission, { joinSucceeded: true });
}

/**
 * POST regrade/:submissionId: always a new AI run (or the one already in flight), answered like
 * grade. Saved grades are never touched: they stay in `grades`, newest current, until the
 * instructor saves again.
 */
export async function regradeSubmission(ctx: AppContext, user: UserRow, params: GradeParams): Promise<GradingAnswer> {
  const { question, submission, spendScope } = await loadForGrading(ctx, user, params, 'regrade submissions');
  return gradeAsJob(ctx, user, spendScope, question, submission);
}

async function loadForGrading(ctx: AppContext, user: UserRow, params: GradeParams, action: string) {
  // Staff check before the submission lookup: an enrolled student gets 403, never a hint about ids.
  const scope = requireGrader(await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId), action);
  const { question } = scope;
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  // The course's provider, refused here when the course is held to this server and it is external.
  const provider = courseProvider(ctx.config, scope.course);
  return { question, submission, spendScope: spendScopeOf(scope, provider) };
}

async function gradeAsJob(
  ctx: AppContext,
  user: UserRow,
  spendScope: SpendScope,
  question: QuestionRow,
  submission: SubmissionRow,
  options: StartOptions = {},
): Promise<GradingAnswer> {
  const jobs = requireJobs(ctx);
  const needsRubric = !(await selectRubricByQuestionId(ctx.db, question.id));
  // The provider quota first (it counts nothing), then this user's call: a refusal costs nothing.
  await checkProviderQuota(ctx, spendScope, needsRubric ? 2 : 1);
  await countInteractiveCall(ctx, user.id);
  const { provider } = spendScope;
  if (needsRubric) await draftRubricAndWait(ctx, question, user.id, provider);
  const run = await startGradingRun(ctx, submission.id, user.id, null, { ...options, provider });
  if (isActiveRun(run)) await jobs.send(gradeSubmissionJob, { id: run.id });
  const settled = await waitForRun(ctx, run.id);
  // Read after the run: the saved grade current when this answer is made (a regrade never changes it).
  const current = await selectCurrentGrade(ctx.db, submission.id);
  return {
    kind: 'run',
    run: settled,
    points: question.points,
    ...(await readContext(ctx, question, submission)),
    currentGradeId: current?.id ?? null,
  };
}

export interface StartOptions {
  /**
   * Answer the submission's succeeded run, if it has one, instead of queuing another (grade, not
   * regrade). Checked in the same transaction as the insert: a caller that saw no succeeded run a
   * few queries earlier must not start a second, paid run because the first finished meanwhile
   * (job-recovery.test.ts caught it: a run re-sent at boot finished between the two).
   */
  joinSucceeded?: boolean;
  /** The provider the run is queued on (the course's, services/course-ai.ts); default: the server's. */
  provider?: AiProviderConfig;
}

/**
 * Queues a run, or joins the one already in flight for this submission (never two at once), or,
 * with `joinSucceeded`, the one that already succeeded.
 */
export async function startGradingRun(
  ctx: AppContext,
  submissionId: string,
  requestedById: string,
  batchId: string | null,
  options: StartOptions = {},
): Promise<GradingRunRow> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await ctx.db.transaction(async (tx) => {
      const succeeded = options.joinSucceeded ? await selectLatestSucceededRun(tx, submissionId) : undefined;
      return (
        succeeded ??
        (await insertGradingRunUnlessActive(tx, {
          id: newId(),
          submissionId,
          batchId,
          status: 'queued',
          ...describeProvider(options.provider ?? ctx.config.ai),
          requestedById,
        }))
      );
    });
    if (inserted) return inserted;
    const active = await selectActiveGradingRun(ctx.db, submissionId);
    if (active) return active;
  }
  throw new AppError('CONFLICT', 'This submission is being graded right now. Please try again in a moment.');
}

async function waitForRun(ctx: AppContext, runId: string): Promise<GradingRunRow> {
  const settled = await requireJobs(ctx).waitFor(
    runId,
    async () => {
      const row = await selectGradingRunById(ctx.db, runId);
      return row && (row.status === 'succeeded' || row.status === 'failed') ? row : undefined;
    },
    { timeoutMs: GRADING_WAIT_MS },
  );
  if (!settled) throw stillRunning('Grading');
  if (settled.status === 'failed') throw errorOfFailedRow(settled, 'Grading failed. Please try again.');
  return settled;
}

async function readContext(ctx: AppContext, question: QuestionRow, submission: SubmissionRow) {
  const [rubric, extraction] = await Promise.all([
    selectRubricByQuestionId(ctx.db, question.id),
    selectFileExtraction(ctx.db, submission.fileId),
  ]);
  return { rubric, extraction };
}
