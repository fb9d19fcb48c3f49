import { AnnotationMode, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.ts';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api.js';
import {
  DEFAULT_EXTRACTION_TIMEOUT_MS,
  ExtractionError,
  extractionTimeoutError,
  tooManyOperatorsError,
} from './extraction-error.ts';
import { analyzePageText, type CanvasFactory, type HiddenLineRun, type HiddenTextReason } from './hidden-text.ts';
import { recognizeImage, closeOcr } from './ocr.ts';
import { openPdf, toExtractionError } from './open-pdf.ts';
import { GlyphInspector } from './glyph-ink.ts';
import { annotationAreas, walkPageDrawing } from './page-drawing.ts';
import { DEFAULT_STREAM_LIMITS, MAX_DRAWING_OPERATORS, type StreamLimits } from './stream-guard.ts';

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

export type { HiddenTextReason } from './hidden-text.ts';
export { closeOcr } from './ocr.ts';
export { ExtractionError, isExtractionError, type ExtractionErrorCode } from './extraction-error.ts';

export interface PdfPageText {
  page: number;
  text: string;
  method: 'text-layer' | 'ocr';
  /** Only for OCR'd pages: Tesseract's mean word confidence, 0–100. */
  ocrConfidence?: number;
}

export interface HiddenText {
  page: number;
  text: string;
  reason: HiddenTextReason;
}

export interface PdfExtraction {
  pages: PdfPageText[];
  /** The visible text of all pages, joined with blank lines. Hidden text is never in here. */
  text: string;
  /** Text in the PDF's text layer that a reader cannot see (a prompt-injection attempt, usually). */
  hiddenText: HiddenText[];
  pageCount: number;
}

export interface ExtractionOptions {
  /** More pages than this is refused (default 50). */
  maxPages?: number;
  /** Larger files are refused (default 50 MB). */
  maxBytes?: number;
  /** The whole document must be read within this time (default 120 s). */
  timeoutMs?: number;
  /** OCR pages whose text layer is (nearly) empty (default true). */
  ocr?: boolean;
  /** A page with fewer visible non-space characters than this counts as having no text layer (default 20). */
  minTextChars?: number;
  /** Render scale for OCR (default 200 dpi). */
  ocrScale?: number;
  /** Render scale for the hidden-text raster check (default 1 = 72 dpi). */
  rasterScale?: number;
  /** Cap on the pixels of any one rendered page (default 12 million). */
  maxPixelsPerPage?: number;
  /** Unpacked sizes of flate streams, nesting of content (see stream-guard.ts); null: not checked (benchmark references only). */
  streamLimits?: StreamLimits | null;
  /**
   * Drawing operations of all pages together (default 2 million): more is refused as 'too-complex'
   * before the hidden-text check renders them. A dense plot has a few hundred thousand.
   */
  maxOperators?: number;
}

/** Told after each page is read (the extraction pool's per-page work budget starts again). */
export type OnPageRead = (page: number) => void;

const DEFAULTS: Required<ExtractionOptions> = {
  maxPages: 50,
  maxBytes: 50 * 1024 * 1024,
  timeoutMs: DEFAULT_EXTRACTION_TIMEOUT_MS,
  ocr: true,
  minTextChars: 20,
  ocrScale: 200 / 72,
  rasterScale: 1,
  maxPixelsPerPage: 12_000_000,
  streamLimits: DEFAULT_STREAM_LIMITS,
  maxOperators: MAX_DRAWING_OPERATORS,
};

/** Share of an invisible line's words that OCR must also see for it to count as a scan's text layer. */
const SCAN_LAYER_WORD_SHARE = 0.7;

/**
 * Reads the text of a PDF: the text layer where there is one, OCR where a page is a picture, and
 * the text a reader cannot see kept apart (see hidden-text.ts). Any unreadable input rejects with
 * an ExtractionError whose message can be shown to the user.
 */
export async function extractPdfText(
  bytes: Uint8Array,
  options: ExtractionOptions = {},
  onPageRead?: OnPageRead,
): Promise<PdfExtraction> {
  const settings = { ...DEFAULTS, ...options };
  let operators = 0;
  const deadline = new Deadline(settings.timeoutMs);
  let pdf: PDFDocumentProxy | null = null;
  const opening = openPdf(bytes, settings);
  try {
    pdf = await deadline.race(opening);
    const document = pdf;
    const optionalContent = await deadline.race(document.getOptionalContentConfig({ intent: 'display' }));
    const pages: PdfPageText[] = [];
    const hiddenText: HiddenText[] = [];
    // One per document: fonts and their glyph outlines are shared between pages.
    let glyphs: GlyphInspector | null = null;
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      const page = await deadline.race(document.getPage(pageNumber));
      try {
        // Asked for together: pdf.js answers each through its worker's message queue, and a page's
        // answers need not wait for one another. Annotations are left out of the operator list so
        // operation indexes match the raster check's renders; their areas are read on their own.
        const [content, operatorList, annotations] = await deadline.race(
          Promise.all([
            page.getTextContent({ includeMarkedContent: false }),
            page.getOperatorList({ annotationMode: AnnotationMode.DISABLE }),
            annotationAreas(page),
          ]),
        );
        operators += operatorList.fnArray.length;
        if (operators > settings.maxOperators) throw tooManyOperatorsError(settings.maxOperators);
        const items = content.items.filter(isTextItem);
        glyphs ??= GlyphInspector.of(page);
        await deadline.race(glyphs.loadFonts(operatorList));
        const drawing = walkPageDrawing(
          operatorList,
          (properties) => optionalContent.isVisible(properties as never),
          glyphs,
        );
        // Glyphs no name vouches for (CID fonts' above all) have their shapes read before the analysis.
        await deadline.race(glyphs.checkShapes());
        if (annotations.length > 0) {
          drawing.paints.push(...annotations);
          drawing.needsRaster = true;
        }
        const analysis = await deadline.race(
          analyzePageText(page, items, drawing, {
            scale: settings.rasterScale,
            maxPixels: settings.maxPixelsPerPage,
            canvasFactory: canvasFactoryOf(document),
          }),
        );
        let pageText: PdfPageText = { page: pageNumber, text: analysis.text, method: 'text-layer' };
        let hiddenRuns = analysis.hiddenRuns;
        const mayHoldPictureText = drawing.needsRaster;
        if (settings.ocr && analysis.visibleCharCount < settings.minTextChars && mayHoldPictureText) {
          const image = await deadline.race(renderPage(page, document, settings.ocrScale, settings.maxPixelsPerPage));
          const ocr = await deadline.race(recognizeImage(image), closeOcr).catch((error: unknown) => {
            if (error instanceof ExtractionError) throw error;
            throw new ExtractionError(
              'ocr-failed',
              `Page ${pageNumber} of this PDF is a scan, and its text could not be recognized.`,
              {
                cause: error,
              },
            );
          });
          pageText = {
            page: pageNumber,
            text: tidyOcrText(ocr.text),
            method: 'ocr',
            ocrConfidence: Math.round(ocr.confidence),
          };
          hiddenRuns = withoutScanTextLayer(hiddenRuns, ocr.text);
        }
        pages.push(pageText);
        hiddenText.push(...mergeRuns(pageNumber, hiddenRuns));
      } finally {
        page.cleanup();
      }
      onPageRead?.(pageNumber);
    }
    return {
      pages,
      text: pages
        .map((page) => page.text)
        .filter((text) => text.trim())
        .join('\n\n'),
      hiddenText,
      pageCount: document.numPages,
    };
  } catch (error) {
    throw toExtractionError(error);
  } finally {
    deadline.clear();
    // Also when the time ran out while opening: the document still has to be released.
    if (pdf) await pdf.destroy().catch(() => {});
    else opening.then((late) => late.destroy()).catch(() => {});
  }
}

export interface RenderPagesOptions {
  /** Render at most this many pages, from the first (default 50). */
  maxPages?: number;
  /** 1 = 72 dpi (default 2, 144 dpi). */
  scale?: number;
  maxPixelsPerPage?: number;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Renders the first pages to PNG images, for models that read pictures. */
export async function renderPdfPages(
  bytes: Uint8Array,
  options: RenderPagesOptions = {},
  onPageRead?: OnPageRead,
): Promise<Buffer[]> {
  const maxPages = options.maxPages ?? 50;
  const deadline = new Deadline(options.timeoutMs ?? DEFAULTS.timeoutMs);
  let pdf: PDFDocumentProxy | null = null;
  const opening = openPdf(bytes, {
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxPages: Number.POSITIVE_INFINITY,
  });
  try {
    pdf = await deadline.race(opening);
    const images: Buffer[] = [];
    for (let pageNumber = 1; pageNumber <= Math.min(pdf.numPages, maxPages); pageNumber++) {
      const page = await deadline.race(pdf.getPage(pageNumber));
      try {
        images.push(
          await deadline.race(
            renderPage(page, pdf, options.scale ?? 2, options.maxPixelsPerPage ?? DEFAULTS.maxPixelsPerPage),
          ),
        );
      } finally {
        page.cleanup();
      }
      onPageRead?.(pageNumber);
    }
    return images;
  } catch (error) {
    throw toExtractionError(error);
  } finally {
    deadline.clear();
    if (pdf) await pdf.destroy().catch(() => {});
    else opening.then((late) => late.destroy()).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------

const isTextItem = (item: TextItem | TextMarkedContent): item is TextItem => 'str' in item;

interface PngCanvas {
  width: number;
  height: number;
  encode(format: 'png'): Promise<Buffer>;
}

/** pdf.js's own canvas factory (its @napi-rs/canvas), so every canvas in one render is compatible. */
function canvasFactoryOf(pdf: PDFDocumentProxy): CanvasFactory {
  return (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
}

async function renderPage(
  page: PDFPageProxy,
  pdf: PDFDocumentProxy,
  scale: number,
  maxPixels: number,
): Promise<Buffer> {
  const base = page.getViewport({ scale: 1 });
  const fitted = Math.min(scale, Math.sqrt(maxPixels / Math.max(1, base.width * base.height)));
  const viewport = page.getViewport({ scale: fitted });
  const factory = canvasFactoryOf(pdf);
  const entry = factory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  try {
    await page.render({
      canvasContext: entry.context as unknown as RenderParameters['canvasContext'],
      canvas: entry.canvas as unknown as RenderParameters['canvas'],
      viewport,
    }).promise;
    return await (entry.canvas as unknown as PngCanvas).encode('png');
  } finally {
    factory.destroy(entry);
  }
}

/** Specks on a scan come out as stray marks at the ends of lines (": Page two ;"): drop those. */
const STRAY_MARKS_AT_START = /^(?:[:;,.'"`|~_=-]+\s+)+/;
const STRAY_MARKS_AT_END = /(?:\s+[:;,.'"`|~_=-]+)+$/;

function tidyOcrText(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \t]+/g, ' ')
        .trim()
        .replace(STRAY_MARKS_AT_START, '')
        .replace(STRAY_MARKS_AT_END, ''),
    )
    .map((line) => (/^[:;,.'"`|~_=\s-]*$/.test(line) ? '' : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Scanner apps make a scan searchable with an invisible text layer that repeats the picture's
 * words. That is not hidden text: an invisible line over an image whose words OCR also reads in
 * the picture is dropped. Anything else invisible (an injected sentence) is still reported.
 */
function withoutScanTextLayer(runs: HiddenLineRun[], ocrText: string): HiddenLineRun[] {
  const seen = new Set(wordsOf(ocrText));
  return runs.filter((run) => {
    if (!run.isOverImage || run.reason !== 'white-or-transparent') return true;
    const words = wordsOf(run.text);
    if (words.length === 0) return false;
    const found = words.filter((word) => seen.has(word)).length;
    return found / words.length < SCAN_LAYER_WORD_SHARE;
  });
}

/** Hidden runs that continue one another (same reason, nothing visible between) become one entry. */
function mergeRuns(page: number, runs: HiddenLineRun[]): HiddenText[] {
  const merged: HiddenText[] = [];
  let previous: HiddenLineRun | null = null;
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && previous && run.continuesPrevious && previous.reason === run.reason) last.text += ` ${run.text}`;
    else merged.push({ page, text: run.text, reason: run.reason });
    previous = run;
  }
  return merged;
}

/** One time limit for a whole document; each awaited step races it. */
class Deadline {
  private readonly expiresAt: number;
  private timers = new Set<NodeJS.Timeout>();

  constructor(private readonly timeoutMs: number) {
    this.expiresAt = Date.now() + timeoutMs;
  }

  race<T>(work: Promise<T>, onTimeout?: () => unknown): Promise<T> {
    // The losing side must never become an unhandled rejection.
    work.catch(() => {});
    const remaining = this.expiresAt - Date.now();
    if (remaining <= 0) {
      void Promise.resolve(onTimeout?.()).catch(() => {});
      return Promise.reject(this.timeoutError());
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void Promise.resolve(onTimeout?.()).catch(() => {});
        reject(this.timeoutError());
      }, remaining);
      timer.unref();
      this.timers.add(timer);
      work.then(
        (value) => {
          clearTimeout(timer);
          this.timers.delete(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.timers.delete(timer);
          reject(error);
        },
      );
    });
  }

  private timeoutError() {
    return extractionTimeoutError(this.timeoutMs);
  }

  clear() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
