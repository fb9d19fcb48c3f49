import { pdfjs } from 'react-pdf';
// Vite copies the worker from node_modules into the build and gives its URL: the worker is served
// by our own server (the CSP allows workers from 'self' only; no CDN, works offline).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * Options for every PDF the app opens. Uploaded PDFs are untrusted: no eval-compiled fonts
 * (CVE-2024-4367 class), and no scripting.
 */
export const PDF_DOCUMENT_OPTIONS = {
  isEvalSupported: false,
  enableXfa: false,
  // One worker for every PDF the app opens. Without it each document starts its own worker and
  // terminates it on unmount: moving on (Next in the review queue) while a PDF still loads then
  // kills a worker mid-task, which throws "Worker was terminated" in the page.
  worker: typeof Worker === 'undefined' ? undefined : new pdfjs.PDFWorker(),
} as const;

/**
 * Closing a PDF while pdf.js is still opening it (leaving the screen, Next in the queue, a reload)
 * makes pdf.js reject its own pending open with "Worker was terminated" (or an AbortException
 * from its cancelled download) after the viewer that asked for it is gone, so nothing is left to
 * catch it. It is pdf.js tearing down as designed, not a failure the person can act on; anything
 * else still reaches the console.
 */
function isPdfTeardown(reason: unknown): boolean {
  if (!(reason instanceof Error) && (typeof reason !== 'object' || reason === null)) return false;
  const { name, message } = reason as { name?: unknown; message?: unknown };
  return name === 'AbortException' || message === 'Worker was terminated' || message === 'Worker was terminated.';
}

if (typeof window !== 'undefined') {
  window.addEventListener('unhandledrejection', (event) => {
    if (isPdfTeardown(event.reason)) event.preventDefault();
  });
}

export { pdfjs };
