import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  generateText,
  jsonSchema,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  zodSchema,
  type JSONSchema7,
  type LanguageModel,
  type ModelMessage,
} from 'ai';
import type { z } from 'zod';
import type { Config } from '../config.ts';

/**
 * The only module that imports an LLM SDK. Everything above it (prompts, schemas, the retry
 * policy, confidence) talks to `LanguageModelClient`, so swapping the SDK or adding a provider
 * touches this file alone, and the grader's policy stays testable without provider internals.
 *
 * Each `generateJson` call is exactly ONE HTTP request: the SDK's own retries are off
 * (`maxRetries: 0`) because the grader owns the retry policy (ai/llm/retry-policy.ts).
 */

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

const DEFAULT_BASE_URLS: Record<LlmProvider, string | undefined> = {
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

export type ProviderFailureKind =
  /** HTTP 429. */
  | 'rate-limited'
  /** HTTP 5xx. */
  | 'server-error'
  /** Our per-call timeout fired (or HTTP 408). */
  | 'timeout'
  /** No HTTP answer at all: refused connection, DNS, reset. */
  | 'network'
  /** Any other 4xx: bad key, unknown model, request too large. Retrying cannot help. */
  | 'rejected'
  /** The model answered, but not JSON matching the schema. */
  | 'invalid-output'
  /** The caller's signal aborted (shutdown, job cancelled). */
  | 'aborted';

/** One failed call, classified so the retry policy never has to know the SDK's error types. */
export class ProviderCallError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly details: {
      statusCode?: number;
      /** From Retry-After / retry-after-ms, when the provider sent one. */
      retryAfterMs?: number;
      /** What the model answered, for invalid-output. */
      answerText?: string;
      /** Short, human-readable schema problems, for invalid-output. */
      issues?: string[];
      usage?: TokenUsage;
      cause?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }
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

export interface LanguageModelClientOptions {
  /** Replaces global fetch (e.g. to add a proxy); tests use the real one against a real server. */
  fetch?: typeof globalThis.fetch;
}

export function createLanguageModelClient(ai: AiConfig, options: LanguageModelClientOptions = {}): LanguageModelClient {
  if (ai.provider === 'builtin') throw new Error('The built-in grader has no language model.');
  const provider = ai.provider;
  const model = resolveModelName(ai);
  const baseUrl = (ai.baseUrl ?? DEFAULT_BASE_URLS[provider] ?? '').replace(/\/+$/, '');
  const languageModel = buildLanguageModel(provider, model, ai, options);
  const timeoutMs = ai.timeoutMs;

  return {
    provider,
    model,
    baseUrl,
    acceptsImages: acceptsImages(ai),
    timeoutMs,
    describe: () => `${provider} at ${baseUrl}`,
    async generateJson<T>(request: GenerateJsonRequest<T>): Promise<GenerateJsonResult<T>> {
      const requestTimeoutMs = Math.max(1, Math.round(Math.min(timeoutMs, request.timeoutMs ?? timeoutMs)));
      const timeoutSignal = AbortSignal.timeout(requestTimeoutMs);
      const abortSignal = request.signal ? AbortSignal.any([request.signal, timeoutSignal]) : timeoutSignal;
      try {
        const result = await generateText({
          model: languageModel,
          system: request.system,
          messages: request.messages.map(toModelMessage),
          output: Output.object({ schema: toPortableSchema(request.schema), name: request.schemaName }),
          // Grading must be repeatable; the same answer should get the same suggestion.
          temperature: 0,
          maxOutputTokens: request.maxOutputTokens,
          maxRetries: 0,
          abortSignal,
        });
        return { value: result.output as T, text: result.text, usage: toTokenUsage(result.usage), wasUnwrapped: false };
      } catch (error) {
        if (request.signal?.aborted) {
          throw new ProviderCallError('aborted', 'The AI call was cancelled.', { cause: request.signal.reason });
        }
        if (timeoutSignal.aborted) {
          throw new ProviderCallError('timeout', `no answer within ${formatSeconds(requestTimeoutMs)}`, {
            cause: error,
          });
        }
        if (NoObjectGeneratedError.isInstance(error)) {
          return salvageOrReject(error.text ?? '', request.schema, toTokenUsage(error.usage), error);
        }
        if (NoOutputGeneratedError.isInstance(error)) {
          throw new ProviderCallError('invalid-output', 'the model returned no answer', {
            issues: ['the answer was empty'],
            answerText: '',
            cause: error,
          });
        }
        throw classifyCallError(error);
      }
    },
  };
}

/**
 * The JSON Schema sent to the provider keeps only what every structured-output implementation
 * accepts: types, enums, required fields, closed objects. Numeric, length and item-count limits
 * are rejected by some (OpenAI strict mode has refused minLength, older snapshots minimum/minItems;
 * Anthropic refuses numeric limits), and a 400 there would fail EVERY call, so they move into the
 * field's description. The full zod schema still validates the answer here, and a violation gets
 * the repair prompt — a limit costs at worst one extra call, never an outage.
 */
function toPortableSchema<T>(schema: z.ZodType<T>) {
  const full = zodSchema(schema);
  return jsonSchema<T>(async () => stripLimits(await full.jsonSchema) as JSONSchema7, { validate: full.validate });
}

const LIMIT_KEYWORDS: Record<string, string> = {
  minimum: 'at least',
  exclusiveMinimum: 'more than',
  maximum: 'at most',
  exclusiveMaximum: 'less than',
  minLength: 'length at least',
  maxLength: 'length at most',
  minItems: 'at least this many entries:',
  maxItems: 'at most this many entries:',
};
const DROPPED_KEYWORDS = new Set(['multipleOf', 'pattern', 'format', 'uniqueItems']);

function stripLimits(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripLimits);
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  const limits: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key in LIMIT_KEYWORDS) limits.push(`${LIMIT_KEYWORDS[key]} ${String(value)}`);
    else if (DROPPED_KEYWORDS.has(key)) continue;
    else if (key === 'properties' && value !== null && typeof value === 'object') {
      // Property NAMES are data here, not keywords: a field called "format" must survive.
      result[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, stripLimits(property)]));
    } else result[key] = key === 'enum' || key === 'required' || key === 'const' ? value : stripLimits(value);
  }
  if (limits.length > 0) {
    const description = typeof result.description === 'string' ? `${result.description} ` : '';
    result.description = `${description}(${limits.join(', ')})`;
  }
  return result;
}

function buildLanguageModel(
  provider: LlmProvider,
  model: string,
  ai: AiConfig,
  options: LanguageModelClientOptions,
): LanguageModel {
  switch (provider) {
    case 'openai':
      // `.chat`: the Chat Completions API, which OpenAI-compatible gateways also speak; the
      // default `openai(model)` would call the Responses API.
      return createOpenAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch: options.fetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch: options.fetch })(model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: ai.baseUrl ?? '',
        apiKey: ai.apiKey,
        fetch: options.fetch,
        // Ollama (>= 0.5), vLLM, llama.cpp server and LM Studio all accept response_format
        // json_schema, and LM Studio rejects the json_object fallback; the prompt repeats the shape
        // for servers that ignore the schema.
        supportsStructuredOutputs: true,
      }).chatModel(model);
  }
}

function toModelMessage(message: LlmMessage): ModelMessage {
  if (message.role === 'assistant') {
    const text = typeof message.content === 'string' ? message.content : message.content.map(partText).join('');
    return { role: 'assistant', content: text };
  }
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  return {
    role: 'user',
    content: message.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image' as const, image: new Uint8Array(part.png), mediaType: 'image/png' },
    ),
  };
}

function partText(part: LlmContentPart): string {
  return part.type === 'text' ? part.text : '';
}

function toTokenUsage(usage: { inputTokens?: number; outputTokens?: number } | undefined): TokenUsage {
  return { inputTokens: usage?.inputTokens ?? null, outputTokens: usage?.outputTokens ?? null };
}

/**
 * Models behind json_object-only servers like to wrap JSON in ```json fences or a sentence. When
 * the object inside is valid we take it rather than pay for a repair call; anything else is an
 * invalid output with the schema's own complaints, which the repair prompt quotes back.
 */
function salvageOrReject<T>(
  text: string,
  schema: z.ZodType<T>,
  usage: TokenUsage,
  cause: unknown,
): GenerateJsonResult<T> {
  const parsed = parseJsonLoosely(text);
  if (parsed === undefined) {
    throw new ProviderCallError('invalid-output', 'the answer is not valid JSON', {
      issues: ['the answer is not a valid JSON object'],
      answerText: text,
      usage,
      cause,
    });
  }
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { value: checked.data, text, usage, wasUnwrapped: parsed.wasUnwrapped };
  const issues = checked.error.issues.slice(0, 8).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'answer';
    const said = `${where}: ${issue.message}`;
    // Issues are quoted in the repair prompt and in the error a user reads: short, whatever the answer was.
    return said.length > 300 ? `${said.slice(0, 300)}…` : said;
  });
  throw new ProviderCallError('invalid-output', `the answer does not match the format (${issues[0]})`, {
    issues,
    answerText: text,
    usage,
    cause,
  });
}

function parseJsonLoosely(text: string): { value: unknown; wasUnwrapped: boolean } | undefined {
  try {
    return { value: JSON.parse(text), wasUnwrapped: false };
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return undefined;
    try {
      return { value: JSON.parse(text.slice(start, end + 1)), wasUnwrapped: true };
    } catch {
      return undefined;
    }
  }
}

function classifyCallError(error: unknown): ProviderCallError {
  if (APICallError.isInstance(error)) {
    const statusCode = error.statusCode;
    const detail = providerMessage(error);
    if (statusCode === undefined) {
      return new ProviderCallError('network', `could not be reached (${networkCause(error)})`, { cause: error });
    }
    if (statusCode === 429) {
      return new ProviderCallError('rate-limited', `HTTP 429 Too Many Requests${detail}`, {
        statusCode,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        cause: error,
      });
    }
    if (statusCode === 408)
      return new ProviderCallError('timeout', `HTTP 408 Request Timeout${detail}`, { statusCode, cause: error });
    if (statusCode >= 500) {
      return new ProviderCallError('server-error', `HTTP ${statusCode}${detail}`, {
        statusCode,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        cause: error,
      });
    }
    return new ProviderCallError('rejected', `HTTP ${statusCode}${detail}`, { statusCode, cause: error });
  }
  // fetch failures the SDK did not wrap (it wraps most as APICallError without a status).
  if (error instanceof TypeError) {
    return new ProviderCallError('network', `could not be reached (${networkCause(error)})`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderCallError('rejected', message, { cause: error });
}

/** The provider's own explanation, shortened: " (Incorrect API key provided)". */
function providerMessage(error: APICallError): string {
  const raw = error.message?.trim();
  if (!raw || /^(Bad Request|Unauthorized|Forbidden|Too Many Requests|Internal Server Error|Not Found)$/i.test(raw)) {
    return '';
  }
  return `: ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`;
}

function networkCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Retry-After as seconds or an HTTP date, or OpenAI's retry-after-ms. */
export function parseRetryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const milliseconds = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const raw = lower['retry-after'];
  if (!raw) return undefined;
  const seconds = Number(raw.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
