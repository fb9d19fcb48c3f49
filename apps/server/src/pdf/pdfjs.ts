// Import order matters: native-builtins.ts must be evaluated before pdf.js (see there).
import { restoreNativeBuiltins } from './native-builtins.ts';
import { AnnotationMode, getDocument, OPS, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Loaded now rather than on the first document, so its polyfills are undone below as well. pdf.js
// runs it in this thread ("fake worker"), found through the global it sets.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';

restoreNativeBuiltins();

/** The only module that imports pdf.js's runtime; the rest of the server imports it from here. */
export { AnnotationMode, getDocument, OPS, VerbosityLevel };
export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
