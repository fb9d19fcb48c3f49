import type { z } from 'zod';
import { ProviderCallError } from './call-errors.ts';
import type { GenerateJsonResult, TokenUsage } from './language-model-client.ts';

/**
 * Models behind json_object-only servers like to wrap JSON in ```json fences or a sentence. When
 * the object inside is valid we take it rather than pay for a repair call; anything else is an
 * invalid output with the schema's own complaints, which the repair prompt quotes back.
 */
export function salvageOrReject<T>(
  text: string,
  schema: z.ZodType<T>,
  usage: TokenUsage,
  cause: unknown,
): GenerateJsonResult<T> {
  const parsed = parseJsonLoosely(text);
  if (parsed === undefined) {
    throw new ProviderCallError('invalid-output', 'the answer is not valid JSON', {
      issues: ['the answer is not a valid JSON object'],
      answerText: text,
      usage,
      cause,
    });
  }
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { value: checked.data, text, usage, wasUnwrapped: parsed.wasUnwrapped };
  const issues = checked.error.issues.slice(0, 8).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'answer';
    const said = `${where}: ${issue.message}`;
    // Issues are quoted in the repair prompt and in the error a user reads: short, whatever the answer was.
    return said.length > 300 ? `${said.slice(0, 300)}…` : said;
  });
  throw new ProviderCallError('invalid-output', `the answer does not match the format (${issues[0]})`, {
    issues,
    answerText: text,
    usage,
    cause,
  });
}

function parseJsonLoosely(text: string): { value: unknown; wasUnwrapped: boolean } | undefined {
  try {
    return { value: JSON.parse(text), wasUnwrapped: false };
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return undefined;
    try {
      return { value: JSON.parse(text.slice(start, end + 1)), wasUnwrapped: true };
    } catch {
      return undefined;
    }
  }
}
