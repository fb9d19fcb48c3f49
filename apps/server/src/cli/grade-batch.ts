import { rubricItemId } from '@gradewise/shared/rubric-items';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Grader, GraderMeta, RubricItem } from '../ai/grader-types.ts';
import { extractPdfTextInPool } from '../pdf/extraction-pool.ts';

/**
 * Batch grading for evaluation and bulk work: the same graders and extraction as the server,
 * without the database. One JSON object per input line, one per output line, in input order.
 */

const RubricItemLine = z.object({
  id: z.string().min(1).optional(),
  criterion: z.string().min(1),
  points: z.number().finite().min(0),
  guidance: z.string().default(''),
});

/** A graded answer to the same question: the line is graded as if these were saved grades. */
const ExampleLine = z.object({
  answer: z.string(),
  score: z.number().finite().min(0),
  /** The instructor's comments on that answer: one text or a list. */
  comments: z.union([z.string(), z.array(z.string())]).optional(),
});

export const BatchInputLine = z.object({
  id: z.union([z.string(), z.number()]),
  /** Question text, or a path to a PDF (relative paths resolve against the input file's folder). */
  question: z.string(),
  solution: z.string(),
  answer: z.string(),
  points: z.number().finite().positive(),
  rubric: z.array(RubricItemLine).min(1).optional(),
  examples: z.array(ExampleLine).max(500).optional(),
});
export type BatchInputLine = z.infer<typeof BatchInputLine>;

export interface BatchOutputLine {
  id: string | number | null;
  score?: number;
  comments?: { text: string; pointsDeducted: number; rubricItemId: string | null }[];
  confidence?: number;
  grader?: { kind: GraderMeta['graderKind']; provider: string; model: string; promptVersion: string };
  hiddenText?: string[];
  error?: string;
}

interface ResolvedText {
  text: string;
  hiddenText: string[];
}

/** A value that names an existing .pdf file is read and extracted; anything else is the text itself. */
async function resolveText(value: string, baseDir: string): Promise<ResolvedText> {
  if (!/\.pdf$/i.test(value.trim())) return { text: value, hiddenText: [] };
  const filePath = path.resolve(baseDir, value.trim());
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(filePath);
  } catch {
    return { text: value, hiddenText: [] };
  }
  const extraction = await extractPdfTextInPool(new Uint8Array(bytes));
  return { text: extraction.text, hiddenText: extraction.hiddenText.map((item) => item.text) };
}

export async function gradeLine(grader: Grader, raw: unknown, baseDir: string): Promise<BatchOutputLine> {
  const parsed = BatchInputLine.safeParse(raw);
  const id = (raw as { id?: unknown } | null)?.id;
  const safeId = typeof id === 'string' || typeof id === 'number' ? id : null;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { id: safeId, error: `Invalid line: ${issue?.path.join('.') || 'line'} ${issue?.message ?? 'is invalid'}` };
  }
  const line = parsed.data;
  const outOfRange = (line.examples ?? []).findIndex((example) => example.score > line.points);
  if (outOfRange >= 0) {
    return {
      id: line.id,
      error: `Invalid line: examples.${outOfRange}.score must be between 0 and ${line.points} (the line's points)`,
    };
  }
  try {
    const [question, solution, answer] = await Promise.all([
      resolveText(line.question, baseDir),
      resolveText(line.solution, baseDir),
      resolveText(line.answer, baseDir),
    ]);
    const rubricItems: RubricItem[] = line.rubric
      ? line.rubric.map((item, index) => ({ ...item, id: item.id ?? rubricItemId(index + 1) }))
      : await draftRubric(grader, question.text, solution.text, line.points);
    const input = {
      questionText: question.text,
      solutionText: solution.text,
      rubricItems,
      points: line.points,
      answerText: answer.text,
      examples: (line.examples ?? []).map((example) => ({
        answerText: example.answer,
        score: example.score,
        comments: [example.comments ?? []].flat().map((text) => ({ text, pointsDeducted: 0, rubricItemId: null })),
        suggestedScore: null,
      })),
    };
    const call = await grader.requestGrading(input);
    const suggestion = grader.interpretGrading(call.rawOutput, input);
    return {
      id: line.id,
      score: suggestion.totalScore,
      comments: suggestion.comments,
      confidence: suggestion.confidence,
      grader: {
        kind: call.meta.graderKind,
        provider: call.meta.provider,
        model: call.meta.model,
        promptVersion: call.meta.promptVersion,
      },
      ...(answer.hiddenText.length > 0 ? { hiddenText: answer.hiddenText } : {}),
    };
  } catch (error) {
    return { id: line.id, error: error instanceof Error ? error.message : String(error) };
  }
}

async function draftRubric(
  grader: Grader,
  questionText: string,
  solutionText: string,
  points: number,
): Promise<RubricItem[]> {
  const input = { questionText, solutionText, points };
  const call = await grader.requestRubric(input);
  return grader.interpretRubric(call.rawOutput, input).items;
}

/** Grades every line with at most `concurrency` in flight; output order follows input order. */
export async function gradeJsonl(
  grader: Grader,
  inputText: string,
  baseDir: string,
  concurrency: number,
  onProgress?: (done: number, total: number) => void,
): Promise<BatchOutputLine[]> {
  const lines = inputText.split(/\r?\n/).filter((line) => line.trim() !== '');
  const results: BatchOutputLine[] = new Array(lines.length);
  let next = 0;
  let done = 0;
  const workerCount = Math.max(1, Math.min(concurrency, lines.length));
  await Promise.all(
    Array.from({ length: workerCount }, async () => {
      while (next < lines.length) {
        const index = next;
        next += 1;
        let raw: unknown;
        try {
          raw = JSON.parse(lines[index]!);
        } catch {
          results[index] = { id: null, error: `Line ${index + 1} is not valid JSON.` };
          done += 1;
          onProgress?.(done, lines.length);
          continue;
        }
        results[index] = await gradeLine(grader, raw, baseDir);
        done += 1;
        onProgress?.(done, lines.length);
      }
    }),
  );
  return results;
}
