import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * SIGTERM on the real server process (main.ts, decision 0081): it stops taking requests at once,
 * finishes the one in flight and exits 0; and one that cannot finish (a client that never sends
 * the rest of its body) does not hold it past SHUTDOWN_TIMEOUT_MS. The test waits on the server's
 * log lines and exit, never on time.
 */

/** A POST whose body is sent in two halves: the test decides when the request can finish. */
function heldRequest(baseUrl: string, urlPath: string, body: string) {
  const request = http.request(`${baseUrl}${urlPath}`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.once('error', reject);
    });
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { answered, finish: () => request.end(body.slice(half)) };
}

const isLine = (text: string) => (line: { msg?: unknown }) => typeof line.msg === 'string' && line.msg.startsWith(text);
const incoming = (urlPath: string) => (line: { msg?: unknown; req?: unknown }) =>
  line.msg === 'incoming request' && JSON.stringify(line.req ?? '').includes(urlPath);

describe('SIGTERM', () => {
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-stop-'));
    dataDirs.push(dataDir);
    const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_REQUESTS: 'true', ...env });
    servers.push(server);
    return { server, dataDir };
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.kill();
    for (const dir of dataDirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  it('stops taking requests, finishes the one in flight, and exits 0', async () => {
    const { server, dataDir } = await start({});
    const account = {
      name: 'Late Registrant',
      email: 'late@example.edu',
      password: 'correct-horse-battery',
      role: 'student',
    };
    const held = heldRequest(server.baseUrl, '/api/auth/register', JSON.stringify(account));
    await server.waitForLog(incoming('/api/auth/register'));

    const exited = server.stop();
    await server.waitForLog(isLine('SIGTERM received'));
    await server.waitForLog(isLine('no longer taking requests'));
    // A new connection is refused: a load balancer sends it to another process.
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();

    held.finish();
    const answer = await held.answered;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ signInNext: true });
    expect(await exited).toBe(0);
    expect(server.logs.some(isLine('stopping took longer'))).toBe(false);

    // What the request wrote was committed before the process stopped: the account signs in on the next start.
    const again = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    servers.push(again);
    const login = await fetch(`${again.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(login.status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 300_000);

  it('a request that never finishes does not hold the process past SHUTDOWN_TIMEOUT_MS', async () => {
    const { server } = await start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const held = heldRequest(
      server.baseUrl,
      '/api/auth/login',
      JSON.stringify({ email: 'a@example.edu', password: 'x' }),
    );
    await server.waitForLog(incoming('/api/auth/login'));

    const cut = expect(held.answered).rejects.toThrow('socket hang up');
    const exited = server.stop();
    // The body's second half never comes; the process exits by itself, says why, and cuts the request.
    expect(await exited).toBe(1);
    expect(server.logs.find(isLine('stopping took longer'))?.msg).toBe(
      'stopping took longer than SHUTDOWN_TIMEOUT_MS (1000 ms): exiting now; requests still open are cut, jobs still running are retried later',
    );
    await cut;
  }, 300_000);
});
