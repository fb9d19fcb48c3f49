import type { JSONSchema7 } from 'ai';
import type * as AiSdk from 'ai';
import type { z } from 'zod';

/**
 * The JSON Schema sent to the provider keeps only what every structured-output implementation
 * accepts: types, enums, required fields, closed objects. Numeric, length and item-count limits
 * are rejected by some (OpenAI strict mode has refused minLength, older snapshots minimum/minItems;
 * Anthropic refuses numeric limits), and a 400 there would fail EVERY call, so they move into the
 * field's description. The full zod schema still validates the answer here, and a violation gets
 * the repair prompt — a limit costs at worst one extra call, never an outage.
 * `sdk`: the AI SDK, which create-client.ts loads at the first model call.
 */
export function toPortableSchema<T>(schema: z.ZodType<T>, sdk: Pick<typeof AiSdk, 'jsonSchema' | 'zodSchema'>) {
  const full = sdk.zodSchema(schema);
  return sdk.jsonSchema<T>(async () => stripLimits(await full.jsonSchema) as JSONSchema7, { validate: full.validate });
}

const LIMIT_KEYWORDS: Record<string, string> = {
  minimum: 'at least',
  exclusiveMinimum: 'more than',
  maximum: 'at most',
  exclusiveMaximum: 'less than',
  minLength: 'length at least',
  maxLength: 'length at most',
  minItems: 'at least this many entries:',
  maxItems: 'at most this many entries:',
};
const DROPPED_KEYWORDS = new Set(['multipleOf', 'pattern', 'format', 'uniqueItems']);

function stripLimits(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripLimits);
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  const limits: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key in LIMIT_KEYWORDS) limits.push(`${LIMIT_KEYWORDS[key]} ${String(value)}`);
    else if (DROPPED_KEYWORDS.has(key)) continue;
    else if (key === 'properties' && value !== null && typeof value === 'object') {
      // Property NAMES are data here, not keywords: a field called "format" must survive.
      result[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, stripLimits(property)]));
    } else result[key] = key === 'enum' || key === 'required' || key === 'const' ? value : stripLimits(value);
  }
  if (limits.length > 0) {
    const description = typeof result.description === 'string' ? `${result.description} ` : '';
    result.description = `${description}(${limits.join(', ')})`;
  }
  return result;
}
