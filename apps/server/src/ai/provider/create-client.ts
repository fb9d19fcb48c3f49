import type * as AiSdk from 'ai';
import type { LanguageModel, ModelMessage } from 'ai';
import { classifyCallError, formatSeconds, ProviderCallError } from './call-errors.ts';
import type {
  GenerateJsonRequest,
  GenerateJsonResult,
  LanguageModelClient,
  LlmContentPart,
  LlmMessage,
  TokenUsage,
} from './language-model-client.ts';
import { toPortableSchema } from './portable-schema.ts';
import { salvageOrReject } from './salvage-json.ts';
import { acceptsImages, DEFAULT_BASE_URLS, resolveModelName, type AiConfig, type LlmProvider } from './settings.ts';

/**
 * Builds the LanguageModelClient over the AI SDK. `ai/provider/` is the only folder that imports an
 * LLM SDK; everything above it (prompts, schemas, the retry policy, confidence) talks to
 * `LanguageModelClient`, so swapping the SDK or adding a provider touches this folder alone, and
 * the grader's policy stays testable without provider internals.
 *
 * Each `generateJson` call is exactly ONE HTTP request: the SDK's own retries are off
 * (`maxRetries: 0`) because the grader owns the retry policy (ai/llm/retry-policy.ts).
 */

export interface LanguageModelClientOptions {
  /** Replaces global fetch (e.g. to add a proxy); tests use the real one against a real server. */
  fetch?: typeof globalThis.fetch;
}

export function createLanguageModelClient(ai: AiConfig, options: LanguageModelClientOptions = {}): LanguageModelClient {
  if (ai.provider === 'builtin') throw new Error('The built-in grader has no language model.');
  const provider = ai.provider;
  const model = resolveModelName(ai);
  const baseUrl = (ai.baseUrl ?? DEFAULT_BASE_URLS[provider] ?? '').replace(/\/+$/, '');
  // Built at the first call: the SDK and the provider's package are loaded only by a process that calls a model.
  let loaded: Promise<LoadedSdk> | undefined;
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
      // A failed load is not kept: the next call tries again (the client lives as long as the process).
      loaded ??= loadSdk(provider, model, ai, options).catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      const { sdk, languageModel } = await loaded;
      try {
        const result = await sdk.generateText({
          model: languageModel,
          system: request.system,
          messages: request.messages.map(toModelMessage),
          output: sdk.Output.object({ schema: toPortableSchema(request.schema, sdk), name: request.schemaName }),
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
        if (sdk.NoObjectGeneratedError.isInstance(error)) {
          return salvageOrReject(error.text ?? '', request.schema, toTokenUsage(error.usage), error);
        }
        if (sdk.NoOutputGeneratedError.isInstance(error)) {
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

interface LoadedSdk {
  sdk: typeof AiSdk;
  languageModel: LanguageModel;
}

/**
 * The AI SDK and the provider's package are imported here, not at the top: each provider package
 * brings its own copy of the SDK's utilities (about 5 MB of heap each, all three loaded at start
 * before, docs/decisions/0043-…), the SDK itself 3 MB more (decision 0047), and a server on
 * the built-in grader never needs any of them.
 */
async function loadSdk(
  provider: LlmProvider,
  model: string,
  ai: AiConfig,
  options: LanguageModelClientOptions,
): Promise<LoadedSdk> {
  const [sdk, languageModel] = await Promise.all([import('ai'), buildLanguageModel(provider, model, ai, options)]);
  return { sdk, languageModel };
}

async function buildLanguageModel(
  provider: LlmProvider,
  model: string,
  ai: AiConfig,
  options: LanguageModelClientOptions,
): Promise<LanguageModel> {
  switch (provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      // `.chat`: the Chat Completions API, which OpenAI-compatible gateways also speak; the
      // default `openai(model)` would call the Responses API.
      return createOpenAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch: options.fetch }).chat(model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch: options.fetch })(model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
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
