import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AFTER_FIRST_VIEW_LATEST_MS, afterFirstView, holdFirstView, releaseFirstView } from './after-first-view.ts';

/** A read the test ends when it chooses, as the screen's first reads end when the server answers. */
function startRead(queryClient: QueryClient, key: string): () => void {
  let end: (value: string) => void = () => undefined;
  void queryClient.fetchQuery({ queryKey: [key], queryFn: () => new Promise<string>((resolve) => (end = resolve)) });
  return () => end('read');
}

describe('afterFirstView', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the reads in flight, then a painted frame, then runs once', async () => {
    const queryClient = new QueryClient();
    const endRead = startRead(queryClient, 'answer');
    const run = vi.fn();
    afterFirstView(queryClient, run);

    // Frames and tasks pass while the read is out: nothing runs.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).not.toHaveBeenCalled();

    endRead();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).not.toHaveBeenCalled();
    // Two frames (the view drawn, then painted), then a task.
    await vi.advanceTimersByTimeAsync(16);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);

    startRead(queryClient, 'next answer');
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_VIEW_LATEST_MS);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('keeps waiting for a read that starts while the frames run', async () => {
    const queryClient = new QueryClient();
    const run = vi.fn();
    afterFirstView(queryClient, run);
    // No read yet: the frames start, and the route's read starts before they end.
    const endRead = startRead(queryClient, 'group');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).not.toHaveBeenCalled();

    endRead();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('waits while a screen holds it (its reads done, its view not drawn), until it is released', async () => {
    const queryClient = new QueryClient();
    const run = vi.fn();
    holdFirstView();
    afterFirstView(queryClient, run);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).not.toHaveBeenCalled();

    releaseFirstView();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at the latest AFTER_FIRST_VIEW_LATEST_MS after the call, and not when cancelled', async () => {
    const queryClient = new QueryClient();
    startRead(queryClient, 'a long grading run');
    const run = vi.fn();
    const cancelled = vi.fn();
    afterFirstView(queryClient, run);
    const cancel = afterFirstView(queryClient, cancelled);

    await vi.advanceTimersByTimeAsync(AFTER_FIRST_VIEW_LATEST_MS - 1);
    expect(run).not.toHaveBeenCalled();
    cancel();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
