import { afterEach, describe, expect, it, vi } from 'vitest';

// What main.tsx starts, in the order it starts it.
const started = vi.hoisted(() => [] as string[]);
vi.mock('./lib/session.tsx', () => ({ startSessionCheckEarly: () => started.push('session check') }));
vi.mock('./app/app.tsx', () => ({
  startApp: () => {
    started.push('router');
    return {};
  },
  App: () => {
    started.push('render');
    return null;
  },
}));

afterEach(() => {
  vi.useRealTimers();
});

// Decision 0123: the modules' evaluation is the page's longest task; the router and the first
// render run in the task after it, so they do not lengthen it.
describe('the app’s start (main.tsx)', () => {
  it('sends the session check as its modules run, then makes the router and renders in a later task', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    document.body.innerHTML = '<div id="root"></div>';
    await import('./main.tsx');
    expect(started).toEqual(['session check']);

    vi.runOnlyPendingTimers();
    expect(started).toEqual(['session check', 'router']);
    await vi.waitFor(() => expect(started).toContain('render'));
  });
});
