// The pdf.js worker, with its own teardown kept quiet (see pdf-teardown.ts). pdf.js rejects
// "Worker was terminated" inside the worker, where no listener of the page can reach it, so the
// listener is installed here, in the worker's global scope, before any document is opened.
import 'pdfjs-dist/build/pdf.worker.min.mjs';
import { ignorePdfTeardown } from './pdf-teardown.ts';

ignorePdfTeardown(self);
