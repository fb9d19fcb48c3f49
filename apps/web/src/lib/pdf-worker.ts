import { pdfjs } from 'react-pdf';
// Vite bundles the worker (pdf.js's, wrapped by pdf-worker-entry.ts) and gives its URL: the worker
// is served by our own server (the CSP allows workers from 'self' only; no CDN, works offline).
import workerUrl from './pdf-worker-entry.ts?worker&url';
import { ignorePdfTeardown } from './pdf-teardown.ts';

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

if (typeof window !== 'undefined') ignorePdfTeardown(window);

export { pdfjs };
