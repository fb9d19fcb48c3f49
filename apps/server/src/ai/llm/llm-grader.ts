import type { z } from 'zod';
import { clampText } from '@gradewise/shared/clamp-text';
import { rubricItemId } from '@gradewise/shared/rubric-items';
import {
  GRADE_COMMENT_TEXT_MAX,
  GRADE_COMMENTS_MAX,
  RUBRIC_CRITERION_MAX,
  RUBRIC_GUIDANCE_MAX,
  RUBRIC_ITEMS_MAX,
} from '@gradewise/shared/contracts/grading';
import { AppError } from '../../lib/errors.ts';
import type {
  Grader,
  GraderMeta,
  GradingCall,
  GradingInput,
  GradingSuggestion,
  RubricCall,
  RubricDraft,
  RubricDraftInput,
  RubricItem,
  SuggestedComment,
} from '../grader-types.ts';
import { formatSeconds, ProviderCallError } from '../provider/call-errors.ts';
import type { LanguageModelClient, LlmMessage, TokenUsage } from '../provider/language-model-client.ts';
import { apportionPoints } from '../rubric/apportion-points.ts';
import { sanitizeAnswerRegion } from './answer-regions.ts';
import { calibrateToQuestionRecord, countWords, estimateConfidence } from './confidence.ts';
import {
  buildGradingOutputSchema,
  RubricAnswerSchema,
  StoredGradingOutput,
  StoredRubricOutput,
} from './output-schemas.ts';
import {
  buildGradingSystemPrompt,
  buildGradingUserMessage,
  buildRepairMessages,
  buildRubricSystemPrompt,
  buildRubricUserMessage,
  createBoundaryTag,
  PROMPT_VERSION,
} from './prompts.ts';
import { selectSimilarExamples } from './few-shot.ts';
import { callWithRetries, defaultSleep, MIN_TRY_MS, RetriesExhaustedError, type RetryPolicy } from './retry-policy.ts';

/**
 * The LLM grader: prompts, one schema repair, the retry policy, and the pure interpretation of
 * what the model answered. Provider details stay behind LanguageModelClient.
 *
 * Cost rule: a call that answered (even wrongly) is never silently repeated. Transport failures
 * are retried (nothing useful was bought); an invalid answer gets exactly one repair prompt, then
 * the call fails with AI_FAILED so a misbehaving model cannot loop on the user's bill.
 */

export interface LlmGraderOptions {
  client: LanguageModelClient;
  /** Tries after the first one per request (config AI_MAX_RETRIES). */
  maxRetries: number;
  /**
   * The most one grading or rubric call may take, every try, wait and the repair included
   * (config AI_TOTAL_TIMEOUT_MS); unlimited when absent. Each try gets what is left, at most the
   * client's own timeout (AI_TIMEOUT_MS).
   */
  totalTimeoutMs?: number;
  /** Overrides for the retry policy; tests inject `sleep` and `random` and a small base. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Clock for latency; monotonic by default. */
  now?: () => number;
}

const MAX_SCHEMA_REPAIRS = 1;
const GRADING_MAX_OUTPUT_TOKENS = 4096;
const RUBRIC_MAX_OUTPUT_TOKENS = 4096;

/** Used when a question has no rubric yet: the whole question is one criterion. */
export const OVERALL_ITEM_ID = 'overall';

export function createLlmGrader(options: LlmGraderOptions): Grader {
  const { client } = options;
  const now = options.now ?? (() => performance.now());
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 60_000,
    sleep: defaultSleep,
    random: Math.random,
    ...options.retry,
  };

  async function generateWithOneRepair<T>(request: {
    task: 'grading' | 'rubric';
    system: string;
    firstMessage: LlmMessage;
    schema: z.ZodType<T>;
    maxOutputTokens: number;
    signal?: AbortSignal;
  }): Promise<{ value: T; schemaRepairs: number; usage: TokenUsage }> {
    const usage = new UsageTally();
    const startedAt = now();
    const remainingMs = () =>
      options.totalTimeoutMs === undefined
        ? Number.POSITIVE_INFINITY
        : options.totalTimeoutMs - Math.max(0, now() - startedAt);
    let messages: LlmMessage[] = [request.firstMessage];
    for (let repairs = 0; ; repairs += 1) {
      try {
        const { value: result } = await callWithRetries(
          () =>
            client.generateJson({
              system: request.system,
              messages,
              schema: request.schema,
              schemaName: request.task,
              maxOutputTokens: request.maxOutputTokens,
              signal: request.signal,
              timeoutMs: Math.min(client.timeoutMs, Math.max(1, remainingMs())),
            }),
          policy,
          request.signal,
          (failure) => usage.add(failure.details.usage),
          remainingMs,
        );
        usage.add(result.usage);
        return { value: result.value, schemaRepairs: repairs, usage: usage.total() };
      } catch (error) {
        if (error instanceof ProviderCallError && error.kind === 'invalid-output' && repairs < MAX_SCHEMA_REPAIRS) {
          if (remainingMs() < MIN_TRY_MS) {
            throw toFinalError(
              new RetriesExhaustedError(error, repairs + 1, undefined, true),
              client,
              request.task,
              request.signal,
              options.totalTimeoutMs,
            );
          }
          messages = [
            request.firstMessage,
            ...buildRepairMessages(error.details.answerText ?? '', error.details.issues ?? []),
          ];
          continue;
        }
        throw toFinalError(error, client, request.task, request.signal, options.totalTimeoutMs);
      }
    }
  }

  function buildMeta(usage: TokenUsage, startedAt: number): GraderMeta {
    return {
      graderKind: 'llm',
      provider: client.provider,
      model: client.model,
      promptVersion: PROMPT_VERSION,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      latencyMs: Math.max(0, Math.round(now() - startedAt)),
    };
  }

  return {
    kind: 'llm',

    async requestGrading(input: GradingInput, signal?: AbortSignal): Promise<GradingCall> {
      const startedAt = now();
      const rubricItems = effectiveRubricItems(input);
      const examples = selectSimilarExamples(input.answerText, input.examples ?? []);
      // Neither tag may occur in any student text of the prompt: the answer or an example answer.
      const studentText = [input.answerText, ...examples.map((example) => example.answerText)].join('\n');
      const boundaryTag = createBoundaryTag(studentText);
      const fewShot = { tag: createBoundaryTag(studentText, undefined, 'graded_example'), examples };
      const { message, pageImagesSent, pagesShown } = buildGradingUserMessage(
        input,
        boundaryTag,
        client.acceptsImages,
        fewShot,
      );
      const { value, schemaRepairs, usage } = await generateWithOneRepair({
        task: 'grading',
        system: buildGradingSystemPrompt(input, rubricItems, boundaryTag, fewShot, pagesShown),
        firstMessage: message,
        schema: buildGradingOutputSchema(rubricItems, { withRegions: pagesShown.length > 0 }),
        maxOutputTokens: GRADING_MAX_OUTPUT_TOKENS,
        signal,
      });
      const answer = {
        ...value,
        items: value.items.map((item) => ({ ...item, comment: boundForStorage(item.comment, GRADE_COMMENT_TEXT_MAX) })),
        generalComment: boundForStorage(value.generalComment, GRADE_COMMENT_TEXT_MAX),
      };
      const rawOutput: StoredGradingOutput = { answer, schemaRepairs, pageImagesSent, pagesShown };
      return { rawOutput, meta: buildMeta(usage, startedAt) };
    },

    interpretGrading: interpretLlmGrading,

    async requestRubric(input: RubricDraftInput, signal?: AbortSignal): Promise<RubricCall> {
      const startedAt = now();
      const { value, schemaRepairs, usage } = await generateWithOneRepair({
        task: 'rubric',
        system: buildRubricSystemPrompt(input),
        firstMessage: buildRubricUserMessage(input),
        schema: RubricAnswerSchema,
        maxOutputTokens: RUBRIC_MAX_OUTPUT_TOKENS,
        signal,
      });
      const answer = {
        items: value.items.map((item) => ({
          ...item,
          criterion: boundForStorage(item.criterion, RUBRIC_CRITERION_MAX),
          guidance: boundForStorage(item.guidance, RUBRIC_GUIDANCE_MAX),
        })),
      };
      const rawOutput: StoredRubricOutput = { answer, schemaRepairs };
      return { rawOutput, meta: buildMeta(usage, startedAt) };
    },

    interpretRubric: interpretLlmRubric,
  };
}

/** The rubric the model grades against; a question without one is graded as a single criterion. */
export function effectiveRubricItems(input: GradingInput): RubricItem[] {
  if (input.rubricItems.length > 0) return input.rubricItems;
  return [
    {
      id: OVERALL_ITEM_ID,
      criterion: 'Overall correctness and completeness compared with the reference solution',
      points: input.points,
      guidance: 'Deduct in proportion to what is missing or wrong.',
    },
  ];
}

/**
 * Pure. Re-reads a stored answer against the CURRENT rubric: ids the rubric no longer has are
 * dropped, duplicates ignored, missing items flagged for the instructor, deductions clamped to
 * 0..item points; every such correction lowers the confidence.
 */
export function interpretLlmGrading(rawOutput: unknown, input: GradingInput): GradingSuggestion {
  const parsed = StoredGradingOutput.safeParse(rawOutput);
  if (!parsed.success) {
    throw new AppError('AI_FAILED', 'The stored AI grading for this submission cannot be read. Grade it again.');
  }
  const { answer, schemaRepairs, pageImagesSent, pagesShown } = parsed.data;
  const pagesSeen = new Set(pagesShown);
  const rubricItems = effectiveRubricItems(input);
  const knownIds = new Set(rubricItems.map((item) => item.id));

  let outputFixes = 0;
  const judgementById = new Map<string, (typeof answer.items)[number]>();
  for (const judgement of answer.items) {
    if (!knownIds.has(judgement.rubricItemId) || judgementById.has(judgement.rubricItemId)) {
      outputFixes += 1;
      continue;
    }
    judgementById.set(judgement.rubricItemId, judgement);
  }

  const comments: SuggestedComment[] = [];
  // Every text is clamped to what a saved grade can hold (the save-grade contract's limits):
  // whatever the model wrote, the suggestion shown can be saved as it is.
  const generalComment = clampText(answer.generalComment.trim(), GRADE_COMMENT_TEXT_MAX);
  if (generalComment) comments.push({ text: generalComment, pointsDeducted: 0, rubricItemId: null });

  const judgements: { points: number; pointsDeducted: number }[] = [];
  for (const item of rubricItems) {
    const judgement = judgementById.get(item.id);
    if (!judgement) {
      outputFixes += 1;
      judgements.push({ points: item.points, pointsDeducted: 0 });
      comments.push({
        text: clampText(
          `The AI did not judge "${item.criterion}"; please check this item yourself.`,
          GRADE_COMMENT_TEXT_MAX,
        ),
        pointsDeducted: 0,
        rubricItemId: item.id,
      });
      continue;
    }
    const asked = Number.isFinite(judgement.pointsDeducted) ? roundToHundredths(judgement.pointsDeducted) : 0;
    const pointsDeducted = clamp(asked, 0, Math.max(0, item.points));
    if (pointsDeducted !== asked || !Number.isFinite(judgement.pointsDeducted)) outputFixes += 1;
    let text = judgement.comment.trim();
    if (text.length > GRADE_COMMENT_TEXT_MAX) {
      outputFixes += 1;
      text = clampText(text, GRADE_COMMENT_TEXT_MAX);
    }
    if (!text && pointsDeducted > 0) {
      // A deduction the student cannot understand is worse than none; say what it was for.
      outputFixes += 1;
      text = clampText(`Points deducted for: ${item.criterion}`, GRADE_COMMENT_TEXT_MAX);
    }
    judgements.push({ points: item.points, pointsDeducted });
    // A box the model got wrong is dropped or clamped, never a reason to doubt the deduction.
    const region = sanitizeAnswerRegion(judgement.region, pagesSeen);
    if (text) comments.push({ text, pointsDeducted, rubricItemId: item.id, ...(region ? { region } : {}) });
  }

  const totalDeducted = judgements.reduce((sum, judgement) => sum + judgement.pointsDeducted, 0);
  const totalScore = clamp(roundToHundredths(input.points - totalDeducted), 0, Math.max(0, input.points));
  // One comment per rubric item plus the general one fits a saved grade (rubrics hold at most
  // RUBRIC_ITEMS_MAX items); the cap only guards that arithmetic.
  comments.splice(GRADE_COMMENTS_MAX);
  const answerConfidence = estimateConfidence({
    selfReported: answer.confidence,
    judgements,
    schemaRepairs,
    outputFixes,
    answerWords: countWords(input.answerText),
    solutionWords: countWords(input.solutionText),
    pageImagesSent,
    scoreFraction: input.points > 0 ? totalScore / input.points : 0,
  });
  const confidence = calibrateToQuestionRecord(answerConfidence, input.examples, input.points);
  return { comments, totalScore, confidence };
}

/** Pure. Rubric items whose points add up exactly to the question's points, ids item-1..n. */
export function interpretLlmRubric(rawOutput: unknown, input: RubricDraftInput): RubricDraft {
  const parsed = StoredRubricOutput.safeParse(rawOutput);
  if (!parsed.success) {
    throw new AppError('AI_FAILED', 'The stored AI rubric for this question cannot be read. Generate it again.');
  }
  // At most what a rubric can hold, so the draft can be saved again as it is.
  const drafted = parsed.data.answer.items.slice(0, RUBRIC_ITEMS_MAX);
  const points = apportionPoints(
    drafted.map((item) => item.points),
    input.points,
  );
  const kept = drafted
    .map((item, index) => ({ item, points: points[index] ?? 0 }))
    // Items squeezed to zero (more criteria than points) are dropped, unless the question is worth 0.
    .filter(({ points: itemPoints }) => itemPoints > 0 || input.points <= 0);
  return {
    items: kept.map(({ item, points: itemPoints }, index) => ({
      id: rubricItemId(index + 1),
      criterion: clampText(item.criterion.trim(), RUBRIC_CRITERION_MAX),
      points: itemPoints,
      guidance: clampText(item.guidance.trim(), RUBRIC_GUIDANCE_MAX),
    })),
  };
}

/**
 * The one error a caller sees when the provider cannot deliver: AI_FAILED (502) with a sentence
 * naming the provider, its address and the cause. The caller's own abort passes through as is.
 */
function toFinalError(
  error: unknown,
  client: LanguageModelClient,
  task: 'grading' | 'rubric',
  signal?: AbortSignal,
  totalTimeoutMs?: number,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof ProviderCallError && error.kind === 'aborted') return error;
  const who = `The AI provider (${client.describe()})`;
  const fail = (message: string) => new AppError('AI_FAILED', message);

  if (error instanceof RetriesExhaustedError) {
    const tries = `${error.tries} ${error.tries === 1 ? 'try' : 'tries'}`;
    const last = error.lastError;
    if (error.isOutOfTime && totalTimeoutMs !== undefined) {
      // The real bound the user waited for: say it, and which setting holds it.
      const allowed = `the ${formatSeconds(totalTimeoutMs)} allowed for one ${task === 'grading' ? 'grading' : 'rubric draft'} (AI_TOTAL_TIMEOUT_MS)`;
      switch (last.kind) {
        case 'timeout':
          return fail(`${who} did not answer within ${allowed}, after ${tries}.`);
        case 'invalid-output':
          return fail(
            `${who} did not give a usable ${task} within ${allowed} (${last.details.issues?.[0] ?? last.message}).`,
          );
        default:
          return fail(`${who} kept failing (${last.message}) until ${allowed} ran out, after ${tries}.`);
      }
    }
    switch (last.kind) {
      case 'timeout':
        return fail(
          last.details.statusCode === 408
            ? `${who} timed out the request (HTTP 408) after ${tries}.`
            : `${who} did not answer in ${formatSeconds(client.timeoutMs)} after ${tries}.`,
        );
      case 'rate-limited':
        if (error.refusedRetryAfterMs !== undefined) {
          return fail(
            `${who} is rate limiting requests and asked to wait ${formatSeconds(error.refusedRetryAfterMs)}. Try again later.`,
          );
        }
        return fail(
          `${who} kept refusing with HTTP 429 (rate limit) after ${tries}. Try again later or lower GRADING_CONCURRENCY.`,
        );
      case 'server-error':
        return fail(`${who} failed with HTTP ${last.details.statusCode ?? '5xx'} after ${tries}.`);
      case 'network':
        return fail(`${who} ${last.message} after ${tries}. Check AI_BASE_URL and that the server is running.`);
      default:
        return fail(`${who} failed after ${tries}: ${last.message}.`);
    }
  }
  if (error instanceof ProviderCallError) {
    switch (error.kind) {
      case 'invalid-output':
        return fail(
          `${who} answered twice with a ${task} that does not match the required format (${error.details.issues?.[0] ?? error.message}).`,
        );
      case 'rejected': {
        const status = error.details.statusCode;
        const hint =
          status === 401 || status === 403
            ? ' Check the API key (AI_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY).'
            : status === 404
              ? ' Check AI_MODEL and AI_BASE_URL.'
              : '';
        return fail(`${who} rejected the request (${error.message}).${hint}`);
      }
      default:
        return fail(`${who} failed: ${error.message}.`);
    }
  }
  return fail(`${who} failed: ${error instanceof Error ? error.message : String(error)}.`);
}

/**
 * The stored answer keeps at most one character more than the product can save: a reply of
 * megabytes is not kept in `raw_output` (real providers stop at GRADING_MAX_OUTPUT_TOKENS, a local
 * server may not), while interpretation still sees that the text was too long (an output fix, which
 * lowers the confidence) and clamps it to the limit.
 */
function boundForStorage(text: string, max: number): string {
  return clampText(text, max + 1);
}

/** Tokens over every call a request made (failed tries and the repair are billed too). */
class UsageTally {
  private input: number | null = null;
  private output: number | null = null;

  add(usage: TokenUsage | undefined): void {
    if (!usage) return;
    if (usage.inputTokens !== null) this.input = (this.input ?? 0) + usage.inputTokens;
    if (usage.outputTokens !== null) this.output = (this.output ?? 0) + usage.outputTokens;
  }

  total(): TokenUsage {
    return { inputTokens: this.input, outputTokens: this.output };
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function roundToHundredths(value: number): number {
  return Math.round(value * 100) / 100;
}
