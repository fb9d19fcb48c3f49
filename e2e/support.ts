import { expect, type Page } from '@playwright/test';

/**
 * Watches a page for what must never happen in this app: a request to another origin (everything
 * is self-hosted under a strict CSP), a CSP refusal, or an uncaught exception. Call `assertClean`
 * at the end of a journey.
 */
export function watchPage(page: Page, baseURL: string) {
  const origin = new URL(baseURL).origin;
  const foreignRequests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) foreignRequests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`Uncaught: ${error.message}`));
  return {
    assertClean() {
      expect(foreignRequests, 'requests to other origins').toEqual([]);
      expect(problems, 'CSP violations or uncaught errors').toEqual([]);
    },
  };
}

/** A token shaped like the server's whose `exp` is in the past (its signature is never checked). */
export function expiredToken(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) - 3600;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'someone', tv: 0, iss: 'gradewise', exp })}.c2lnbmF0dXJl`;
}

export const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('token'));
