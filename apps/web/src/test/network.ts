import { vi } from 'vitest';

/** One request as the app sent it over the network boundary. */
export interface SentRequest {
  method: string;
  path: string;
  /** The query string as sent ('' when none); routes are matched on the path alone. */
  search: string;
  headers: Headers;
  body: unknown;
  /** Sent to outlive the page (fetch's keepalive: a lease given up as the page goes away). */
  keepalive: boolean;
}

export type Responder = (request: SentRequest) => Response | Promise<Response>;

/**
 * Replaces the browser's `fetch`, and nothing else: the real API client, session and screens run
 * on top of it. Requests are recorded for assertions; an unexpected request fails loudly.
 */
export function stubNetwork(routes: Record<string, Responder>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const request: SentRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      headers: new Headers(init.headers),
      body,
      keepalive: init.keepalive ?? false,
    };
    sent.push(request);
    const respond = routes[`${request.method} ${request.path}`];
    if (!respond) throw new Error(`Unexpected request in test: ${request.method} ${request.path}`);
    return respond(request);
  });
  return sent;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A response that arrives only when the test says so, to observe in-between states. */
export function deferredResponse(): { responder: Responder; respond: (response: Response) => void } {
  let respond: (response: Response) => void = () => undefined;
  const pending = new Promise<Response>((resolve) => {
    respond = resolve;
  });
  return { responder: () => pending, respond };
}

/**
 * A token shaped like the server's (header.payload.signature, base64url JSON). Only the server can
 * check the signature; the web app reads `exp` alone, which is what these tests exercise.
 */
export function tokenExpiringAt(expSeconds: number): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'user-1', tv: 0, iss: 'gradewise', exp: expSeconds })}.signature`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export const INSTRUCTOR = {
  _id: 'user-1',
  id: 'user-1',
  name: 'Ada Instructor',
  email: 'ada@example.edu',
  role: 'instructor',
} as const;

export const STUDENT = {
  _id: 'user-2',
  id: 'user-2',
  name: 'Sam Student',
  email: 'sam@example.edu',
  role: 'student',
} as const;
