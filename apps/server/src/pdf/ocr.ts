import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';

/**
 * Local OCR with tesseract.js. Every path is explicit and inside node_modules: without `langPath`
 * tesseract.js downloads the language model from a CDN (and hangs offline), and without
 * `cacheMethod: 'none'` it writes `eng.traineddata` into the working directory.
 *
 * Starting a worker costs about a second (wasm + model load), so one worker is created on first
 * use and reused; `closeOcr()` ends it (tests, CLI commands and shutdown call it). Calls are
 * queued on that worker one at a time, which also keeps OCR from taking every core.
 */

const require = createRequire(import.meta.url);
const tesseractRoot = path.dirname(require.resolve('tesseract.js/package.json'));
const OCR_PATHS = {
  // The LSTM-only integer model: the one tesseract.js picks for OEM.LSTM_ONLY, and 4x smaller.
  langPath: path.join(path.dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int'),
  workerPath: path.join(tesseractRoot, 'src', 'worker-script', 'node', 'index.js'),
  corePath: path.dirname(require.resolve('tesseract.js-core/package.json')),
};

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
}

let workerPromise: Promise<Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  if (!workerPromise) {
    const starting = createWorker('eng', OEM.LSTM_ONLY, {
      ...OCR_PATHS,
      cacheMethod: 'none',
      gzip: true,
      logger: () => {},
      errorHandler: () => {},
    });
    workerPromise = starting;
    // A failed start must not poison later calls: the next call tries again.
    starting.catch(() => {
      if (workerPromise === starting) workerPromise = null;
    });
  }
  return workerPromise;
}

/** Recognizes the text in one image (PNG or JPEG bytes). */
export function recognizeImage(image: Buffer): Promise<OcrResult> {
  const run = async () => {
    const worker = await getWorker();
    const { data } = await worker.recognize(image);
    return { text: data.text, confidence: data.confidence };
  };
  const result = queue.then(run, run);
  queue = result.catch(() => {});
  return result;
}

/** One character tesseract found, and where (pixels of the image). */
export interface OcrSymbol {
  text: string;
  confidence: number;
  box: { x0: number; y0: number; x1: number; y1: number };
}

/**
 * The characters of an image, each with its box. The worker reads an image as one uniform block
 * of text (the tesseract API's default page segmentation, which a grid of glyph specimens needs:
 * automatic layout analysis finds no text in it).
 */
export function recognizeSymbols(image: Buffer): Promise<OcrSymbol[]> {
  const run = async () => {
    const worker = await getWorker();
    const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
    return (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines.flatMap((line) =>
          line.words.flatMap((word) =>
            word.symbols.map((symbol) => ({ text: symbol.text, confidence: symbol.confidence, box: symbol.bbox })),
          ),
        ),
      ),
    );
  };
  const result = queue.then(run, run);
  queue = result.catch(() => {});
  return result;
}

/** Ends the shared worker (if any). Safe to call at any time, also twice. */
export async function closeOcr(): Promise<void> {
  const current = workerPromise;
  workerPromise = null;
  if (!current) return;
  const worker = await current.catch(() => null);
  await worker?.terminate().catch(() => {});
}
