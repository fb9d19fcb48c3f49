import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { GradePassbackOutput } from '@gradewise/shared/contracts/lti';
import { ASSIGNMENT_ID, assignmentDetail, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/** The assignment page's "Grades in the LMS" (decision 0076), over the real client and router. */

const PASSBACK = `GET /api/assignments/${ASSIGNMENT_ID}/lti-grade-passback`;
const SEND = `POST /api/assignments/${ASSIGNMENT_ID}/lti-grade-passback`;

const posts: GradePassbackOutput = {
  lmsCourses: ['Physics 101'],
  rows: [
    {
      student: { _id: 'student-1', name: 'Ann Sent' },
      lmsCourse: 'Physics 101',
      state: 'sent',
      scoreGiven: 13,
      scoreMaximum: 15,
      gradingProgress: 'PendingManual',
      message: null,
      at: '2026-11-29T04:00:00.000Z',
    },
    {
      student: { _id: 'student-2', name: 'Bo Failed' },
      lmsCourse: 'Physics 101',
      state: 'failed',
      scoreGiven: null,
      scoreMaximum: null,
      gradingProgress: null,
      message: 'The LMS answered 400: User is not enrolled',
      at: '2026-11-29T04:01:00.000Z',
    },
  ],
};

describe('Grades in the LMS', () => {
  it('loads, then lists each post with its state and the LMS words; the owner sends them again', async () => {
    const list = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
      [PASSBACK]: list.responder,
      [SEND]: () => jsonResponse(200, { message: 'Sending the released grades of 2 students to the LMS.', queued: 2 }),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);
    const section = await screen.findByRole('region', { name: 'Grades in the LMS' });
    expect(within(section).getByRole('status')).toHaveAccessibleName('Loading what was sent to the LMS…');
    list.respond(jsonResponse(200, posts));

    const items = await within(section).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Ann SentSent13 \/ 15 \(under a regrade request\) · /),
      expect.stringMatching(/^Bo FailedFailedThe LMS answered 400: User is not enrolled · /),
    ]);
    expect(within(section).getByText(/go to Physics 101 by themselves; held grades never do/)).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Send grades to the LMS' }));
    expect(await screen.findByText('Sending the released grades of 2 students to the LMS.')).toBeInTheDocument();
    expect(sent.filter((request) => `${request.method} ${request.path}` === SEND)).toHaveLength(1);
  });

  it('says a failed read and tries again; then says nothing was sent yet', async () => {
    let failing = true;
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
      [PASSBACK]: () =>
        failing
          ? jsonResponse(500, { code: 'INTERNAL', message: 'The database is not answering.' })
          : jsonResponse(200, { lmsCourses: ['Physics 101'], rows: [] }),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);
    const section = await screen.findByRole('region', { name: 'Grades in the LMS' });
    expect(await within(section).findByText('The database is not answering.')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Send grades to the LMS' })).not.toBeInTheDocument();
    failing = false;
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText(/No grade has been sent yet/)).toBeInTheDocument();
  });

  it('shows nothing for a course without an LMS', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
      [PASSBACK]: () => jsonResponse(200, { lmsCourses: [], rows: [] }),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);
    expect(await screen.findByRole('region', { name: 'Release of grades' })).toBeInTheDocument();
    await waitFor(() => expect(sent.some((request) => request.path.endsWith('/lti-grade-passback'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Grades in the LMS' })).not.toBeInTheDocument());
  });

  it('asks nothing for a student', async () => {
    const sent = stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('student')),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);
    expect(await screen.findByRole('link', { name: 'View Questions' })).toBeInTheDocument();
    expect(sent.some((request) => request.path.endsWith('/lti-grade-passback'))).toBe(false);
    expect(screen.queryByRole('region', { name: 'Grades in the LMS' })).not.toBeInTheDocument();
  });
});
