import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, VerbosityLevel, type PDFDocumentProxy } from './pdfjs.ts';
import { ExtractionError, passwordProtectedError } from './extraction-error.ts';
import { checkContentStreams, MAX_IMAGE_PIXELS, type StreamLimits } from './stream-guard.ts';

/**
 * The one place that opens a PDF with pdf.js. Everything pdf.js may load lives inside the
 * installed package (standard fonts, CMaps, wasm decoders), so nothing is fetched at run time and
 * untrusted PDFs cannot make the server reach the network. `isEvalSupported: false` keeps font
 * programs from being compiled to JavaScript (CVE-2024-4367 class of bugs).
 */

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
// In Node, pdf.js reads these "URLs" with fs.readFile: plain folder paths with a trailing slash.
const folderUrl = (folder: string) => path.join(pdfjsRoot, folder) + path.sep;

export interface OpenPdfLimits {
  maxBytes: number;
  maxPages: number;
  /** Unpacked sizes of flate streams and nesting of content (default DEFAULT_STREAM_LIMITS); null: not checked (benchmark references only). */
  streamLimits?: StreamLimits | null;
}

export async function openPdf(bytes: Uint8Array, limits: OpenPdfLimits): Promise<PDFDocumentProxy> {
  assertLooksLikePdf(bytes, limits.maxBytes);
  // Before pdf.js decodes anything: a flate bomb's memory lives outside the heap limit, and a
  // deeply nested content stream costs pdf.js the square of its depth (stream-guard.ts).
  if (limits.streamLimits !== null) checkContentStreams(bytes, limits.streamLimits);
  const loadingTask = getDocument({
    // pdf.js may take ownership of the buffer; the caller keeps its own bytes.
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: folderUrl('standard_fonts'),
    cMapUrl: folderUrl('cmaps'),
    cMapPacked: true,
    wasmUrl: folderUrl('wasm'),
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    enableXfa: false,
    // Keeps fonts' encodings and glyph outlines readable after use (glyph-ink.ts checks what each glyph draws).
    fontExtraProperties: true,
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: VerbosityLevel.ERRORS,
  });
  let pdf: PDFDocumentProxy;
  try {
    pdf = await loadingTask.promise;
  } catch (error) {
    await loadingTask.destroy().catch(() => {});
    throw toExtractionError(error);
  }
  if (pdf.numPages === 0) {
    await pdf.destroy().catch(() => {});
    throw new ExtractionError('corrupt', 'This PDF has no pages.');
  }
  if (pdf.numPages > limits.maxPages) {
    const pageCount = pdf.numPages;
    await pdf.destroy().catch(() => {});
    throw new ExtractionError(
      'too-many-pages',
      `This PDF has ${pageCount} pages; at most ${limits.maxPages} pages can be read. Please upload a shorter file.`,
    );
  }
  return pdf;
}

function assertLooksLikePdf(bytes: Uint8Array, maxBytes: number) {
  if (bytes.byteLength === 0) throw new ExtractionError('empty', 'The file is empty. Please upload a PDF.');
  if (bytes.byteLength > maxBytes) {
    const megabytes = Math.floor(maxBytes / (1024 * 1024));
    throw new ExtractionError('too-large', `The PDF is larger than ${megabytes} MB. Please upload a smaller file.`);
  }
  // Readers accept a little junk before the header, as pdf.js does; anything else is not a PDF.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) {
    throw new ExtractionError('not-a-pdf', 'This file is not a PDF. Please upload a PDF document.');
  }
}

/** Turns whatever pdf.js threw into a sentence a person can act on. */
export function toExtractionError(error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') return passwordProtectedError({ cause: error });
  return new ExtractionError(
    'corrupt',
    'This PDF is damaged or incomplete and could not be read. Please export it again and re-upload it.',
    { cause: error },
  );
}
