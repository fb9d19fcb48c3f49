import type { z } from 'zod';
import type { LlmProvider } from './settings.ts';

/**
 * What the grader talks to: one JSON-answering request at a time, whatever the SDK or provider.
 * Prompts, output schemas, the retry policy and confidence depend on this, never on an SDK.
 */

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export type LlmContentPart = { type: 'text'; text: string } | { type: 'image'; png: Buffer };

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string | LlmContentPart[];
}

export interface GenerateJsonRequest<T> {
  system: string;
  messages: LlmMessage[];
  schema: z.ZodType<T>;
  /** Shown to providers that name structured outputs (OpenAI json_schema name). */
  schemaName: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** This request's timeout when shorter than the client's (what is left of a call's total budget). */
  timeoutMs?: number;
}

export interface GenerateJsonResult<T> {
  value: T;
  /** The text the model answered, for the record. */
  text: string;
  usage: TokenUsage;
  /** True when the JSON had to be dug out of prose or a code fence. */
  wasUnwrapped: boolean;
}

export interface LanguageModelClient {
  readonly provider: LlmProvider;
  readonly model: string;
  /** The base URL requests go to (as configured, or the provider's public API). */
  readonly baseUrl: string;
  readonly acceptsImages: boolean;
  readonly timeoutMs: number;
  /** Names the endpoint in error messages: "openai-compatible at http://localhost:11434/v1". */
  describe(): string;
  /** One request; throws ProviderCallError. */
  generateJson<T>(request: GenerateJsonRequest<T>): Promise<GenerateJsonResult<T>>;
}
