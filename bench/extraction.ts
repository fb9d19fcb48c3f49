/**
 * Text extraction throughput: our extractPdfText (text layer + hidden-text check) against poppler's
 * pdftotext, on the same generated files, on this machine, in one run.
 *
 *   npx tsx bench/extraction.ts [--count 100] [--quick (= --count 20)]
 *
 * Two sets of files are measured:
 * - "typed": N two-page typed PDFs (buildTextPdf). Only text on white paper, so the hidden-text
 *   check decides from the operator list alone (no rendering): the common case.
 * - "with graphics": N one-page PDFs with an image over part of the text
 *   (buildPdfWithHiddenText 'covered'). These take the raster path of the hidden-text check
 *   (two renders at 72 dpi plus pixel sampling), the worst case for a text-layer page.
 *
 * pdftotext is spawned once per file (as a server shelling out to it would), reading the file from
 * disk; ours reads the same file from disk too. Each tool first reads one file untimed (module
 * loading, font data). Prints pages/s for both and the ratio ours/pdftotext.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeOcr, extractPdfText } from '../apps/server/src/pdf/extract-text.ts';
import { buildPdfWithHiddenText, buildTextPdf } from '../apps/server/src/demo/pdf-documents.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const run = promisify(execFile);

function parseCount(argv: string[]): number {
  const index = argv.findIndex((arg) => arg === '--count' || arg.startsWith('--count='));
  if (index < 0) return argv.includes('--quick') ? 20 : 100;
  const raw = argv[index]!.includes('=') ? argv[index]!.split('=')[1] : argv[index + 1];
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`--count must be a positive whole number (got ${raw}).`);
    process.exit(2);
  }
  return count;
}

const SENTENCES = [
  'The experiment measured how the rate of an enzyme reaction changes with temperature.',
  'Each sample was held in a water bath for five minutes before the substrate was added.',
  'Absorbance was recorded every thirty seconds with a calibrated spectrophotometer.',
  'The rate rose steadily up to forty degrees and fell sharply above fifty degrees.',
  'This drop is explained by the enzyme losing its shape, so the substrate no longer fits.',
  'Repeating each temperature three times kept the random error below five percent.',
];

function answerParagraphs(seed: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const parts = Array.from({ length: 4 }, (__, k) => SENTENCES[(seed + index + k) % SENTENCES.length]);
    return `Answer ${seed}.${index + 1}: ${parts.join(' ')}`;
  });
}

interface Timing {
  seconds: number;
  pages: number;
  files: number;
}

async function timeOurs(files: string[], pagesPerFile: number): Promise<Timing> {
  await extractPdfText(new Uint8Array(await fs.readFile(files[0]!)));
  const started = process.hrtime.bigint();
  for (const file of files) {
    const result = await extractPdfText(new Uint8Array(await fs.readFile(file)));
    if (result.pageCount !== pagesPerFile || !result.text) throw new Error(`Unexpected extraction of ${file}`);
  }
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    pages: files.length * pagesPerFile,
    files: files.length,
  };
}

async function timePdftotext(files: string[], pagesPerFile: number): Promise<Timing> {
  await run(PDFTOTEXT, [files[0]!, '-']);
  const started = process.hrtime.bigint();
  for (const file of files) {
    const { stdout } = await run(PDFTOTEXT, ['-enc', 'UTF-8', file, '-'], { maxBuffer: 16 * 1024 * 1024 });
    if (!stdout.trim()) throw new Error(`pdftotext read no text from ${file}`);
  }
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    pages: files.length * pagesPerFile,
    files: files.length,
  };
}

const rate = (timing: Timing) => timing.pages / timing.seconds;

function row(label: string, timing: Timing) {
  return `${label.padEnd(28)}${String(timing.files).padStart(7)}${String(timing.pages).padStart(8)}${timing.seconds.toFixed(2).padStart(10)}${rate(timing).toFixed(1).padStart(11)}`;
}

async function main() {
  const count = parseCount(process.argv.slice(2));
  if (!existsSync(PDFTOTEXT)) {
    console.log(
      `pdftotext is not installed at ${PDFTOTEXT} (Debian package poppler-utils); nothing to compare against, skipping.`,
    );
    return;
  }
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-bench-extraction-'));
  try {
    const typed: string[] = [];
    const graphics: string[] = [];
    for (let i = 0; i < count; i++) {
      const typedFile = path.join(folder, `typed-${i}.pdf`);
      await fs.writeFile(
        typedFile,
        await buildTextPdf({
          title: `Lab report ${i + 1}`,
          pages: [answerParagraphs(i, 4), answerParagraphs(i + 1, 4)],
        }),
      );
      typed.push(typedFile);
      const graphicsFile = path.join(folder, `graphics-${i}.pdf`);
      const visible = answerParagraphs(i, 3);
      await fs.writeFile(
        graphicsFile,
        await buildPdfWithHiddenText({ visible, hidden: `Note ${i}: see figure.`, technique: 'covered' }),
      );
      graphics.push(graphicsFile);
    }

    const oursTyped = await timeOurs(typed, 2);
    const popplerTyped = await timePdftotext(typed, 2);
    const oursGraphics = await timeOurs(graphics, 1);
    const popplerGraphics = await timePdftotext(graphics, 1);

    console.log(
      `Text extraction: ${count} files per set, one run on this machine (${os.cpus().length} cores, Node ${process.version}).`,
    );
    console.log(
      `${'set / tool'.padEnd(28)}${'files'.padStart(7)}${'pages'.padStart(8)}${'seconds'.padStart(10)}${'pages/s'.padStart(11)}`,
    );
    console.log(row('typed / gradewise', oursTyped));
    console.log(row('typed / pdftotext', popplerTyped));
    console.log(row('with graphics / gradewise', oursGraphics));
    console.log(row('with graphics / pdftotext', popplerGraphics));
    console.log(`ratio ours/pdftotext (pages/s), typed:         ${(rate(oursTyped) / rate(popplerTyped)).toFixed(2)}`);
    console.log(
      `ratio ours/pdftotext (pages/s), with graphics: ${(rate(oursGraphics) / rate(popplerGraphics)).toFixed(2)}`,
    );
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
    await closeOcr();
  }
}

await main();
