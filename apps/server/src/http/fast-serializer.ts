import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Serialises a response with fast-json-stringify (Fastify's own serialiser) compiled from the
 * route's zod contract, instead of validating every value with zod and then calling JSON.stringify:
 * for a list of hundreds of rows that second pass cost more than building the rows (issue 11).
 *
 * What goes out is what the zod serialiser sent: only the contract's fields (fast-json-stringify
 * writes the properties its schema names and nothing else), a missing required field still fails
 * the request. A discriminated union is compiled branch by branch and chosen by its discriminator,
 * so no branch is tried against the whole payload. Under NODE_ENV=test each answer is checked
 * against the contract with zod too, so the whole test suite keeps checking that routes answer
 * their contract; a disagreement there is a bug in this module or in the route.
 *
 * It is the app's serializer compiler (http/app.ts), so every route answers this one way
 * (decision 0078; it was per route before, beside the zod serialiser).
 */
export const fastSerializerCompiler: FastifySerializerCompiler<unknown> = (routeSchema) => {
  // Compiled on a route's first answer, not at boot: compiling all ~150 contracts at once added
  // about a second to every start, and so to each of the test suite's apps (decision 0078).
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) => {
    serialize ??= checkedFastSerializer(
      routeSchema.schema as z.ZodType,
      `${routeSchema.method} ${routeSchema.url}`,
      zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]),
    );
    return serialize(data);
  };
};

/**
 * The same for an answer whose contract is not the route's (`reply.serializer(...)` in a handler
 * that answers one of two contracts, as the question route does for a page, decision 0057).
 */
export function fastSerializerFor(schema: z.ZodType, name: string): (data: unknown) => string {
  return checkedFastSerializer(schema, name, (data) => JSON.stringify(schema.parse(data)));
}

function checkedFastSerializer(
  schema: z.ZodType,
  name: string,
  zodSerialize: (data: unknown) => unknown,
): (data: unknown) => string {
  const serialize = compileFastSerializer(schema);
  if (process.env.NODE_ENV !== 'test') return serialize;
  return (data: unknown) => {
    const fast = serialize(data);
    const expected = zodSerialize(data) as string;
    if (!sameJson(fast, expected)) throw new Error(`fast serialiser of ${name} disagrees with its contract`);
    return fast;
  };
}

/** The fast-json-stringify function of a zod schema (a discriminated union: one per branch). */
export function compileFastSerializer(schema: z.ZodType): (data: unknown) => string {
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const key = schema._zod.def.discriminator;
    const branches = new Map<unknown, (data: unknown) => string>();
    for (const option of schema.options as z.ZodType[]) {
      const serialize = compileFastSerializer(option);
      for (const value of option._zod.propValues?.[key] ?? []) branches.set(value, serialize);
    }
    return (data) => {
      const serialize = branches.get((data as Record<string, unknown>)[key]);
      if (!serialize)
        throw new Error(`no branch of the response contract for ${key} = ${String((data as never)[key])}`);
      return serialize(data);
    };
  }
  const jsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-7' });
  return fastJsonStringify(jsonSchema as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(sortKeys(JSON.parse(a))) === JSON.stringify(sortKeys(JSON.parse(b)));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}
