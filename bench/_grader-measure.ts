/**
 * The built-in grader's measurements of every answer of every family, made once per run by the
 * grader's own code (grade-answer.ts), for the fit (_fit-grader-model.ts) and the agreement
 * benchmark (grader-agreement.ts). The sentence vectors are kept between runs in the data folder
 * (`.embeddings-<model>.bin`, never committed), so a second run embeds nothing twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NOTHING_TO_JUDGE } from '../apps/server/src/ai/builtin/answer-status.ts';
import { createBuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import {
  analyseAnswer,
  answerSignals,
  classMeaningOf,
  classSignalsOf,
  questionContextFor,
  textsToEmbed,
} from '../apps/server/src/ai/builtin/grade-answer.ts';
import {
  embedTexts,
  keepEmbeddings,
  rememberEmbeddings,
  rememberedEmbeddings,
  type Embedding,
} from '../apps/server/src/ai/builtin/sentence-embeddings.ts';
import type { AnswerSignals, ClassSignals } from '../apps/server/src/ai/builtin/suggestion-model.ts';
import type { GradingInput, RubricItem } from '../apps/server/src/ai/grader-types.ts';
import { hashSeed, seededRandom } from '../apps/server/src/lib/seeded-random.ts';
import { loadFamilies, shuffled, solutionTextOf, type DatasetQuestion } from './_grading-datasets.ts';

export const POINTS = 5;
/** Answers measured per question at most (seeded sample): ASAP's prompts have 1,700 each. */
export const ANSWERS_PER_QUESTION = 250;

export interface MeasuredAnswer {
  id: string;
  text: string;
  share: number;
  /** Screening found something to judge (not blank, not only the question or words to the grader). */
  isJudged: boolean;
  foldedText: string;
  signals: AnswerSignals;
}

export interface MeasuredQuestion {
  id: string;
  family: string;
  question: DatasetQuestion;
  rubricItems: RubricItem[];
  /** The sampled answers' texts: the class each answer is graded with (GradingInput.classAnswers). */
  classAnswers: string[];
  answers: MeasuredAnswer[];
  /** The class as the models read it (grade-answer.ts classSignalsOf), for its level. */
  classSignals: ClassSignals | null;
}

export interface MeasuredFamily {
  family: string;
  source: { repo: string; commit: string; labels: string };
  questions: MeasuredQuestion[];
}

const grader = createBuiltinGrader();

export async function rubricFor(question: DatasetQuestion): Promise<RubricItem[]> {
  const draftInput = { questionText: question.questionText, solutionText: solutionTextOf(question), points: POINTS };
  const call = await grader.requestRubric(draftInput);
  return grader.interpretRubric(call.rawOutput, draftInput).items;
}

export function gradingInputFor(question: MeasuredQuestion, answerText: string): GradingInput {
  return {
    questionText: question.question.questionText,
    solutionText: solutionTextOf(question.question),
    rubricItems: question.rubricItems,
    points: POINTS,
    answerText,
    examples: [],
    classAnswers: question.classAnswers,
  };
}

const VECTOR_LENGTH = 512;

function readEmbeddingCache(file: string): void {
  if (!fs.existsSync(file)) return;
  const buffer = fs.readFileSync(file);
  let offset = 0;
  const entries: [string, Embedding][] = [];
  while (offset + 4 <= buffer.length) {
    const keyLength = buffer.readUInt32LE(offset);
    offset += 4;
    const key = buffer.toString('utf8', offset, offset + keyLength);
    offset += keyLength;
    const vector = new Float32Array(VECTOR_LENGTH);
    for (let index = 0; index < VECTOR_LENGTH; index++) vector[index] = buffer.readFloatLE(offset + 4 * index);
    offset += 4 * VECTOR_LENGTH;
    entries.push([key, vector]);
  }
  rememberEmbeddings(entries);
}

function writeEmbeddingCache(file: string): void {
  const parts: Buffer[] = [];
  for (const [key, vector] of rememberedEmbeddings()) {
    const keyBytes = Buffer.from(key, 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(keyBytes.length);
    parts.push(header, keyBytes, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}

/** Every family's questions, each answer measured by the grader as it would be when graded. */
export async function measureFamilies(folder: string, only?: readonly string[]): Promise<MeasuredFamily[]> {
  keepEmbeddings(1_000_000);
  const cacheFile = path.join(folder, '.embeddings-use-lite.bin');
  readEmbeddingCache(cacheFile);
  const families = loadFamilies(folder).filter((family) => !only || only.includes(family.family));
  const measured: MeasuredFamily[] = [];
  let sinceSave = 0;
  for (const family of families) {
    const questions: MeasuredQuestion[] = [];
    for (const question of family.questions) {
      const random = seededRandom(hashSeed(`sample:${question.id}`));
      const sample = shuffled(question.answers, random).slice(0, ANSWERS_PER_QUESTION);
      const measuredQuestion: MeasuredQuestion = {
        id: question.id,
        family: family.family,
        question,
        rubricItems: await rubricFor(question),
        classAnswers: sample.map((answer) => answer.text),
        answers: [],
        classSignals: null,
      };
      // One batch of meanings per question: the answers and the question's reference side.
      const base = gradingInputFor(measuredQuestion, '');
      const texts = [...new Set(sample.flatMap((answer) => textsToEmbed({ ...base, answerText: answer.text })))];
      const vectors = await embedTexts(texts);
      sinceSave += texts.length;
      const meaningOf = new Map(texts.map((text, index) => [text.replace(/\s+/g, ' ').trim(), vectors[index]!]));
      const lookup = (text: string) => meaningOf.get(text.replace(/\s+/g, ' ').trim())!;
      const context = questionContextFor(base);
      const classMeaning = classMeaningOf(base, lookup);
      measuredQuestion.classSignals = classSignalsOf(base, context, lookup, classMeaning);
      for (const answer of sample) {
        const input = { ...base, answerText: answer.text };
        const analysis = analyseAnswer(answer.text, input, context);
        measuredQuestion.answers.push({
          id: answer.id,
          text: answer.text,
          share: answer.share,
          isJudged: !NOTHING_TO_JUDGE.has(analysis.status),
          foldedText: analysis.foldedText,
          signals: answerSignals(analysis, input, context, lookup, { classMeaning, answerText: answer.text }),
        });
      }
      questions.push(measuredQuestion);
      if (sinceSave > 2_000) {
        writeEmbeddingCache(cacheFile);
        sinceSave = 0;
      }
    }
    measured.push({ family: family.family, source: family.source, questions });
    process.stderr.write(
      `measured ${family.family}: ${questions.length} questions, ${questions.reduce((sum, q) => sum + q.answers.length, 0)} answers\n`,
    );
  }
  writeEmbeddingCache(cacheFile);
  return measured;
}
