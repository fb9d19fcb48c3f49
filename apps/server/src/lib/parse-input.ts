import type { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Validates input that did not come through a route schema (multipart text fields) with a contract
 * schema; a failure reads exactly like a JSON body failure: 400 VALIDATION_FAILED, the first
 * issue's sentence as the message, every issue listed.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new AppError('VALIDATION_FAILED', issues[0]?.message ?? 'The form is invalid.', issues);
}
