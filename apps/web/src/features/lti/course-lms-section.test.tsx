import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CourseLmsLinksOutput } from '@gradewise/shared/contracts/lti';
import { COURSE_ID, courseForStaff, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/** The course page's LMS section (decision 0076), over the real client and router. */

const LINKS = `GET /api/courses/${COURSE_ID}/lti-links`;
const SYNC = `POST /api/courses/${COURSE_ID}/lti-roster-sync`;

const linked = (rosterSyncedAt: string | null, active = 0): CourseLmsLinksOutput => ({
  links: [
    {
      lmsCourse: 'Physics 101',
      lms: 'Canvas',
      offersRoster: true,
      takesGrades: true,
      rosterSyncedAt,
      active,
      left: active > 0 ? 1 : 0,
    },
  ],
});

describe('the course LMS section', () => {
  it('loads, says the roster was not synced, and syncs it for the owner', async () => {
    const links = deferredResponse();
    let synced = false;
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff()),
      'GET /api/assignments': () => jsonResponse(200, []),
      [LINKS]: (request) =>
        synced ? jsonResponse(200, linked('2026-11-29T04:00:00.000Z', 3)) : links.responder(request),
      [SYNC]: () => {
        synced = true;
        return jsonResponse(200, {
          message: 'Roster synced from the LMS: 3 people in the course, 1 marked as left.',
          contexts: 1,
          active: 3,
          left: 1,
        });
      },
    });
    renderApp(`/courses/${COURSE_ID}`);
    const section = await screen.findByRole('region', { name: 'LMS' });
    expect(within(section).getByRole('status')).toHaveAccessibleName('Loading the linked LMS courses…');
    links.respond(jsonResponse(200, linked(null)));
    expect(await within(section).findByText(/Roster not synced yet\. Takes grades\./)).toBeInTheDocument();
    expect(within(section).getByText('Physics 101')).toBeInTheDocument();

    await userEvent.click(within(section).getByRole('button', { name: 'Sync roster now' }));
    expect(
      await screen.findByText('Roster synced from the LMS: 3 people in the course, 1 marked as left.'),
    ).toBeInTheDocument();
    expect(await within(section).findByText(/Roster synced .*: 3 in the course, 1 left\./)).toBeInTheDocument();
    expect(sent.filter((request) => `${request.method} ${request.path}` === SYNC)).toHaveLength(1);
  });

  it('says a failed sync with the server message', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff()),
      'GET /api/assignments': () => jsonResponse(200, []),
      [LINKS]: () => jsonResponse(200, linked(null)),
      [SYNC]: () => jsonResponse(503, { code: 'UNAVAILABLE', message: 'The LMS refused the roster (401).' }),
    });
    renderApp(`/courses/${COURSE_ID}`);
    const section = await screen.findByRole('region', { name: 'LMS' });
    await userEvent.click(await within(section).findByRole('button', { name: 'Sync roster now' }));
    expect(await screen.findByText('The LMS refused the roster (401).')).toBeInTheDocument();
  });

  it('shows nothing for a course no LMS course is linked to', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff()),
      'GET /api/assignments': () => jsonResponse(200, []),
      [LINKS]: () => jsonResponse(200, { links: [] }),
    });
    renderApp(`/courses/${COURSE_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Linear Algebra' })).toBeInTheDocument();
    await waitFor(() => expect(sent.some((request) => request.path.endsWith('/lti-links'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'LMS' })).not.toBeInTheDocument());
  });
});
