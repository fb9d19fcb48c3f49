import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The security headers word for word (decision 0078): security-headers.test.ts checks them against
 * `@fastify/helmet` itself, so a helmet upgrade that changes a default, or an edit of the options,
 * would pass there unseen. Here the values are the contract, on an API answer and on a page of the
 * built web app alike.
 */
const EXPECTED: Record<string, string> = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';worker-src 'self' blob:;frame-src 'self';object-src 'none';" +
    "base-uri 'self';form-action 'self';frame-ancestors 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let t: TestApp;
let site: FastifyInstance;
let distDir: string;

beforeAll(async () => {
  t = await createTestApp();
  distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-dist-'));
  await fs.writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Gradewise</title><div id="root"></div>');
  site = await buildApp(t.ctx, { serveWebApp: true, webDistDir: distDir });
  await site.ready();
});
afterAll(async () => {
  await site?.close();
  await t?.close();
  if (distDir) await fs.rm(distDir, { recursive: true, force: true });
});

describe('security header values', () => {
  it('are exactly these on an API answer, a page of the web app and a web app route', async () => {
    const responses = {
      '/api/auth/user': await t.app.inject({ method: 'GET', url: '/api/auth/user' }),
      '/': await site.inject({ method: 'GET', url: '/' }),
      '/courses/1': await site.inject({ method: 'GET', url: '/courses/1' }),
    };
    for (const [url, response] of Object.entries(responses)) {
      for (const [name, value] of Object.entries(EXPECTED)) {
        expect(response.headers[name], `${name} on ${url}`).toBe(value);
      }
      expect(response.headers['content-security-policy-report-only']).toBeUndefined();
    }
  });
});
