import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse, stubNetwork } from '../test/network.ts';
import { createApiClient, EARLY_READ_KEEP_MS } from './api-client.ts';

const Item = z.object({ name: z.string() });

describe('early requests (decision 0099)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a request sent early is answered to the next call of the same method and path, once', async () => {
    let answers = 0;
    const sent = stubNetwork({
      'GET /api/things/1': () => jsonResponse(200, { name: `answer ${(answers += 1)}` }),
      'POST /api/things/1/grade': () => jsonResponse(200, { name: 'graded' }),
    });
    const client = createApiClient('/api');
    client.setToken('token-a');
    client.startEarly('GET', '/things/1');
    client.startEarly('POST', '/things/1/grade');
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/things/1',
      'POST /api/things/1/grade',
    ]);
    expect(sent[0]!.headers.get('Authorization')).toBe('Bearer token-a');

    expect(await client.get('/things/1', Item)).toEqual({ name: 'answer 1' });
    expect(await client.post('/things/1/grade', undefined, Item)).toEqual({ name: 'graded' });
    expect(sent).toHaveLength(2);
    // Taken once: the next call asks the server again.
    expect(await client.get('/things/1', Item)).toEqual({ name: 'answer 2' });
    expect(sent).toHaveLength(3);
  });

  it('is checked against the contract as any answer, and a refusal is the caller’s error', async () => {
    stubNetwork({
      'GET /api/things/1': () => jsonResponse(200, { unexpected: true }),
      'GET /api/things/2': () => jsonResponse(404, { code: 'NOT_FOUND', message: 'No such thing.' }),
    });
    const client = createApiClient('/api');
    client.startEarly('GET', '/things/1');
    client.startEarly('GET', '/things/2');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(client.get('/things/1', Item)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    await expect(client.get('/things/2', Item)).rejects.toMatchObject({ status: 404, serverMessage: 'No such thing.' });
  });

  it('is not taken by a call with a body, with another token, or once older than EARLY_READ_KEEP_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sent = stubNetwork({
      'GET /api/things/1': () => jsonResponse(200, { name: 'thing' }),
      'POST /api/things/1': () => jsonResponse(200, { name: 'posted' }),
    });
    const client = createApiClient('/api');
    client.setToken('token-a');

    client.startEarly('POST', '/things/1');
    await client.post('/things/1', { some: 'body' }, Item);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toEqual({ some: 'body' });

    client.startEarly('GET', '/things/1');
    client.setToken('token-b');
    await client.get('/things/1', Item);
    expect(sent).toHaveLength(4);
    expect(sent[3]!.headers.get('Authorization')).toBe('Bearer token-b');

    client.startEarly('GET', '/things/1');
    vi.setSystemTime(Date.now() + EARLY_READ_KEEP_MS + 1);
    await client.get('/things/1', Item);
    expect(sent).toHaveLength(6);
  });
});

describe('reads the page sent before the app ran (decision 0109)', () => {
  afterEach(() => {
    window.gradewiseEarlyReads = undefined;
  });

  const sentByPage = (token: string) => [
    {
      method: 'GET',
      path: '/things/1',
      token,
      sentAt: Date.now(),
      response: Promise.resolve(jsonResponse(200, { name: 'sent by the page' })),
    },
  ];

  it('are taken by the same method, path and token, once, and the route does not send them again', async () => {
    const sent = stubNetwork({ 'GET /api/things/1': () => jsonResponse(200, { name: 'asked again' }) });
    window.gradewiseEarlyReads = sentByPage('token-a');
    const client = createApiClient('/api');
    client.setToken('token-a');
    client.startEarly('GET', '/things/1');
    expect(sent).toHaveLength(0);
    expect(await client.get('/things/1', Item)).toEqual({ name: 'sent by the page' });
    expect(await client.get('/things/1', Item)).toEqual({ name: 'asked again' });
    expect(sent).toHaveLength(1);
  });

  it('are not taken with another token', async () => {
    const sent = stubNetwork({ 'GET /api/things/1': () => jsonResponse(200, { name: 'asked again' }) });
    window.gradewiseEarlyReads = sentByPage('token-a');
    const client = createApiClient('/api');
    client.setToken('token-b');
    client.startEarly('GET', '/things/1');
    expect(sent).toHaveLength(1);
    expect(await client.get('/things/1', Item)).toEqual({ name: 'asked again' });
    expect(sent[0]!.headers.get('Authorization')).toBe('Bearer token-b');
  });
});
