import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { DOMMatrix } from '@napi-rs/canvas';
import { loadToasts } from '../lib/toasts.tsx';

declare global {
  var jest: { advanceTimersByTime(ms: number): void } | undefined;
}

// Testing Library steps fake timers in its async helpers (findBy*, waitFor) only when it sees
// Jest's API; without this it would wait on a faked setTimeout forever. Vitest's `vi` does the same.
globalThis.jest = { advanceTimersByTime: (ms) => vi.advanceTimersByTime(ms) };

// Screens load lazily (as in production); on a busy two-core machine the first import of a module
// can take longer than Testing Library's default 1 s for findBy* queries.
configure({ asyncUtilTimeout: 5000 });

// jsdom lays nothing out and has no scrolling; the router's ScrollRestoration calls scrollTo on navigation.
window.scrollTo = () => {};
// Nor do its elements: the grading screen's phone tabs scroll the dialog's content to its top.
Element.prototype.scrollTo = () => {};

// jsdom has no DOMMatrix, which pdf.js needs as its module loads (the PDF viewer's code): the one
// pdf.js itself takes in Node, from its optional dependency @napi-rs/canvas.
globalThis.DOMMatrix ??= DOMMatrix as unknown as typeof globalThis.DOMMatrix;
// Nor has Node 20 Promise.withResolvers (ES2024), which pdf.js calls and every supported browser has.
(Promise as { withResolvers?: unknown }).withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

// In the app the toasts' library loads once the first view is on screen, long before anyone acts
// (lib/toasts.tsx); screens' tests start with it loaded, as a person finds it.
beforeAll(async () => {
  await loadToasts();
});

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
