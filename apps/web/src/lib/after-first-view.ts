import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';

let isHeld = false;
const onRelease = new Set<() => void>();

/** The longest the wait lasts: a read that does not end (a long grading run) holds nothing back. */
export const AFTER_FIRST_VIEW_LATEST_MS = 5_000;

/**
 * Runs `run` once the page's first view is on screen: when no read of the app is in flight, then
 * two frames (the second comes after the first has been painted), then the browser's next idle
 * time (the view's own work, the frame's drawing and what the first view starts after its paint go
 * first); at the latest AFTER_FIRST_VIEW_LATEST_MS after the call. Called as the view mounts. For
 * what no first view shows: the toasts' code, the comment editor's code, the open answer's PDF read
 * into the cache. Asked for before that, on a slow line they shared the bandwidth with the code and
 * reads the first view waits for, and Lighthouse counted them before the grading screen's largest
 * paint (decision 0125). A read that starts meanwhile is part of the first view too: the wait goes
 * on until it ends. In a tab opened in the background no frame runs until it is shown: idle time is
 * enough there. Returns a function that cancels the wait.
 */
export function afterFirstView(queryClient: QueryClient, run: () => void): () => void {
  let isOver = false;
  let frame: number | undefined;
  let cancelIdle: (() => void) | undefined;
  const isSettled = () => !isHeld && queryClient.isFetching() === 0;

  const stop = () => {
    isOver = true;
    unsubscribe();
    onRelease.delete(waitForPaint);
    clearTimeout(latest);
    cancelIdle?.();
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
  const finish = () => {
    if (isOver) return;
    stop();
    run();
  };
  const inIdleTime = () => {
    frame = undefined;
    cancelIdle = whenIdle(() => {
      cancelIdle = undefined;
      if (isSettled()) finish();
    });
  };
  const waitForPaint = () => {
    if (isOver || frame !== undefined || cancelIdle !== undefined || !isSettled()) return;
    if (document.visibilityState === 'hidden') return inIdleTime();
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(inIdleTime);
    });
  };

  const latest = setTimeout(finish, AFTER_FIRST_VIEW_LATEST_MS);
  const unsubscribe = queryClient.getQueryCache().subscribe(waitForPaint);
  onRelease.add(waitForPaint);
  waitForPaint();
  return stop;
}

/** True once afterFirstView's wait has ended (for a read or a call no first view needs). */
export function useAfterFirstView(): boolean {
  const queryClient = useQueryClient();
  const [isAfter, setAfter] = useState(false);
  useEffect(() => afterFirstView(queryClient, () => setAfter(true)), [queryClient]);
  return isAfter;
}

/**
 * For a screen whose first view comes well after its reads (the grading screen: its reads were
 * sent before the app's code ran, and its dialog waits for its own code and the title's font):
 * every afterFirstView wait is held from its route's start (holdFirstView, by the loader) until
 * that view is drawn (releaseFirstView, by the route). Else the toasts' code came in that gap,
 * before the screen's largest paint (decision 0125).
 */
export function holdFirstView(): void {
  isHeld = true;
}

export function releaseFirstView(): void {
  if (!isHeld) return;
  isHeld = false;
  onRelease.forEach((listener) => listener());
}

/** The browser's next idle time (a task where there is none: jsdom, Safari); returns a cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 1_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(run);
  return () => clearTimeout(timer);
}
