import type { z } from 'zod';
import { ErrorBody, type ErrorCode } from '@gradewise/shared/errors';
import { API_BASE } from './api-paths.ts';

/** Codes the client adds for failures that never produced a server answer. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'HTTP_ERROR' | 'INVALID_RESPONSE';

/**
 * Every failed call throws this. `serverMessage` is the `message` the API sent, when it sent one;
 * screens show it, else their own fallback from the spec's error catalogue (see `messageOf`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    readonly serverMessage?: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The text to show a person for a failure: the server's message, else the screen's fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/**
 * The server said the thing does not exist or is not the caller's to see (404). Screens say "not
 * found" only then; any other failure (a server error, no network) is a failure to load, with retry.
 */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * A read worth trying again: a lost connection, a server error, a timeout or a rate limit. A refusal
 * of the request itself (a malformed id, not allowed, not there) answers the same the second time.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429 || error.status === 0;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** A plain value is sent as JSON; FormData is sent as multipart (the browser sets the boundary). */
  body?: unknown;
  signal?: AbortSignal;
  /** The request outlives the page (fetch's keepalive): for what a closing page must still say. */
  keepalive?: boolean;
}

/** The API refused the stored token (expired or revoked): the session should end. */
export type UnauthenticatedListener = (error: ApiError) => void;

export interface ApiClient {
  request<S extends z.ZodType>(method: Method, path: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  get<S extends z.ZodType>(path: string, schema: S, options?: Omit<RequestOptions, 'body'>): Promise<z.output<S>>;
  post<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<z.output<S>>;
  put<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<z.output<S>>;
  patch<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<z.output<S>>;
  delete<S extends z.ZodType>(path: string, schema: S, options?: Omit<RequestOptions, 'body'>): Promise<z.output<S>>;
  /**
   * Sends a GET or a body-less POST now, before the code that reads it has arrived; the next
   * `request` of the same method and path, within EARLY_READ_KEEP_MS and with the same token, takes
   * its answer instead of asking again, and checks it against its contract as usual (decision 0099).
   */
  startEarly(method: 'GET' | 'POST', path: string): void;
  /** The bearer token sent with every request from now on; null stops sending one. */
  setToken(token: string | null): void;
  onUnauthenticated(listener: UnauthenticatedListener): () => void;
}

/**
 * A typed fetch client. Responses are parsed with the shared zod contracts, so a screen never
 * renders a shape the server did not promise. `fetch` is looked up at call time, which keeps the
 * network boundary the only thing tests replace.
 */
export function createApiClient(baseUrl = '/api'): ApiClient {
  let token: string | null = null;
  const unauthenticatedListeners = new Set<UnauthenticatedListener>();
  /** Requests sent by startEarly, not yet taken, by method and path. */
  const early = new Map<string, { response: Promise<Response>; token: string | null; sentAt: number }>();

  function send(method: Method, path: string, sentToken: string | null, options: RequestOptions): Promise<Response> {
    const headers = new Headers({ Accept: 'application/json' });
    if (sentToken) headers.set('Authorization', `Bearer ${sentToken}`);
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    return fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body,
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  }

  /**
   * Reads the page's early script sent before the app ran (public/grading-screen-early.js, decision
   * 0109) join this client's early requests, once: taken by the same rules as its own.
   */
  function adoptPageReads() {
    const sentByPage = window.gradewiseEarlyReads;
    if (!sentByPage) return;
    window.gradewiseEarlyReads = undefined;
    for (const read of sentByPage) {
      read.response.catch(() => undefined);
      early.set(`${read.method} ${read.path}`, { response: read.response, token: read.token, sentAt: read.sentAt });
    }
  }

  /** The early request of this call, once: none with a body, another token, or once it is too old. */
  function takeEarly(method: Method, path: string, sentToken: string | null, options: RequestOptions) {
    adoptPageReads();
    const key = `${method} ${path}`;
    const found = early.get(key);
    early.delete(key);
    if (!found || options.body !== undefined || found.token !== sentToken) return undefined;
    return Date.now() - found.sentAt <= EARLY_READ_KEEP_MS ? found.response : undefined;
  }

  async function request<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S,
    options: RequestOptions = {},
  ): Promise<z.output<S>> {
    const sentToken = token;
    let response: Response;
    try {
      response = await (takeEarly(method, path, sentToken, options) ?? send(method, path, sentToken, options));
    } catch (error) {
      // Cancellation is not a failure to report; let the caller (TanStack Query) see it as is.
      if (options.signal?.aborted) throw error;
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the Gradewise server.');
    }

    if (!response.ok) {
      const error = await toApiError(response);
      const isSessionRefused = error.code === 'UNAUTHENTICATED' || error.code === 'TOKEN_EXPIRED';
      // Only a refusal of the token we sent ends the session; a wrong password on login does not.
      if (sentToken && sentToken === token && isSessionRefused) {
        for (const listener of unauthenticatedListeners) listener(error);
      }
      throw error;
    }

    const payload = response.status === 204 ? undefined : await readJson(response);
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      console.error(`Unexpected response from ${method} ${path}`, parsed.error.issues);
      throw new ApiError(response.status, 'INVALID_RESPONSE', 'The server sent an unexpected response.');
    }
    return parsed.data;
  }

  return {
    request,
    get: (path, schema, options) => request('GET', path, schema, options),
    post: (path, body, schema, options) => request('POST', path, schema, { ...options, body }),
    put: (path, body, schema, options) => request('PUT', path, schema, { ...options, body }),
    patch: (path, body, schema, options) => request('PATCH', path, schema, { ...options, body }),
    delete: (path, schema, options) => request('DELETE', path, schema, options),
    startEarly(method, path) {
      // Not again when the page's early script has just sent the same read with this token.
      adoptPageReads();
      const sent = early.get(`${method} ${path}`);
      if (sent && sent.token === token && Date.now() - sent.sentAt <= EARLY_READ_KEEP_MS) return;
      const response = send(method, path, token, {});
      // A failure is the taker's to report (request turns it into NETWORK_ERROR); untaken, nobody's.
      response.catch(() => undefined);
      early.set(`${method} ${path}`, { response, token, sentAt: Date.now() });
    },
    setToken(next) {
      token = next;
    },
    onUnauthenticated(listener) {
      unauthenticatedListeners.add(listener);
      return () => unauthenticatedListeners.delete(listener);
    },
  };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const parsed = ErrorBody.safeParse(await readJson(response).catch(() => undefined));
  if (parsed.success) {
    const { code, message, issues } = parsed.data;
    return new ApiError(response.status, code, message, message, issues);
  }
  return new ApiError(
    response.status,
    'HTTP_ERROR',
    `The server answered ${response.status} ${response.statusText}.`.trim(),
  );
}

/**
 * How long an early request's answer waits to be taken: the screen that sent it asks within a second
 * or two; past this its answer may be older than what the screen should show, and it is asked again.
 */
export const EARLY_READ_KEEP_MS = 10_000;

/**
 * A read sent by the page's early script (public/grading-screen-early.js) before the app's code
 * ran, left on `window` for the API client to take (decision 0109).
 */
export interface PageEarlyRead {
  method: string;
  path: string;
  token: string;
  sentAt: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    gradewiseEarlyReads?: PageEarlyRead[];
    /** Set once the app's code runs: the early script, if it comes later, then sends nothing. */
    gradewiseAppStarted?: boolean;
  }
}

/** The one client the web app uses; the session sets and clears its token. */
export const apiClient = createApiClient(API_BASE);
window.gradewiseAppStarted = true;

/**
 * A save refused because what it edited changed since the screen loaded it (409 CONFLICT): the
 * server's message says who saved what and when; the screen shows it and offers to reload.
 */
export function isStaleSave(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === 'CONFLICT';
}
