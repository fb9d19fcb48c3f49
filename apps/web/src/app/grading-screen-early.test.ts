import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchPath } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { earlyStartTags } from '../../build/grading-screen-files.ts';
import { jsonResponse, stubNetwork } from '../test/network.ts';

// Decision 0109: public/grading-screen-early.js asks for the grading screen's files and sends its
// first reads as the page starts, on a grading screen's address only, from the lists the build
// writes into index.html (build/grading-screen-files.ts).
const SCRIPT = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../public/grading-screen-early.js'),
  'utf8',
);
const FILES = ['/assets/grading-frame-a.js', '/assets/grading-dialog-b.js'];
const FONTS = ['/assets/roboto-latin-500-normal-c.woff2'];
/** The grading screen's route in app/router.tsx. */
const GRADING_ROUTE = '/assignments/:assignmentId/questions/:questionId/grade/:submissionId';

function runAt(address: string, withList = true): string[] {
  // What the build writes into index.html (the script element is not run by innerHTML).
  document.head.innerHTML = withList ? earlyStartTags(FILES, FONTS) : '';
  window.history.replaceState(null, '', address);
  // The page runs it as a classic script; here it runs as the same text.
  new Function(SCRIPT)();
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
    link.getAttribute('href')!,
  );
}

afterEach(() => {
  document.head.innerHTML = '';
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
  window.gradewiseEarlyReads = undefined;
  window.gradewiseAppStarted = undefined;
});

describe('the grading screen’s files asked for as the page starts', () => {
  it('adds a module preload of each listed file on a grading screen’s address', () => {
    expect(runAt('/assignments/a1/questions/q1/grade/s1?queue=1')).toEqual(FILES);
  });

  it('asks for the title’s font on a grading screen’s address, as the font rules will (CORS mode), and nowhere else', () => {
    const fontPreloads = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].map((link) => ({
        href: link.getAttribute('href'),
        as: link.getAttribute('as'),
        type: link.getAttribute('type'),
        crossOrigin: link.getAttribute('crossorigin'),
      }));
    runAt('/assignments/a1/questions/q1/grade/s1');
    expect(fontPreloads()).toEqual([{ href: FONTS[0], as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' }]);
    runAt('/assignments/a1/questions/q1');
    expect(fontPreloads()).toEqual([]);
  });

  it('adds nothing on any other page, nor without the build’s list', () => {
    for (const address of [
      '/',
      '/courses',
      '/assignments/a1/questions/q1',
      '/assignments/a1/questions/q1/grade/s1/report',
    ])
      expect(runAt(address), address).toEqual([]);
    expect(runAt('/assignments/a1/questions/q1/grade/s1', false)).toEqual([]);
  });

  it('takes for a grading screen exactly the addresses the route table does', () => {
    const addresses = [
      '/assignments/a1/questions/q1/grade/s1',
      '/assignments/a1/questions/q1/grade/s1/',
      '/assignments/a1/questions/q1/grade/s1/report',
      '/assignments/a1/questions/q1/grade',
      '/assignments/a1/questions/q1/statistics',
      '/courses/c1/grade/s1',
    ];
    for (const address of addresses)
      expect(runAt(address).length > 0, address).toBe(matchPath(GRADING_ROUTE, address) !== null);
  });

  it('sends the screen’s first reads with the stored session, as the API client sends them, and leaves them for it', async () => {
    const sent = stubNetwork({
      'GET /api/auth/user': () => jsonResponse(200, { user: true }),
      'POST /api/assignments/a%201/questions/q1/grade/s1': () => jsonResponse(200, { posted: true }),
      'GET /api/assignments/a%201/questions/q1': () => jsonResponse(200, { read: true }),
      'GET /api/assignments/a%201/questions/q1/answer-groups/of/s1': () => jsonResponse(200, { group: null }),
      'GET /api/assignments/a%201/questions/q1/review-queue': () => jsonResponse(200, { queue: true }),
    });
    window.localStorage.setItem('token', 'token-a');
    runAt('/assignments/a%201/questions/q1/grade/s1?queue=1');
    const expected = [
      'GET /auth/user',
      'POST /assignments/a%201/questions/q1/grade/s1',
      'GET /assignments/a%201/questions/q1?includeSubmissions=1&submissionId=s1',
      'GET /assignments/a%201/questions/q1/answer-groups/of/s1',
      'GET /assignments/a%201/questions/q1/review-queue',
    ];
    expect(window.gradewiseEarlyReads?.map((read) => `${read.method} ${read.path}`)).toEqual(expected);
    expect(window.gradewiseEarlyReads?.every((read) => read.token === 'token-a')).toBe(true);
    await expect.poll(() => sent.length).toBe(5);
    expect(sent.map((request) => `${request.method} ${request.path}${request.search}`)).toEqual(
      expected.map((read) => read.replace(' ', ' /api')),
    );
    expect(sent.every((request) => request.headers.get('Authorization') === 'Bearer token-a')).toBe(true);
    expect(await (await window.gradewiseEarlyReads![4]!.response).json()).toEqual({ queue: true });
  });

  it('sends nothing without a session, with the measuring switch set, or once the app runs (its route sends them)', () => {
    const sent = stubNetwork({});
    runAt('/assignments/a1/questions/q1/grade/s1');
    window.localStorage.setItem('token', 'token-a');
    window.localStorage.setItem('noPrefetch', 'true');
    runAt('/assignments/a1/questions/q1/grade/s1');
    window.localStorage.removeItem('noPrefetch');
    window.gradewiseAppStarted = true;
    expect(runAt('/assignments/a1/questions/q1/grade/s1')).toEqual(FILES);
    expect(window.gradewiseEarlyReads).toBeUndefined();
    expect(sent).toEqual([]);
  });
});
