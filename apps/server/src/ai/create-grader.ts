import type { Config } from '../config.ts';
import { createBuiltinGrader } from './builtin/builtin-grader.ts';
import type { Grader } from './grader-types.ts';
import { createLlmGrader, interpretLlmGrading, interpretLlmRubric, type LlmGraderOptions } from './llm/llm-grader.ts';
import { createLanguageModelClient, type LanguageModelClientOptions } from './provider/create-client.ts';

export interface CreateGraderOptions extends LanguageModelClientOptions {
  /** Retry-policy overrides for the LLM grader (tests and benchmarks). */
  retry?: LlmGraderOptions['retry'];
}

/**
 * What reads an LLM answer already stored (a run retried after its call was paid for): the
 * interpretation is pure and calls nothing, so it needs no provider, whichever one answered.
 */
export function interpretingLlmGrader(): Pick<Grader, 'kind' | 'interpretGrading' | 'interpretRubric'> {
  return { kind: 'llm', interpretGrading: interpretLlmGrading, interpretRubric: interpretLlmRubric };
}

/** The LLM grader of each AI configuration (the `ai` object of the process's Config), built once. */
const llmGraders = new WeakMap<Config['ai'], Grader>();

/**
 * The grader the configuration asks for: the offline built-in grader by default (AI_PROVIDER
 * unset or `builtin`), else an LLM grader on the configured provider. Cheap to call: nothing is
 * contacted until a grader method runs. The LLM grader of a configuration is built once and
 * shared by every run of the process (it keeps nothing between calls): built per run, its client
 * and the SDK's model object were 2-3% of the server's thread in the grade-all benchmark (issue
 * 11). A caller's own fetch or retry policy gets a grader of its own.
 */
export function createGrader(config: Pick<Config, 'ai'>, options: CreateGraderOptions = {}): Grader {
  if (config.ai.provider === 'builtin') return createBuiltinGrader();
  const isShared = options.fetch === undefined && options.retry === undefined;
  const known = isShared ? llmGraders.get(config.ai) : undefined;
  if (known) return known;
  const grader = createLlmGrader({
    client: createLanguageModelClient(config.ai, { fetch: options.fetch }),
    maxRetries: config.ai.maxRetries,
    totalTimeoutMs: config.ai.totalTimeoutMs,
    retry: options.retry,
  });
  if (isShared) llmGraders.set(config.ai, grader);
  return grader;
}
