import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { errorResponse } from '../../../test/fixtures.ts';
import { deferredResponse, jsonResponse, stubNetwork } from '../../../test/network.ts';
import { AiQuotaReadout } from './ai-quota-readout.tsx';

/** Issue 15: the remaining AI quota is visible to the instructor where AI actions are offered. */

const QUOTA_PATH = 'GET /api/assignments/a-1/questions/q-1/ai-quota';
const usage = (limit: number, used: number, resetsAt: string, variable: string) => ({
  limit,
  used,
  remaining: limit - used,
  resetsAt,
  variable,
});

function renderReadout() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <AiQuotaReadout assignmentId="a-1" questionId="q-1" />
    </AppProviders>,
  );
}

describe('AI limits left', () => {
  it('shows the loading state, then what is left of each provider quota and when it resets', async () => {
    const call = deferredResponse();
    stubNetwork({ [QUOTA_PATH]: call.responder });
    renderReadout();
    expect(await screen.findByRole('status')).toHaveTextContent('Checking AI limits…');
    call.respond(
      jsonResponse(200, {
        provider: 'external',
        perMinute: usage(60, 2, '2026-11-23T14:01:00.000Z', 'AI_USER_CALLS_PER_MINUTE'),
        providerQuotas: {
          courseHour: usage(2000, 1700, '2026-11-23T15:00:00.000Z', 'AI_COURSE_CALLS_PER_HOUR'),
          courseDay: usage(6000, 1700, '2026-11-24T00:00:00.000Z', 'AI_COURSE_CALLS_PER_DAY'),
          instructorHour: usage(3000, 1750, '2026-11-23T15:00:00.000Z', 'AI_INSTRUCTOR_CALLS_PER_HOUR'),
          instructorDay: usage(12000, 1750, '2026-11-24T00:00:00.000Z', 'AI_INSTRUCTOR_CALLS_PER_DAY'),
        },
        providerCallsLeft: 300,
      }),
    );
    const section = await screen.findByRole('region', { name: 'AI limits left' });
    expect(section).toHaveTextContent('AI provider calls left now: 300.');
    expect(section).toHaveTextContent('This course: 300 of 2,000 this hour (resets 15:00 UTC), 4,300 of 6,000 today.');
    expect(section).toHaveTextContent('All your courses: 1,250 of 3,000 this hour, 10,250 of 12,000 today');
    expect(section).toHaveTextContent('You have 58 of 60 AI calls left this minute.');
  });

  it('says the built-in grader has no provider quota, only the per-minute limit', async () => {
    stubNetwork({
      [QUOTA_PATH]: () =>
        jsonResponse(200, {
          provider: 'builtin',
          perMinute: usage(60, 60, '2026-11-23T14:01:00.000Z', 'AI_USER_CALLS_PER_MINUTE'),
          providerQuotas: null,
          providerCallsLeft: null,
        }),
    });
    renderReadout();
    const section = await screen.findByRole('region', { name: 'AI limits left' });
    expect(section).toHaveTextContent('Built-in grader: no provider quota.');
    expect(section).toHaveTextContent('You have 0 of 60 AI calls left this minute.');
  });

  it('says so when the limits cannot be loaded', async () => {
    stubNetwork({ [QUOTA_PATH]: errorResponse(500, 'INTERNAL', 'Something broke.') });
    renderReadout();
    expect(await screen.findByText('Could not load the AI limits left.')).toBeInTheDocument();
  });
});
