import type { Config } from '../../config.ts';

/** Which LLM provider is configured, and what it defaults to: its model, its URL, whether it reads images. */

export type AiConfig = Config['ai'];
export type LlmProvider = 'openai' | 'anthropic' | 'openai-compatible';

export const DEFAULT_MODELS: Record<LlmProvider, string | undefined> = {
  openai: 'gpt-4o-mini',
  // Claude 3.5 Haiku is retired and no longer in the SDK's model list; Haiku 4.5 is the current
  // small model and reads images.
  anthropic: 'claude-haiku-4-5',
  // A local server serves whatever it loaded; config requires AI_MODEL for it.
  'openai-compatible': undefined,
};

export const DEFAULT_BASE_URLS: Record<LlmProvider, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  'openai-compatible': undefined,
};

/**
 * Hosted models we default to read images; local models mostly do not (a text-only model behind
 * Ollama rejects image parts with a 400), so openai-compatible must opt in with AI_VISION=true.
 */
const DEFAULT_VISION: Record<LlmProvider, boolean> = {
  openai: true,
  anthropic: true,
  'openai-compatible': false,
};

export function resolveModelName(ai: AiConfig): string {
  if (ai.provider === 'builtin') return 'builtin';
  const model = ai.model ?? DEFAULT_MODELS[ai.provider];
  if (!model) throw new Error(`AI_MODEL is required when AI_PROVIDER=${ai.provider}`);
  return model;
}

export function acceptsImages(ai: AiConfig): boolean {
  if (ai.provider === 'builtin') return false;
  return ai.vision ?? DEFAULT_VISION[ai.provider];
}
