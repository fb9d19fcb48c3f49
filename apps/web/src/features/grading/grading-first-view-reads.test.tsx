import { configure, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../lib/query-keys.ts';
import { stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import {
  QUESTION_API,
  QUESTION_PATH,
  idOf,
  reviewQueueRoutes,
  storedSuggestion,
} from '../../test/review-queue-fixtures.ts';
import { QUESTION_ID } from '../../test/fixtures.ts';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  Reflect.deleteProperty(document, 'fonts');
});

// Decision 0109: the grading route mounts once the title's font has loaded (router.tsx), which on a
// first visit can be after the loader's read of the queue has answered; the route then read the
// whole queue a second time as it mounted (its query had React Query's default staleTime of 0).
describe('the grading screen opened in the queue on a first visit', () => {
  it('reads the queue once when the loader’s read answered before the route mounted', async () => {
    let fontLoaded: () => void = () => undefined;
    // The title's font arrives only when the test says so: after the queue's answer.
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { load: () => new Promise<void>((resolve) => (fontLoaded = resolve)) },
    });
    const sent = stubNetwork(
      reviewQueueRoutes({ Ann: 'needs-review', Ben: 'needs-review' }, { Ann: storedSuggestion('Ann') }),
    );
    const { queryClient } = renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
    await vi.waitFor(() => expect(queryClient.getQueryData(queryKeys.grading.queue(QUESTION_ID))).toBeDefined(), {
      timeout: 15_000,
    });
    fontLoaded();
    expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
    expect(sent.filter((request) => request.path === `${QUESTION_API}/review-queue`)).toHaveLength(1);
  });
});
