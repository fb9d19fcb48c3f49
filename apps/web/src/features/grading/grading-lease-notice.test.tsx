import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, QUESTION_ID, signInAs } from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import { GradingLeaseNotice } from './components/grading-lease-notice.tsx';

const LEASE = `/api/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/grade/submission-1/lease`;
const SINCE = '2030-02-02T10:00:00.000Z';
const LEASE_KEY = ['grading', 'lease', 'submission-1'];

function renderNotice() {
  return renderApp('/grade', [
    {
      path: '/grade',
      element: <GradingLeaseNotice assignmentId={ASSIGNMENT_ID} questionId={QUESTION_ID} submissionId="submission-1" />,
    },
  ]);
}

const lease = (isMine: boolean) => ({
  isMine,
  holder: isMine
    ? { _id: INSTRUCTOR._id, name: INSTRUCTOR.name, since: SINCE }
    : { _id: 'ta-1', name: 'Tina Assistant', since: SINCE },
  expiresAt: '2030-02-02T10:05:00.000Z',
});

describe('grading lease notice', () => {
  it('says who has the answer open when another grader had it first, and gives its own mark up on leaving', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`POST ${LEASE}`]: () => jsonResponse(200, lease(false)),
      [`DELETE ${LEASE}`]: () => jsonResponse(200, { message: 'The answer is no longer open.' }),
    });
    const { unmount } = renderNotice();
    expect(await screen.findByText(/^Tina Assistant has had this answer open since/)).toBeInTheDocument();
    expect(screen.getByText(/you can still save here/)).toBeInTheDocument();
    unmount();
    await waitFor(() => expect(sent.some((request) => request.method === 'DELETE')).toBe(true));
  });

  it('gives its mark up when the page goes away (tab or browser closed), by a request that outlives the page', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`POST ${LEASE}`]: () => jsonResponse(200, lease(true)),
      [`DELETE ${LEASE}`]: () => jsonResponse(200, { message: 'The answer is no longer open.' }),
    });
    const { queryClient } = renderNotice();
    await waitFor(() => expect(queryClient.getQueryState(LEASE_KEY)?.status).toBe('success'));
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
    // Nothing unmounts when a tab closes: only the page's own pagehide is heard.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    await waitFor(() => expect(sent.filter((request) => request.method === 'DELETE')).toHaveLength(1));
    const release = sent.find((request) => request.method === 'DELETE')!;
    expect(release.keepalive).toBe(true);
    expect(release.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('shows nothing while the grader holds the answer themself', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`POST ${LEASE}`]: () => jsonResponse(200, lease(true)),
      [`DELETE ${LEASE}`]: () => jsonResponse(200, { message: 'The answer is no longer open.' }),
    });
    const { queryClient } = renderNotice();
    await waitFor(() => expect(queryClient.getQueryState(LEASE_KEY)?.status).toBe('success'));
    expect(sent.some((request) => request.method === 'POST')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/has had this answer open/)).toBeNull();
  });

  it('stays quiet when the server refuses the lease (grading goes on without the mark)', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`POST ${LEASE}`]: () => jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong.' }),
      [`DELETE ${LEASE}`]: () => jsonResponse(200, { message: 'The answer is no longer open.' }),
    });
    const { queryClient } = renderNotice();
    await waitFor(() => expect(queryClient.getQueryState(LEASE_KEY)?.status).toBe('error'));
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
