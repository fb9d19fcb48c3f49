import { z } from 'zod';

/** The path parameters of routes under a question, and under one of its submissions: one home. */
export const QuestionParams = z.object({ assignmentId: z.string(), questionId: z.string() });
export const SubmissionParams = QuestionParams.extend({ submissionId: z.string() });
