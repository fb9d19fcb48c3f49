import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server speaking the OpenAI-compatible Chat Completions protocol, for tests and
 * benchmarks (no vitest imports: bench/ scripts use it too). Each test scripts what the "model"
 * does next — answer given JSON, answer garbage, 429 with Retry-After, 500, hang until the client
 * gives up, answer after a fixed latency — and reads back every request it received.
 *
 * Unscripted calls get the default behaviour: "smart", a valid answer derived from the JSON schema
 * the client sent (one judgement per rubric item id with no deduction; three rubric items).
 *
 *   const fake = await startFakeLlmServer();
 *   fake.enqueue({ kind: 'status', status: 429, retryAfterSeconds: 2 }, { kind: 'json', content: {...} });
 *   ... AI_BASE_URL = fake.baseUrl (ends in /v1) ...
 *   fake.chatRequests()  // what the grader sent
 *   await fake.close();
 */

export type FakeBehaviour =
  /** Answer with this content: an object is sent as its JSON text, a string as is. */
  | { kind: 'json'; content: unknown; latencyMs?: number; usage?: { promptTokens: number; completionTokens: number } }
  /** Answer with text that is not JSON. */
  | { kind: 'malformed'; text?: string }
  /** Answer with an HTTP error (429, 500, 401, ...). */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; message?: string }
  /** Never answer; the request stays open until the client aborts or the server closes. */
  | { kind: 'hang' }
  /**
   * A valid answer built from the request's JSON schema, optionally after a fixed latency, and
   * not before `until` settles (a test holds calls open, then lets them all answer).
   */
  | { kind: 'smart'; latencyMs?: number; until?: Promise<unknown> };

/**
 * A JSON schema as a client sends it in `response_format`: only the keywords this fake and the
 * tests read are named.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  [keyword: string]: unknown;
}

/** One part of a chat message's content (OpenAI Chat Completions). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ChatContentPart[];
}

/**
 * The body of a Chat Completions request, as the AI SDK's OpenAI and OpenAI-compatible providers
 * send it. The app makes one kind of call (`generateJson` in ai/provider/create-client.ts), which
 * always asks for a JSON object by schema, so `response_format` is always there.
 */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format: { type: 'json_schema'; json_schema: { name: string; schema: JsonSchema; strict?: boolean } };
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. /v1/chat/completions. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it was not JSON; null without a body. */
  body: unknown;
  behaviour: FakeBehaviour['kind'] | 'none';
  /**
   * performance.now() when the whole request had arrived, and when the answer was written (or the
   * client gave up): the fake's own share of a call, timer lateness included (bench/pipeline.ts).
   */
  receivedAt: number;
  answeredAt?: number;
}

/** A request to POST /v1/chat/completions, whose JSON body the client built as a chat request. */
export interface ChatRequest extends RecordedRequest {
  body: ChatRequestBody;
}

export interface FakeLlmServer {
  /** http://127.0.0.1:<port>/v1 — what AI_BASE_URL should be. */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  enqueue(...behaviours: FakeBehaviour[]): void;
  setDefaultBehaviour(behaviour: FakeBehaviour): void;
  /** Requests to POST /v1/chat/completions only. */
  chatRequests(): ChatRequest[];
  /** Resolves once at least `count` chat requests arrived (event-driven, no polling). */
  waitForChatRequests(count: number): Promise<void>;
  /** Chat requests received and not yet answered (or given up by the client) now. */
  chatRequestsInFlight(): number;
  /** The most chat requests in flight at once since the start (or the last reset). */
  mostChatRequestsInFlight(): number;
  /** Forget requests and scripted behaviours (between tests). */
  reset(): void;
  close(): Promise<void>;
}

export const FAKE_MODEL_ID = 'fake-grader-1';

export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: FakeBehaviour[] = [];
  let defaultBehaviour: FakeBehaviour = { kind: 'smart' };
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let completionCounter = 0;
  let inFlight = 0;
  let mostInFlight = 0;

  const chatRequests = () => requests.filter(isChatRequest);
  const notifyWaiters = () => {
    const received = chatRequests().length;
    for (const waiter of [...waiters]) {
      if (received >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
        behaviour: 'none',
        receivedAt: performance.now(),
      };
      requests.push(record);

      if (req.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: FAKE_MODEL_ID, object: 'model', created: 0, owned_by: 'fake' }],
        });
        return;
      }
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `No route ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      const behaviour = queue.shift() ?? defaultBehaviour;
      record.behaviour = behaviour.kind;
      // In flight until the answer is sent or the connection closes (a client that gave up).
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      res.once('close', () => {
        inFlight -= 1;
        record.answeredAt = performance.now();
      });
      notifyWaiters();
      // Read as a chat request; a body that is not (text, none) only lacks the fields read with ?.
      respondToChat(behaviour, body as ChatRequestBody | null, req, res, () => `chatcmpl-fake-${++completionCounter}`);
    });
  });

  // Hosted providers keep an idle connection open for a minute or more; Node's default of 5 s let a
  // loaded machine's client reuse a connection just as this server closed it (UND_ERR_SOCKET), which
  // a test that allows no retry (AI_MAX_RETRIES=0) reported as a failed grade.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue: (...behaviours) => queue.push(...behaviours),
    setDefaultBehaviour: (behaviour) => {
      defaultBehaviour = behaviour;
    },
    chatRequests,
    waitForChatRequests: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        notifyWaiters();
      }),
    chatRequestsInFlight: () => inFlight,
    mostChatRequestsInFlight: () => mostInFlight,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      mostInFlight = inFlight;
      defaultBehaviour = { kind: 'smart' };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging requests would keep close() waiting forever.
        server.closeAllConnections();
      }),
  };
}

/** A POST to the chat endpoint; its clients (the AI SDK's providers) send a chat request body. */
function isChatRequest(request: RecordedRequest): request is ChatRequest {
  return request.method === 'POST' && request.path.endsWith('/chat/completions');
}

function respondToChat(
  behaviour: FakeBehaviour,
  body: ChatRequestBody | null,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  nextId: () => string,
): void {
  switch (behaviour.kind) {
    case 'hang':
      // Hold the socket open; the client's abort closes it.
      return;
    case 'status': {
      const headers: Record<string, string> = {};
      if (behaviour.retryAfterSeconds !== undefined) headers['retry-after'] = String(behaviour.retryAfterSeconds);
      sendJson(
        res,
        behaviour.status,
        {
          error: {
            message: behaviour.message ?? http.STATUS_CODES[behaviour.status] ?? 'Error',
            type: 'fake_error',
            code: behaviour.status,
          },
        },
        headers,
      );
      return;
    }
    case 'malformed':
      sendCompletion(res, body, behaviour.text ?? '{"items": [ this is not JSON', nextId());
      return;
    case 'json': {
      const content = typeof behaviour.content === 'string' ? behaviour.content : JSON.stringify(behaviour.content);
      afterLatency(behaviour.latencyMs, req, () => sendCompletion(res, body, content, nextId(), behaviour.usage));
      return;
    }
    case 'smart': {
      const answer = () =>
        afterLatency(behaviour.latencyMs, req, () =>
          sendCompletion(res, body, JSON.stringify(smartAnswer(body)), nextId()),
        );
      // A client that gave up while the call was held gets nothing.
      const answerUnlessGone = () => {
        if (!res.destroyed) answer();
      };
      if (!behaviour.until) answer();
      else behaviour.until.then(answerUnlessGone, answerUnlessGone);
      return;
    }
  }
}

function afterLatency(latencyMs: number | undefined, req: http.IncomingMessage, send: () => void): void {
  if (!latencyMs) {
    send();
    return;
  }
  // A client that gives up before the latency has passed gets nothing. The listener is removed
  // once the answer is sent, so keep-alive sockets serving many requests never pile them up.
  const cancel = () => clearTimeout(timer);
  const timer = setTimeout(() => {
    req.socket.off('close', cancel);
    send();
  }, latencyMs);
  req.socket.once('close', cancel);
}

function sendCompletion(
  res: http.ServerResponse,
  body: ChatRequestBody | null,
  content: string,
  id: string,
  usage?: { promptTokens: number; completionTokens: number },
): void {
  const promptTokens = usage?.promptTokens ?? estimateTokens(JSON.stringify(body?.messages ?? ''));
  const completionTokens = usage?.completionTokens ?? estimateTokens(content);
  const model = typeof body?.model === 'string' ? body.model : FAKE_MODEL_ID;
  const usageBody = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };

  if (body?.stream === true) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: object, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    const half = Math.ceil(content.length / 2);
    res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: content.slice(0, half) }, null))}\n\n`);
    res.write(`data: ${JSON.stringify(chunk({ content: content.slice(half) }, null))}\n\n`);
    res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
    if (body?.stream_options?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: usageBody })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
    return;
  }

  sendJson(res, 200, {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: usageBody,
  });
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Deterministic stand-in for a tokenizer: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A valid answer for whatever JSON schema the request carried (response_format json_schema). */
export function smartAnswer(body: ChatRequestBody | null): unknown {
  const schema = body?.response_format?.json_schema?.schema;
  if (!schema) return { answer: 'ok' };
  return exampleFor(schema, '', 0);
}

function exampleFor(schema: JsonSchema | undefined, name: string, index: number): unknown {
  if (schema === null || typeof schema !== 'object') return null;
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return exampleFor(schema.anyOf[0], name, index);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        result[key] = exampleFor(property, key, index);
      return result;
    }
    case 'array':
      return exampleArray(schema, name);
    case 'string':
      if (name === 'comment') return 'Meets this criterion.';
      if (name === 'criterion') return `States step ${index + 1} of the solution correctly.`;
      if (name === 'guidance') return 'Full credit when correct and justified; partial credit for a minor slip.';
      return '';
    case 'number':
    case 'integer':
      return exampleNumber(schema, name, index);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/**
 * Arrays of objects with an enum property (rubric item ids) get one element per enum value, so a
 * grading answer judges every item; other arrays get three elements (within minItems/maxItems).
 */
function exampleArray(schema: JsonSchema, name: string): unknown[] {
  const items = schema.items ?? {};
  const enumProperty = Object.entries(items.properties ?? {}).find(([, property]) => Array.isArray(property?.enum));
  if (enumProperty) {
    const [key, property] = enumProperty;
    return (property.enum ?? []).map((value, index) => ({
      ...(exampleFor(items, name, index) as object),
      [key]: value,
    }));
  }
  const count = Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3));
  return Array.from({ length: count }, (_, index) => exampleFor(items, name, index));
}

function exampleNumber(schema: JsonSchema, name: string, index: number): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
  const wanted = name === 'confidence' ? 80 : name === 'pointsDeducted' ? min : index + 1;
  return Math.min(max, Math.max(min, wanted));
}

/** The text of a chat message, whatever its content shape (string or parts). */
export function messageText(message: ChatMessage | undefined): string {
  if (typeof message?.content === 'string') return message.content;
  if (Array.isArray(message?.content)) {
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
  return '';
}

/** Data URLs of the image parts of a recorded chat request. */
export function imageUrls(request: ChatRequest): string[] {
  return request.body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.type === 'image_url' ? [String(part.image_url.url)] : []))
      : [],
  );
}
