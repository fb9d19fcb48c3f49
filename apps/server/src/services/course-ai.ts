import type { AiLocation, AiProviderChoice } from '@gradewise/shared/contracts/ai-cost';
import type { GraderKind } from '@gradewise/shared/contracts/grading';
import type { AiProviderConfig, Config } from '../config.ts';
import { createGrader, type CreateGraderOptions } from '../ai/create-grader.ts';
import type { Grader, GraderMeta } from '../ai/grader-types.ts';
import { resolveModelName } from '../ai/provider/settings.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict } from '../lib/errors.ts';
import { insertAiCost, selectAiCourseOfQuestion, type AiCourseFields } from '../models/ai-costs.ts';
import type { Db } from '../db/client.ts';
import { costMicros } from '@gradewise/shared/contracts/ai-cost';

/**
 * The AI a course grades with: the one home of the rules of issue 31
 * (docs/decisions/0073-ai-providers-per-course-and-cost.md).
 *
 * - The operator lists providers (config.ts: the built-in grader, AI_PROVIDER's entry, AI_PROVIDERS);
 *   a course grades with the one its owner picked, or the server's default.
 * - A course held to "on this server only" refuses every AI call to a provider whose answers leave
 *   the server. Every grader of the app is built here, from a course, so no call can skip the rule:
 *   routes refuse before anything is queued, and jobs check again when they run (the owner may have
 *   changed the setting since), then call the provider the work was queued on.
 * - Each provider call is priced from the provider's reported tokens and recorded (ai_costs).
 */

type CourseAi = Pick<AiCourseFields, 'aiProviderId' | 'aiServerOnly'>;

export function locationOf(provider: AiProviderConfig): AiLocation {
  return provider.onServer ? 'on-server' : 'external';
}

export function findProvider(config: Pick<Config, 'aiProviders'>, id: string): AiProviderConfig | undefined {
  return config.aiProviders.find((provider) => provider.id === id);
}

export function providerChoices(config: Pick<Config, 'aiProviders'>): AiProviderChoice[] {
  return config.aiProviders.map((provider) => ({
    id: provider.id,
    label: provider.label,
    kind: provider.provider,
    model: resolveModelName(provider),
    location: locationOf(provider),
    inputPricePerMillion: provider.inputPricePerMillion,
    outputPricePerMillion: provider.outputPricePerMillion,
  }));
}

/** The provider the course would use, without the server-only rule (settings screens, estimates). */
export function chosenProvider(config: Pick<Config, 'ai' | 'aiProviders'>, course: CourseAi): AiProviderConfig {
  if (course.aiProviderId === null) return config.ai;
  const provider = findProvider(config, course.aiProviderId);
  if (!provider) {
    throw conflict(
      `This course grades with "${course.aiProviderId}", which is no longer configured on this server. The course owner picks another in the course's AI settings.`,
    );
  }
  return provider;
}

/** Refuses a provider a course may not use: one off this server, for a course held to this server. */
export function requireAllowed(course: CourseAi, provider: AiProviderConfig): AiProviderConfig {
  if (course.aiServerOnly && !provider.onServer) {
    throw new AppError(
      'AI_PROVIDER_NOT_ALLOWED',
      `This course is held to AI on this server only, and "${provider.label}" is an external service. Nothing was sent. The course owner can pick a provider on this server in the course's AI settings.`,
    );
  }
  return provider;
}

/** The provider a new AI call of this course goes to: chosen, and allowed. */
export function courseProvider(config: Pick<Config, 'ai' | 'aiProviders'>, course: CourseAi): AiProviderConfig {
  return requireAllowed(course, chosenProvider(config, course));
}

/**
 * The provider a queued work row runs on: the one it was queued on (a run finishes on the
 * provider it started with, even if the owner switched meanwhile), if still configured; then the
 * course's rule as it is now.
 */
export function providerOfWork(
  config: Pick<Config, 'ai' | 'aiProviders'>,
  course: CourseAi,
  providerId: string | null,
): AiProviderConfig {
  const queuedOn = providerId === null ? undefined : findProvider(config, providerId);
  return requireAllowed(course, queuedOn ?? chosenProvider(config, course));
}

/** The grader of a provider (LLM graders are built once per provider and shared). */
export function graderOf(provider: AiProviderConfig, options: CreateGraderOptions = {}): Grader {
  return createGrader({ ai: provider }, options);
}

/** Who will grade, before any call: what a queued row stores. The job overwrites all but the id with what answered. */
export function describeProvider(provider: AiProviderConfig): {
  graderKind: GraderKind;
  provider: string;
  providerId: string;
  model: string;
  promptVersion: string;
} {
  return {
    graderKind: provider.provider === 'builtin' ? 'builtin' : 'llm',
    provider: provider.provider,
    providerId: provider.id,
    model: resolveModelName(provider),
    // Known only once the grader answered.
    promptVersion: 'pending',
  };
}

/** Reads the course of a question for a job: its AI fields and ids. */
export async function aiCourseOfQuestion(db: Db, questionId: string) {
  const course = await selectAiCourseOfQuestion(db, questionId);
  if (!course) throw new AppError('NOT_FOUND', 'This question no longer exists.');
  return course;
}

/**
 * Records what one provider call cost, from the tokens the provider reported, once per work row.
 * The built-in grader costs nothing and records nothing.
 */
export async function recordAiCost(
  db: Db,
  work: {
    workId: string;
    kind: 'grading' | 'rubric' | 'trial' | 'recheck' | 'model-check';
    course: { courseId: string; instructorId: string };
    assignmentId?: string | null;
    questionId?: string | null;
    batchId?: string | null;
    /** A grading call's rubric items (the estimate learns answer length per item from them). */
    rubricItems?: number;
  },
  provider: AiProviderConfig,
  meta: Pick<GraderMeta, 'graderKind' | 'model' | 'inputTokens' | 'outputTokens'>,
): Promise<void> {
  if (meta.graderKind === 'builtin' || provider.provider === 'builtin') return;
  const tokens = { inputTokens: meta.inputTokens ?? 0, outputTokens: meta.outputTokens ?? 0 };
  await insertAiCost(db, {
    workId: work.workId,
    kind: work.kind,
    courseId: work.course.courseId,
    instructorId: work.course.instructorId,
    assignmentId: work.assignmentId ?? null,
    questionId: work.questionId ?? null,
    batchId: work.batchId ?? null,
    rubricItems: work.rubricItems ?? null,
    providerId: provider.id,
    model: meta.model,
    ...tokens,
    costMicros: costMicros(tokens, provider),
  });
}

/** Whether a course's automatic work may run the built-in grader by itself (its provider is the free one). */
export async function courseGradesWithBuiltin(ctx: AppContext, questionId: string): Promise<boolean> {
  const course = await selectAiCourseOfQuestion(ctx.db, questionId);
  if (!course) return false;
  const provider = course.aiProviderId === null ? ctx.config.ai : findProvider(ctx.config, course.aiProviderId);
  return provider?.provider === 'builtin';
}
