import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { GradingInput } from '../../grader-types.ts';

/**
 * The development set: questions with solutions, instructor rubrics and student answers scored by
 * a human. `dev` is for tuning; `holdout` was written first and is only ever reported.
 */

const DevAnswerSchema = z.object({
  id: z.string(),
  label: z.string(),
  answerText: z.string(),
  humanScore: z.number().nonnegative(),
});

const DevQuestionSchema = z.object({
  id: z.string(),
  subject: z.string(),
  kind: z.string(),
  questionText: z.string(),
  solutionText: z.string(),
  points: z.number().positive(),
  rubricItems: z.array(z.object({ id: z.string(), criterion: z.string(), points: z.number(), guidance: z.string() })),
  answers: z.array(DevAnswerSchema).min(1),
});

const DevSetSchema = z.object({
  split: z.enum(['dev', 'holdout']),
  description: z.string(),
  questions: z.array(DevQuestionSchema).min(1),
});

export type DevQuestion = z.infer<typeof DevQuestionSchema>;
export type DevAnswer = z.infer<typeof DevAnswerSchema>;
export type DevSplit = 'dev' | 'holdout';

export function loadDevSet(split: DevSplit): DevQuestion[] {
  const file = new URL(`./${split}.json`, import.meta.url);
  const parsed = DevSetSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  for (const question of parsed.questions) {
    const total = question.rubricItems.reduce((sum, item) => sum + item.points, 0);
    if (Math.abs(total - question.points) > 1e-9) throw new Error(`${question.id}: rubric points do not add up`);
    for (const answer of question.answers)
      if (answer.humanScore > question.points) throw new Error(`${answer.id}: human score above the points`);
  }
  return parsed.questions;
}

export function gradingInputFor(question: DevQuestion, answer: DevAnswer): GradingInput {
  return {
    questionText: question.questionText,
    solutionText: question.solutionText,
    rubricItems: question.rubricItems,
    points: question.points,
    answerText: answer.answerText,
  };
}
