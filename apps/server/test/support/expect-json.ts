import type { LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';

/**
 * The body of `response`, parsed by the route's contract (a zod schema from
 * `@gradewise/shared/contracts`), when its status is `status`. A test reads what the contract
 * promises instead of casting an untyped value: a wrong status, a body that is not JSON, or a body
 * the contract rejects each throws with the status, the body's text and, for the contract, the
 * paths zod names.
 */
export function expectJson<Schema extends z.ZodType>(
  response: LightMyRequestResponse,
  status: number,
  schema: Schema,
): z.output<Schema> {
  const said = `${response.statusCode} ${response.body}`;
  if (response.statusCode !== status) throw new Error(`expected status ${status}, got ${said}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`expected a JSON body, got ${said}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw new Error(`the body breaks the contract (${problems.join('; ')}): ${said}`);
  }
  return parsed.data;
}
