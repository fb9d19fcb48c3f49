/**
 * Closing a PDF while pdf.js is still opening it (leaving the screen, Next in the queue, a reload)
 * makes pdf.js reject its own pending work after the viewer that asked for it is gone, so nothing
 * is left to catch it: "Worker was terminated" inside the worker (an unawaited promise in its
 * document setup), "Worker was terminated." (an AbortException from the cancelled download) in the
 * page. That is pdf.js tearing down as designed, not a failure anyone can act on.
 */
export function isPdfTeardown(reason: unknown): boolean {
  if (typeof reason !== 'object' || reason === null) return false;
  const { name, message } = reason as { name?: unknown; message?: unknown };
  return name === 'AbortException' || message === 'Worker was terminated' || message === 'Worker was terminated.';
}

/** Keeps pdf.js's own teardown out of the console of the page or worker this runs in; anything else still reaches it. */
export function ignorePdfTeardown(scope: Pick<Window, 'addEventListener'>): void {
  scope.addEventListener('unhandledrejection', (event) => {
    if (isPdfTeardown(event.reason)) event.preventDefault();
  });
}
