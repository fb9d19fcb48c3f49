import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createGrader } from '../ai/create-grader.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { closeExtractionPool, configureExtractionPool } from '../pdf/extraction-pool.ts';
import { gradeJsonl } from './grade-batch.ts';

const USAGE = `Usage: npm run grade -- --in answers.jsonl --out results.jsonl [--concurrency N]

Each input line: { "id", "question", "solution", "answer", "points", "rubric"? }
  question, solution and answer are texts, or paths to PDF files.
  rubric (optional): [{ "criterion", "points", "guidance" }]; drafted by the grader when absent.
Each output line: { "id", "score", "comments", "confidence", "grader" } or { "id", "error" }.
The grader is the one the environment configures (AI_PROVIDER etc.), as for the server.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      in: { type: 'string' },
      out: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.in || !values.out) {
    console.error(`Both --in and --out are required.\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  configureExtractionPool({ threads: config.extractionThreads, heapLimitMb: config.extractionMemoryMb });
  const concurrency = values.concurrency ? Number.parseInt(values.concurrency, 10) : config.gradingConcurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error('--concurrency must be a whole number of at least 1.');
    return 2;
  }
  let inputText: string;
  try {
    inputText = await fs.readFile(values.in, 'utf8');
  } catch {
    console.error(`Cannot read the input file ${values.in}.`);
    return 2;
  }
  const grader = createGrader(config);
  const results = await gradeJsonl(
    grader,
    inputText,
    path.dirname(path.resolve(values.in)),
    concurrency,
    (done, total) => {
      process.stderr.write(`\rgraded ${done}/${total}`);
    },
  );
  process.stderr.write('\n');
  await fs.writeFile(values.out, results.map((line) => JSON.stringify(line)).join('\n') + (results.length ? '\n' : ''));
  const failed = results.filter((line) => line.error).length;
  console.error(`${results.length - failed} graded, ${failed} failed -> ${values.out}`);
  return failed > 0 ? 1 : 0;
}

main()
  .then(async (code) => {
    await closeExtractionPool();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Grading failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    await closeExtractionPool().catch(() => {});
    process.exit(1);
  });
