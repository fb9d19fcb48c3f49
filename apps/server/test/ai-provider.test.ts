import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGrader } from '../src/ai/create-grader.ts';
import { parseRetryAfterMs } from '../src/ai/provider/call-errors.ts';
import { createLanguageModelClient } from '../src/ai/provider/create-client.ts';
import { acceptsImages, resolveModelName } from '../src/ai/provider/settings.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';

/** Provider wiring from configuration, against a real HTTP server playing the provider. */

let fake: FakeLlmServer;

beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

const Pong = z.strictObject({ reply: z.string() });

async function askOnce(env: Record<string, string>) {
  const client = createLanguageModelClient(loadConfig(env).ai);
  fake.enqueue({ kind: 'json', content: { reply: 'pong' } });
  const result = await client.generateJson({
    system: 'Answer with JSON.',
    messages: [{ role: 'user', content: 'ping' }],
    schema: Pong,
    schemaName: 'pong',
    maxOutputTokens: 100,
  });
  return { client, result };
}

describe('AI provider from configuration', () => {
  it('openai-compatible sends Chat Completions to the configured base URL with the configured model and key', async () => {
    const { client, result } = await askOnce({
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: 'llama3.1:8b',
      AI_API_KEY: 'local-key',
    });

    expect(result.value).toEqual({ reply: 'pong' });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const [request] = fake.chatRequests();
    expect(fake.requests).toHaveLength(1);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body.model).toBe('llama3.1:8b');
    expect(request?.headers.authorization).toBe('Bearer local-key');
    expect(request?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'pong' } });
    expect(client.describe()).toBe(`openai-compatible at ${fake.baseUrl}`);
    expect(client.acceptsImages).toBe(false);
  });

  it('openai uses the Chat Completions API (not Responses), so an OpenAI-style gateway works too', async () => {
    const { client } = await askOnce({ AI_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', AI_BASE_URL: fake.baseUrl });

    expect(fake.chatRequests()).toHaveLength(1);
    expect(fake.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
    expect(fake.chatRequests()[0]?.body.model).toBe('gpt-4o-mini');
    expect(fake.chatRequests()[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(client.model).toBe('gpt-4o-mini');
    expect(client.acceptsImages).toBe(true);
  });

  it('defaults per provider: model, endpoint and image support; AI_VISION overrides', () => {
    const anthropic = loadConfig({ AI_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'key' }).ai;
    const client = createLanguageModelClient(anthropic);
    expect(client.model).toBe('claude-haiku-4-5');
    expect(client.describe()).toBe('anthropic at https://api.anthropic.com/v1');
    expect(client.acceptsImages).toBe(true);

    expect(
      resolveModelName(loadConfig({ AI_PROVIDER: 'openai', OPENAI_API_KEY: 'k', AI_MODEL: 'gpt-4.1-mini' }).ai),
    ).toBe('gpt-4.1-mini');
    expect(acceptsImages(loadConfig({ AI_PROVIDER: 'openai', OPENAI_API_KEY: 'k', AI_VISION: 'false' }).ai)).toBe(
      false,
    );
    expect(
      acceptsImages(
        loadConfig({
          AI_PROVIDER: 'openai-compatible',
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: 'llava',
          AI_VISION: 'true',
        }).ai,
      ),
    ).toBe(true);
    expect(acceptsImages(loadConfig({}).ai)).toBe(false);
    expect(() => loadConfig({ AI_VISION: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ AI_VISION: 'maybe' })).toThrow(/AI_VISION: must be true or false/);
  });

  it('reads Retry-After as seconds, as an HTTP date, and as retry-after-ms', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'Retry-After': 'Tue, 01 Jan 2030 00:00:10 GMT' }, now)).toBe(10_000);
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '3' }, now)).toBe(250);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('createGrader', () => {
  it('returns the built-in grader by default, without contacting anything', () => {
    expect(createGrader(loadConfig({})).kind).toBe('builtin');
    expect(createGrader(loadConfig({ AI_PROVIDER: 'builtin' })).kind).toBe('builtin');
  });

  it('returns an LLM grader on the configured provider otherwise', async () => {
    const grader = createGrader(
      loadConfig({ AI_PROVIDER: 'openai-compatible', AI_BASE_URL: fake.baseUrl, AI_MODEL: 'fake-grader-1' }),
    );
    expect(grader.kind).toBe('llm');
    const call = await grader.requestRubric({ questionText: 'Solve 2x = 4.', solutionText: 'x = 2', points: 5 });
    expect(call.meta).toMatchObject({ graderKind: 'llm', provider: 'openai-compatible', model: 'fake-grader-1' });
    expect(
      grader
        .interpretRubric(call.rawOutput, { questionText: '', solutionText: '', points: 5 })
        .items.reduce((sum, item) => sum + item.points, 0),
    ).toBe(5);
    expect(fake.chatRequests()).toHaveLength(1);
    // No key configured: a local server needs none, and none is sent.
    expect(fake.chatRequests()[0]?.headers.authorization).toBeUndefined();
  });
});

describe('fake LLM server', () => {
  it('lists its model and streams a completion as server-sent events when asked', async () => {
    const models: unknown = await fetch(`${fake.baseUrl}/models`).then((response) => response.json());
    expect(models).toMatchObject({ data: [{ id: 'fake-grader-1' }] });

    fake.enqueue({ kind: 'json', content: { reply: 'streamed' } });
    const response = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => block.slice('data: '.length));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(JSON.parse(content)).toEqual({ reply: 'streamed' });
    expect(chunks.at(-1).usage.total_tokens).toBeGreaterThan(0);
  });
});
