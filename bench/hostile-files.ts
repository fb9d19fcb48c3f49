/**
 * Hostile files: what they cost the server in memory, and how long a light request waits while
 * they are read, in one run on this machine.
 *
 *   npx tsx bench/hostile-files.ts [--bombs 2] [--bomb-mb 512] [--timeout-ms 120000] [--quick] [--only-fairness]
 *     [--kinds nested,damaged,forms] [--no-file-budget] [--rounds 9]
 *
 * Files (built first, before any measurement):
 * - the XFD spreadsheet: 10,000 rows with one email cell at column XFD (about 80 KB);
 * - flate bombs: PDFs whose one content stream inflates to --bomb-mb MB (about 500 KB each);
 * - an operator bomb: a PDF whose page nests 100,000 graphics states (pdf.js needs minutes);
 * - issue 28's files: the 400 KB deeply nested PDF (100,000 `q` then 100,000 `Q`, not
 *   compressed), the ~620-byte damaged one (the same nesting deflated, no cross-reference table),
 *   and one whose nesting no single stream shows (60 chained forms of 1,000 levels: counted
 *   through the forms before pdf.js reads it since decision 0090; the pool's per-page CPU budget
 *   stopped it before);
 * - with --kinds (decision 0096; default the issue's three: nested,damaged,forms): forms-ascii85 and
 *   forms-lzw, the forms file written with those filters (counted through since decision 0096, the
 *   per-page CPU budget before); slow-pages, 50 pages that each draw 7 chained forms of 1,000 levels
 *   written with a PNG predictor (counted through since decision 0100; before, each page cost pdf.js
 *   about 1.5-3 s of CPU, under the 5 s page budget, and only the whole file's budget or the time
 *   limit stopped it); slow-pages-by-reference, the same with the predictor's parameters in an
 *   object of their own, followed by the counts since decision 0102 (before, the CPU budgets or the
 *   time limit stopped it; --no-file-budget: the time limit alone, as before decision 0096);
 *   slow-pages-abbreviated and slow-pages-escaped, the same 50 pages with the forms' filters and
 *   parameters under /F and /DP, or every name written with a `#xx` escape (`/F#69lter`), read by
 *   the counts as pdf.js reads them since decision 0102's "Names and /F" (before, the CPU budgets);
 *   decision 0106's: slow-pages-disguised, 50 pages whose content streams nest 7,000 levels each
 *   and carry a font program's /Length1; nested-disguised, the deeply nested file whose content
 *   stream says /Type /Metadata; slow-pages-split-untyped, 50 pages of 7,000 levels each whose
 *   contents are four streams of 1,750 (the levels one leaves open, the next starts from) and
 *   whose dictionaries have no /Type; slow-pages-subtype-by-reference, slow-pages with each form's
 *   /Subtype in an object of its own; slow-pages-misleading-first, slow-pages-by-reference packed
 *   in object streams whose dictionaries carry a second /First before their own;
 *   slow-pages-predictor-name, slow-pages with /Predictor written as a name (/Up), which pdf.js
 *   takes for a PNG predictor (each counted since decision 0106; before, the CPU budgets).
 *   decision 0108's (apps/server/src/demo/pdf-structures.ts, written by hand): slow-pages-duplicates,
 *   50 pages of 7 chained forms of 1,000 levels, each form defined a second time, harmless, after
 *   the end of the file (pdf.js follows the cross-reference table to the first); slow-pages-packed-
 *   streams, the forms packed inside an object stream (pdf.js reads streams there); slow-pages-
 *   nested-object-streams, that object stream inside another; slow-pages-encrypted, every stream
 *   encrypted with AES-256 and an empty user password (pdf.js opens it without asking);
 *   slow-pages-image-filtered, 50 pages whose contents nest 7,000 levels written as a CCITT fax
 *   image (pdf.js decodes it and reads the bits as drawing instructions).
 *   decision 0113's: slow-pages-repeated-form, 50 pages that each draw one form of 1,990 levels
 *   (within the nesting limit) 600 times, 2.4 million operations a page; slow-pages-repeated-forms,
 *   50 pages that each draw a form 40 times that draws a form of 1,000 levels 40 times, 3.2 million
 *   (each refused by the counts' drawing work since decision 0113; before, the CPU budgets).
 *
 * Issue 28, "one hostile file cannot stall the class" (--only-fairness runs only this part): a
 * normal answer's grade (the answer submitted just before, so its text is read by the grade) and
 * a rubric draft (a new question, its PDFs read by the draft) are timed on the idle server (the
 * reference), then again right after three students each uploaded a hostile file, in 9 paired
 * rounds for each kind of hostile file (--rounds; 1 with --quick). Printed: the medians, their ratio to the
 * idle ones (the goal: at most 2), and how long the hostile files took from upload to refusal,
 * with their message (the goal: each within 30 s).
 *
 * References measured in the same run (the old code paths, kept callable):
 * - the spreadsheet parsed on the server's own thread with the old limits (no column or cell cap),
 *   while a light request waits for the event loop;
 * - the flate bombs read by an extraction pool that keeps its threads whatever they hold (no
 *   recycling) and has no heap limit (nor a CPU budget per page).
 * Then the real server (openRuntime + the HTTP app on a temporary PGlite directory, default
 * settings except EXTRACTION_TIMEOUT_MS and MAX_SUBMISSION_VERSIONS): issue 28's rounds (below);
 * the spreadsheet uploaded to add-students/excel; the bombs submitted as a student and read by the
 * extract-text job; the operator bomb submitted (refused before pdf.js reads it since issue 28, by
 * the time limit before), then graded (the second read answers from the stored file fault).
 *
 * For each step it prints the process RSS before, at its peak (sampled every 20 ms) and after
 * (2 s after the step, threads ended), and how long light requests (GET /api/courses, one after
 * the other) took while the step ran: the longest wait and the median.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openRuntime, type Runtime } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/http/app.ts';
import {
  closeExtractionPool,
  configureExtractionPool,
  ExtractionPool,
  extractionPoolStats,
} from '../apps/server/src/pdf/extraction-pool.ts';
import { structureCheckStats } from '../apps/server/src/pdf/structure-check.ts';
import {
  buildDamagedNestedPdf,
  buildFlateBombPdf,
  buildNestedFormsPdf,
  buildNestedStatesPdf,
  buildOperatorBombPdf,
  buildTextPdf,
} from '../apps/server/src/demo/pdf-documents.ts';
import {
  buildImageFilteredPdf,
  buildRawFormsPdf,
  buildRepeatedFormPdf,
} from '../apps/server/src/demo/pdf-structures.ts';
import {
  readEmailsFromSpreadsheet,
  ROSTER_SPREADSHEET_LIMITS,
} from '../apps/server/src/spreadsheets/read-roster-spreadsheet.ts';
import { makeZip, xlsxParts } from '../apps/server/test/support/files.ts';

const { values: flags } = parseArgs({
  options: {
    bombs: { type: 'string' },
    'bomb-mb': { type: 'string' },
    'timeout-ms': { type: 'string' },
    quick: { type: 'boolean', default: false },
    'only-fairness': { type: 'boolean', default: false },
    kinds: { type: 'string' },
    'no-file-budget': { type: 'boolean', default: false },
    rounds: { type: 'string' },
  },
  strict: false,
});
const BOMBS = Number(flags.bombs ?? (flags.quick ? 1 : 2));
const BOMB_MB = Number(flags['bomb-mb'] ?? (flags.quick ? 256 : 512));
// The product's default (EXTRACTION_TIMEOUT_MS): no hostile file here needs the time limit to end.
const TIMEOUT_MS = Number(flags['timeout-ms'] ?? 120_000);
const ONLY_FAIRNESS = flags['only-fairness'] === true;
const KINDS = String(flags.kinds ?? 'nested,damaged,forms').split(',');
const NO_FILE_BUDGET = flags['no-file-budget'] === true;
/**
 * Rounds of each issue 28 measurement (idle, and under each kind of hostile file): 9 since decision
 * 0100 (5 before), as idle medians of 50-300 ms on a shared machine moved past 2 x with one stall.
 */
const ROUNDS = Number(flags.rounds ?? (flags.quick ? 1 : 9));
for (const [name, value] of [
  ['--bombs', BOMBS],
  ['--bomb-mb', BOMB_MB],
  ['--timeout-ms', TIMEOUT_MS],
  ['--rounds', ROUNDS],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive whole number.`);
    process.exit(2);
  }
}

const MB = 1024 * 1024;
const rssMb = () => Math.round(process.memoryUsage().rss / MB);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const roundsOf = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)]!;
};

interface StepResult {
  name: string;
  before: number;
  peak: number;
  after: number;
  lightMaxMs: number;
  lightMedianMs: number;
  lightCount: number;
  seconds: number;
  outcome: string;
}
const results: StepResult[] = [];

/** Runs `work` while sampling RSS and sending light requests one after the other; records the step. */
async function measure(
  name: string,
  light: () => Promise<void>,
  work: () => Promise<string | { outcome: string; lightMs: number[] }>,
): Promise<void> {
  await pause(500);
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 20);
  let isRunning = true;
  const latencies: number[] = [];
  const prober = (async () => {
    while (isRunning) {
      const started = performance.now();
      await light();
      latencies.push(performance.now() - started);
      await pause(50);
    }
  })();
  const started = performance.now();
  let outcome: string;
  try {
    const done = await work();
    if (typeof done === 'string') outcome = done;
    else {
      outcome = done.outcome;
      latencies.push(...done.lightMs);
    }
  } finally {
    isRunning = false;
  }
  const seconds = (performance.now() - started) / 1000;
  await prober;
  await pause(2_000);
  clearInterval(sampler);
  peak = Math.max(peak, rssMb());
  const result = {
    name,
    before,
    peak,
    after: rssMb(),
    lightMaxMs: Math.round(Math.max(0, ...latencies)),
    lightMedianMs: Math.round(median(latencies)),
    lightCount: latencies.length,
    seconds,
    outcome,
  };
  results.push(result);
  console.log(
    `${name}: RSS ${result.before} -> peak ${result.peak} -> after ${result.after} MB; ` +
      `light request max ${result.lightMaxMs} ms, median ${result.lightMedianMs} ms (${result.lightCount}); ` +
      `${seconds.toFixed(1)} s; ${outcome}`,
  );
}

class Api {
  constructor(
    private readonly baseUrl: string,
    private token = '',
  ) {}

  as(token: string) {
    return new Api(this.baseUrl, token);
  }

  async call<T = any>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
    const isForm = body instanceof FormData;
    const response = await fetch(this.baseUrl + url, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async ok<T = any>(method: string, url: string, body?: unknown): Promise<T> {
    const { status, body: answer } = await this.call<T>(method, url, body);
    if (status >= 300) throw new Error(`${method} ${url} answered ${status}: ${JSON.stringify(answer)}`);
    return answer;
  }
}

const form = (fields: Record<string, string | { bytes: Uint8Array; name: string; type: string }>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(key, value);
    else data.append(key, new Blob([value.bytes], { type: value.type }), value.name);
  }
  return data;
};
const pdfFile = (bytes: Uint8Array, name = 'answer.pdf') => ({ bytes, name, type: 'application/pdf' });

async function main(): Promise<void> {
  console.log(
    `Hostile files: ${BOMBS} flate bomb(s) of ${BOMB_MB} MB, operator bomb of 100,000 nested states, ` +
      `EXTRACTION_TIMEOUT_MS ${TIMEOUT_MS}${NO_FILE_BUDGET ? ', no CPU budget for the whole file' : ''}; ${os.cpus().length} cores, Node ${process.version}, ` +
      `load average ${os.loadavg()[0]!.toFixed(1)} at start.`,
  );

  // ---------------------------------------------------------------- files
  const xfdRows = Array.from(
    { length: 10_000 },
    (_, i) => `<row r="${i + 1}"><c r="XFD${i + 1}" t="inlineStr"><is><t>s${i}@example.edu</t></is></c></row>`,
  ).join('');
  const xfdSheet = makeZip(
    xlsxParts(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xfdRows}</sheetData></worksheet>`,
    ),
  );
  const flateBombs = await Promise.all(Array.from({ length: BOMBS }, () => buildFlateBombPdf({ decodedMb: BOMB_MB })));
  const operatorBomb = await buildOperatorBombPdf(100_000);
  const typed = await buildTextPdf({ paragraphs: ['Osmosis is the movement of water across a membrane.'] });
  const allKinds: Record<string, { name: string; bytes: () => Promise<Uint8Array> }> = {
    nested: { name: 'deeply nested', bytes: () => buildNestedStatesPdf(100_000) },
    damaged: { name: 'damaged', bytes: async () => new Uint8Array(buildDamagedNestedPdf(75_000)) },
    forms: { name: 'nested through forms', bytes: () => buildNestedFormsPdf(60, 1_000) },
    'forms-ascii85': {
      name: 'nested through ASCII85 forms',
      bytes: () => buildNestedFormsPdf(60, 1_000, { encoding: 'ascii85' }),
    },
    'forms-lzw': { name: 'nested through LZW forms', bytes: () => buildNestedFormsPdf(60, 1_000, { encoding: 'lzw' }) },
    'slow-pages': {
      name: '50 slow pages',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'png-predicted', pages: 50 }),
    },
    'slow-pages-by-reference': {
      name: '50 slow pages, parameters by reference',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'predicted-by-reference', pages: 50 }),
    },
    'slow-pages-abbreviated': {
      name: '50 slow pages, filters under /F',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'png-predicted', pages: 50, spelling: 'abbreviated' }),
    },
    'slow-pages-escaped': {
      name: '50 slow pages, names escaped',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'png-predicted', pages: 50, spelling: 'escaped' }),
    },
    'slow-pages-disguised': {
      name: '50 slow pages, contents disguised as font programs',
      bytes: () => buildNestedStatesPdf(7_000, { pages: 50, disguise: 'font-program' }),
    },
    'nested-disguised': {
      name: 'deeply nested, contents disguised as metadata',
      bytes: () => buildNestedStatesPdf(100_000, { disguise: 'metadata' }),
    },
    'slow-pages-split-untyped': {
      name: '50 slow pages, contents in four streams, pages without /Type',
      bytes: () => buildNestedStatesPdf(7_000, { pages: 50, split: 4 }),
    },
    'slow-pages-subtype-by-reference': {
      name: '50 slow pages, /Subtype by reference',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'png-predicted', pages: 50, subtypeByReference: true }),
    },
    'slow-pages-misleading-first': {
      name: '50 slow pages, a misleading /First',
      bytes: () =>
        buildNestedFormsPdf(7, 1_000, {
          encoding: 'predicted-by-reference',
          pages: 50,
          objectStreams: true,
          misleadingFirst: true,
        }),
    },
    'slow-pages-predictor-name': {
      name: '50 slow pages, /Predictor a name',
      bytes: () => buildNestedFormsPdf(7, 1_000, { encoding: 'png-predicted', pages: 50, predictor: 'name' }),
    },
    'slow-pages-duplicates': {
      name: '50 slow pages, each form defined again harmless after the end',
      bytes: async () => buildRawFormsPdf(7, 1_000, { pages: 50, duplicates: 'after-end' }),
    },
    'slow-pages-packed-streams': {
      name: '50 slow pages, the forms packed in an object stream',
      bytes: async () => buildRawFormsPdf(7, 1_000, { pages: 50, packing: 'object-stream' }),
    },
    'slow-pages-nested-object-streams': {
      name: '50 slow pages, the forms in an object stream inside an object stream',
      bytes: async () => buildRawFormsPdf(7, 1_000, { pages: 50, packing: 'nested-object-streams' }),
    },
    'slow-pages-encrypted': {
      name: '50 slow pages, encrypted (AES-256, empty user password)',
      bytes: async () => buildRawFormsPdf(7, 1_000, { pages: 50, encryption: 'aes-256' }),
    },
    'slow-pages-image-filtered': {
      name: '50 slow pages, contents written as a CCITT fax image',
      bytes: async () => buildImageFilteredPdf(7_000, { pages: 50 }),
    },
    'slow-pages-repeated-form': {
      name: '50 slow pages, each drawing a form of 1,990 levels 600 times',
      bytes: async () => buildRepeatedFormPdf(1_990, 600, { pages: 50 }),
    },
    'slow-pages-repeated-forms': {
      name: '50 slow pages, each drawing 40 times a form drawing 40 times one of 1,000 levels',
      bytes: async () => buildRepeatedFormPdf(1_000, [40, 40], { pages: 50 }),
    },
  };
  const hostileKinds: { name: string; bytes: Uint8Array }[] = [];
  for (const key of KINDS) {
    const kind = allKinds[key];
    if (!kind) {
      console.error(`--kinds: no kind ${key} (${Object.keys(allKinds).join(', ')}).`);
      process.exit(2);
    }
    hostileKinds.push({ name: kind.name, bytes: await kind.bytes() });
  }
  console.log(
    `files: XFD spreadsheet ${Math.round(xfdSheet.length / 1024)} KB, flate bomb ${Math.round(flateBombs[0]!.byteLength / 1024)} KB, ` +
      `operator bomb ${Math.round(operatorBomb.byteLength / 1024)} KB, ` +
      hostileKinds.map((kind) => `${kind.name} ${kind.bytes.byteLength} bytes`).join(', '),
  );

  // ---------------------------------------------------------------- the server
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-bench-hostile-'));
  let runtime: Runtime | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EXTRACTION_TIMEOUT_MS: String(TIMEOUT_MS),
      // Issue 28's rounds submit one question's answer many times, and grade and draft more than
      // 60 times a minute once the hostile files are refused at once (decision 0100).
      MAX_SUBMISSION_VERSIONS: '1000',
      AI_USER_CALLS_PER_MINUTE: '100000',
    });
    configureExtractionPool({
      threads: config.extractionThreads,
      heapLimitMb: config.extractionMemoryMb,
      warm: true,
      // As before decision 0096: no budget for the whole file.
      ...(NO_FILE_BUDGET ? { cpuPerFileMs: Number.POSITIVE_INFINITY } : {}),
    });
    runtime = await openRuntime(config);
    app = await buildApp(runtime.ctx);
    const api = new Api(await app.listen({ host: '127.0.0.1', port: 0 }));
    let accounts = 0;
    const register = async (role: string, name: string): Promise<{ token: string; user: { email: string } }> => {
      accounts += 1;
      const credentials = { email: `${role}.${accounts}.${Date.now()}@bench.example`, password: 'bench-password-123' };
      const registered = await api.ok('POST', '/api/auth/register', { name, role, ...credentials });
      // Registration answers a token, or (without email delivery) asks the caller to sign in next.
      return registered.token ? registered : await api.ok('POST', '/api/auth/login', credentials);
    };
    const instructorAccount = await register('instructor', 'Bench Instructor');
    const studentAccount = await register('student', 'Bench Student');
    const attackerAccounts = [];
    for (const index of [1, 2, 3]) attackerAccounts.push(await register('student', `Bench Attacker ${index}`));
    const instructor = api.as(instructorAccount.token);
    const student = api.as(studentAccount.token);
    const attackers = attackerAccounts.map((account) => api.as(account.token));
    const { course } = await instructor.ok('POST', '/api/courses', form({ title: 'Hostile files' }));
    await instructor.ok('POST', `/api/courses/${course._id}/add-students`, {
      emails: [studentAccount, ...attackerAccounts].map((account) => account.user.email),
    });
    const { assignment } = await instructor.ok('POST', '/api/assignments', {
      title: 'Homework',
      courseId: course._id,
      deadline: null,
    });
    const { question } = await instructor.ok(
      'POST',
      `/api/assignments/${assignment._id}/questions`,
      form({ title: 'Q1', points: '10', questionFile: pdfFile(typed, 'question.pdf') }),
    );
    const questionUrl = `/api/assignments/${assignment._id}/questions/${question._id}`;
    await instructor.ok('PATCH', `${questionUrl}/save-rubric`, {
      questionText: 'What is osmosis?',
      solutionText: 'The movement of water across a membrane.',
    });
    const light = async () => {
      const { status } = await instructor.call('GET', '/api/courses');
      if (status !== 200) throw new Error(`the light request answered ${status}`);
    };
    // Warm up: the extraction thread and the routes, before measuring.
    await student.ok('POST', `${questionUrl}/submit`, form({ file: pdfFile(typed) }));
    await waitForExtractions(runtime);

    // ---------------------------------------------------------------- issue 28: fairness
    let questionNumber = 1;
    /**
     * Where each grade's time went (decision 0096): its grading run from queued to finished (job
     * pickup, the answer's text, the grader), of that the answer's text (its extraction row, from
     * the upload to stored), and the pool's calls moved off a low-priority thread meanwhile.
     */
    let gradeParts: { runMs: number; textMs: number; moved: number } = { runMs: NaN, textMs: NaN, moved: 0 };
    /** A normal answer submitted and graded at once: the time of the grade request (its text is read by it). */
    const timeGrade = async (): Promise<number> => {
      const { submission } = await student.ok('POST', `${questionUrl}/submit`, form({ file: pdfFile(typed) }));
      const movedBefore = extractionPoolStats().moved;
      const started = performance.now();
      await instructor.ok('POST', `${questionUrl}/grade/${submission._id}`);
      const ms = performance.now() - started;
      const { rows } = await runtime!.ctx.database.executeSql(
        `SELECT EXTRACT(EPOCH FROM (r.finished_at - r.created_at)) * 1000 AS "runMs",
                EXTRACT(EPOCH FROM (e.finished_at - e.created_at)) * 1000 AS "textMs"
           FROM grading_runs r JOIN submissions s ON s.id = r.submission_id
           JOIN file_extractions e ON e.file_id = s.file_id
          WHERE r.submission_id = $1 ORDER BY r.created_at DESC LIMIT 1`,
        [submission._id],
      );
      const row = rows[0] as { runMs: number | string; textMs: number | string } | undefined;
      gradeParts = {
        runMs: Number(row?.runMs),
        textMs: Number(row?.textMs),
        moved: extractionPoolStats().moved - movedBefore,
      };
      return ms;
    };
    /** A rubric drafted for a new question: the time of the generate-rubric request (its PDFs are read by it). */
    const timeDraft = async (): Promise<number> => {
      questionNumber += 1;
      const { question: fresh } = await instructor.ok(
        'POST',
        `/api/assignments/${assignment._id}/questions`,
        form({
          title: `Q${questionNumber}`,
          points: '10',
          questionFile: pdfFile(
            await buildTextPdf({ paragraphs: [`Question ${questionNumber}: explain osmosis in one sentence.`] }),
            'question.pdf',
          ),
          solutionFile: pdfFile(typed, 'solution.pdf'),
        }),
      );
      const started = performance.now();
      await instructor.ok('POST', `/api/assignments/${assignment._id}/questions/${fresh._id}/generate-rubric`);
      return performance.now() - started;
    };
    for (let round = 0; round < 2; round += 1) {
      await timeGrade();
      await timeDraft();
    }
    const fairness: string[] = [];
    for (const kind of hostileKinds) {
      const idle = { grades: [] as number[], drafts: [] as number[], parts: [] as (typeof gradeParts)[] };
      const hostile = { grades: [] as number[], drafts: [] as number[], parts: [] as (typeof gradeParts)[] };
      const refusals: Awaited<ReturnType<typeof waitForRefusals>> = [];
      // Paired rounds: an answer graded and a rubric drafted on the idle server (the reference),
      // then again right after three students upload one hostile file each; the round ends when
      // the three are refused.
      for (let round = 0; round < ROUNDS; round += 1) {
        await waitForExtractions(runtime);
        idle.grades.push(await timeGrade());
        idle.parts.push(gradeParts);
        idle.drafts.push(await timeDraft());
        await waitForExtractions(runtime);
        const hostileIds: string[] = [];
        for (const attacker of attackers) {
          const { submission } = await attacker.ok(
            'POST',
            `${questionUrl}/submit`,
            form({ file: pdfFile(kind.bytes) }),
          );
          hostileIds.push(submission._id);
        }
        hostile.grades.push(await timeGrade());
        hostile.parts.push(gradeParts);
        hostile.drafts.push(await timeDraft());
        refusals.push(...(await waitForRefusals(runtime, hostileIds)));
      }
      const [idleGrade, idleDraft] = [median(idle.grades), median(idle.drafts)];
      const [grade, draft] = [median(hostile.grades), median(hostile.drafts)];
      const line =
        `three ${kind.name} PDFs (${kind.bytes.byteLength} bytes), medians of ${ROUNDS} paired rounds: ` +
        `grade ${Math.round(grade)} ms against ${Math.round(idleGrade)} ms idle = ${(grade / idleGrade).toFixed(2)} x ` +
        `(${roundsOf(hostile.grades)} against ${roundsOf(idle.grades)}), ` +
        `rubric draft ${Math.round(draft)} ms against ${Math.round(idleDraft)} ms idle = ${(draft / idleDraft).toFixed(2)} x ` +
        `(${roundsOf(hostile.drafts)} against ${roundsOf(idle.drafts)}); ` +
        `each refused within ${(Math.max(...refusals.map((refusal) => refusal.ms)) / 1000).toFixed(1)} s of its upload ` +
        `(median ${(median(refusals.map((refusal) => refusal.ms)) / 1000).toFixed(1)} s): ` +
        [...new Set(refusals.map((refusal) => `${refusal.code}: ${refusal.message}`))].join(' | ');
      const partsOf = (parts: (typeof gradeParts)[]) =>
        `run ${roundsOf(parts.map((part) => part.runMs))}, text ${roundsOf(parts.map((part) => part.textMs))}, ` +
        `moved ${parts.map((part) => part.moved).join(', ')}`;
      console.log(line);
      console.log(`  grades' parts (ms), hostile: ${partsOf(hostile.parts)}; idle: ${partsOf(idle.parts)}`);
      fairness.push(line);
    }
    if (ONLY_FAIRNESS) {
      console.log(`\nIssue 28 (load average ${os.loadavg()[0]!.toFixed(1)} at the end):`);
      for (const line of fairness) console.log(`- ${line}`);
      console.log(`extraction pool: ${JSON.stringify(extractionPoolStats())}`);
      console.log(`structure check (decision 0100): ${JSON.stringify(structureCheckStats())}`);
      return;
    }

    // ---------------------------------------------------------------- spreadsheet
    await measure('XFD spreadsheet, old: parsed on the server thread (reference)', light, async () => {
      // A light request is sent as the parse starts: it is answered when the parse lets go.
      const started = performance.now();
      const inFlight = light().then(() => performance.now() - started);
      await pause(20);
      const emails = readEmailsFromSpreadsheet(xfdSheet, {
        ...ROSTER_SPREADSHEET_LIMITS,
        maxColumns: 16_384,
        maxCells: Number.POSITIVE_INFINITY,
      });
      const waitedMs = await inFlight;
      return {
        outcome: `${emails.length} entries read; a request sent as it started waited ${Math.round(waitedMs)} ms`,
        lightMs: [waitedMs],
      };
    });
    await measure('XFD spreadsheet, now: add-students/excel', light, async () => {
      const { status, body } = await instructor.call(
        'POST',
        `/api/courses/${course._id}/add-students/excel`,
        form({
          excelFile: {
            bytes: xfdSheet,
            name: 'roster.xlsx',
            type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          },
        }),
      );
      return `${status}: ${body.message}`;
    });

    // ---------------------------------------------------------------- flate bombs
    // As before issue 28 too: no CPU budget per page.
    const reference = new ExtractionPool({
      threads: 1,
      recycleAboveMb: Number.POSITIVE_INFINITY,
      cpuPerPageMs: Number.POSITIVE_INFINITY,
    });
    await measure(`${BOMBS} flate bomb(s), old: threads kept, no heap limit (reference)`, light, async () => {
      const outcomes: string[] = [];
      for (const bomb of flateBombs) {
        // No unpacked-size check, as before stream-guard.ts.
        await reference.extractPdfText(bomb.slice(), { streamLimits: null }).then(
          () => outcomes.push('read'),
          (error: Error) => outcomes.push(error.message),
        );
      }
      return `${outcomes.join(', ')}; ${reference.stats().threads} thread(s) still holding what they read`;
    });
    await reference.close();
    await measure('  (reference pool closed)', light, async () => 'threads ended');

    await measure(`${BOMBS} flate bomb(s), now: submitted, read by the extract-text job`, light, async () => {
      for (const bomb of flateBombs) await student.ok('POST', `${questionUrl}/submit`, form({ file: pdfFile(bomb) }));
      const rows = (await waitForExtractions(runtime!)).slice(-BOMBS);
      return rows.map((row) => `${row.status} (${row.errorCode})`).join(', ');
    });

    // ---------------------------------------------------------------- operator bomb
    let submissionId = '';
    await measure('operator bomb, first read (refused before pdf.js reads it)', light, async () => {
      const { submission } = await student.ok('POST', `${questionUrl}/submit`, form({ file: pdfFile(operatorBomb) }));
      submissionId = submission._id;
      const rows = await waitForExtractions(runtime!);
      const row = rows.at(-1)!;
      return `${row.status} (${row.errorCode})`;
    });
    await measure('operator bomb, next read (grade): the stored file fault', light, async () => {
      const started = performance.now();
      const { status, body } = await instructor.call('POST', `${questionUrl}/grade/${submissionId}`);
      return `${status} in ${Math.round(performance.now() - started)} ms: ${body.message}`;
    });
  } finally {
    await app?.close().catch(() => {});
    await runtime?.shutdown().catch(() => {});
    await closeExtractionPool();
    await fs.rm(dataDir, { recursive: true, force: true });
  }

  console.log(`extraction pool: ${JSON.stringify(extractionPoolStats())}`);
  console.log('\n| step | RSS before | peak | after (MB) | light request max / median (ms) | time | outcome |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const result of results) {
    console.log(
      `| ${result.name} | ${result.before} | ${result.peak} | ${result.after} | ${result.lightMaxMs} / ${result.lightMedianMs} | ${result.seconds.toFixed(1)} s | ${result.outcome} |`,
    );
  }
}

/**
 * Waits until the files of these submissions are settled; answers, for each, the time from its
 * upload to its refusal (the row's created_at to finished_at) with its code and message.
 */
async function waitForRefusals(runtime: Runtime, submissionIds: string[]) {
  for (;;) {
    const { rows } = await runtime.ctx.database.executeSql(
      `SELECT e.status, e.error_code AS "code", e.error AS "message",
              EXTRACT(EPOCH FROM (e.finished_at - e.created_at)) * 1000 AS "ms"
         FROM submissions s JOIN file_extractions e ON e.file_id = s.file_id
        WHERE s.id IN (${submissionIds.map((_, index) => `$${index + 1}`).join(', ')})`,
      submissionIds,
    );
    const settled = rows as { status: string; code: string | null; message: string | null; ms: number | string }[];
    if (
      settled.length === submissionIds.length &&
      settled.every((row) => row.status === 'succeeded' || row.status === 'failed')
    ) {
      return settled.map((row) => ({ code: row.code, message: row.message, ms: Number(row.ms) }));
    }
    await pause(100);
  }
}

/** Waits until no extraction is queued or being read; answers every extraction row, oldest first. */
async function waitForExtractions(runtime: Runtime) {
  for (;;) {
    const { rows } = await runtime.ctx.database.executeSql(
      'SELECT status, error_code AS "errorCode" FROM file_extractions ORDER BY created_at, file_id',
      [],
    );
    if (rows.every((row) => row.status === 'succeeded' || row.status === 'failed')) {
      return rows as { status: string; errorCode: string | null }[];
    }
    await pause(100);
  }
}

await main();
