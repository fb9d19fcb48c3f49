import type { Config } from '../config.ts';
import { createBuiltinGrader } from './builtin/builtin-grader.ts';
import type { Grader } from './grader-types.ts';
import { createLlmGrader, type LlmGraderOptions } from './llm/llm-grader.ts';
import { createLanguageModelClient, type LanguageModelClientOptions } from './provider/create-client.ts';

export interface CreateGraderOptions extends LanguageModelClientOptions {
  /** Retry-policy overrides for the LLM grader (tests and benchmarks). */
  retry?: LlmGraderOptions['retry'];
}

/**
 * The grader the configuration asks for: the offline built-in grader by default (AI_PROVIDER
 * unset or `builtin`), else an LLM grader on the configured provider. Cheap to call: nothing is
 * contacted until a grader method runs.
 */
export function createGrader(config: Pick<Config, 'ai'>, options: CreateGraderOptions = {}): Grader {
  if (config.ai.provider === 'builtin') return createBuiltinGrader();
  return createLlmGrader({
    client: createLanguageModelClient(config.ai, { fetch: options.fetch }),
    maxRetries: config.ai.maxRetries,
    totalTimeoutMs: config.ai.totalTimeoutMs,
    retry: options.retry,
  });
}
