import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, QUESTION_ID, signInAs } from '../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, stubNetwork } from '../test/network.ts';
import { startSessionCheckEarly } from '../lib/session.tsx';
import { createRoutes } from './router.tsx';

const QUESTION_API = `/api/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;

function findRoute(routes: RouteObject[], path: string): RouteObject | undefined {
  for (const route of routes) {
    if (route.path === path) return route;
    const found = findRoute(route.children ?? [], path);
    if (found) return found;
  }
  return undefined;
}

// Decision 0099: the grading screen's first reads went out only once its module of reads had
// arrived, queued behind the screen's other files on the browser's six connections.
describe('the grading route on a first visit', () => {
  it('sends the screen’s four reads as its loader runs, each once, and the screen takes their answers', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`POST ${QUESTION_API}/grade/submission-1`]: () => jsonResponse(500, { code: 'INTERNAL', message: 'x' }),
      [`GET ${QUESTION_API}`]: () => jsonResponse(500, { code: 'INTERNAL', message: 'x' }),
      [`GET ${QUESTION_API}/answer-groups/of/submission-1`]: () =>
        jsonResponse(200, { questionPoints: 10, group: null }),
      [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(500, { code: 'INTERNAL', message: 'x' }),
    });
    // As main.tsx does: the session's check first, which gives the client the stored token.
    startSessionCheckEarly();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const route = findRoute(
      createRoutes(queryClient),
      'assignments/:assignmentId/questions/:questionId/grade/:submissionId',
    );
    const loader = route?.loader;
    if (typeof loader !== 'function') throw new Error('The grading route has no loader.');
    const url = `http://localhost/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/grade/submission-1?queue=1`;
    const args: LoaderFunctionArgs = {
      params: { assignmentId: ASSIGNMENT_ID, questionId: QUESTION_ID, submissionId: 'submission-1' },
      request: new Request(url),
      url: new URL(url),
      pattern: '/assignments/:assignmentId/questions/:questionId/grade/:submissionId',
      context: undefined,
    };
    await loader(args);

    const reads = [
      `POST ${QUESTION_API}/grade/submission-1`,
      `GET ${QUESTION_API}`,
      `GET ${QUESTION_API}/answer-groups/of/submission-1`,
      `GET ${QUESTION_API}/review-queue`,
    ];
    const said = () => sent.map((request) => `${request.method} ${request.path}`);
    // Sent by the time the loader returns, before its module of reads has loaded.
    expect(said()).toEqual(['GET /api/auth/user', ...reads]);
    // Then that module's reads take these answers instead of asking again.
    const groupKey = ['grading', 'answer-groups', QUESTION_ID, 'of', 'submission-1'];
    // The module is transformed on first import: slow on a busy machine.
    await expect
      .poll(() => queryClient.getQueryData(groupKey), { timeout: 15_000 })
      .toEqual({ questionPoints: 10, group: null });
    expect(
      said()
        .filter((request) => reads.includes(request))
        .sort(),
    ).toEqual([...reads].sort());
    expect(
      sent.find((request) => request.path === `${QUESTION_API}/review-queue`)?.headers.get('Authorization'),
    ).toMatch(/^Bearer /);
  });
});
