// @vitest-environment jsdom
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

// Every call of a zod builder (z.object, z.string, ...) counted, to tell whether a module makes one.
const zodCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('zod', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zod')>();
  const counted = new Proxy(actual.z, {
    get: (target, key) => {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function' || /^[A-Z$]/.test(String(key))) return value;
      return (...args: unknown[]) => {
        zodCalls.count += 1;
        return (value as (...args: unknown[]) => unknown)(...args);
      };
    },
  });
  return { ...actual, z: counted };
});

describe('a schema built on first use in a browser (decision 0130)', () => {
  it('is not built until something uses it, then once', () => {
    let builds = 0;
    const Person = lazySchema(() => {
      builds += 1;
      return z.object({ name: z.string(), age: z.number().int().nonnegative() });
    });
    // Named in another schema, still not built: zod reads a shape's members when it first parses.
    const Team = lazySchema(() => z.object({ lead: Person, members: z.array(Person) }));
    expect(builds).toBe(0);

    expect(Person.parse({ name: 'Ada', age: 36 })).toEqual({ name: 'Ada', age: 36 });
    expect(Team.safeParse({ lead: { name: 'Ada', age: 36 }, members: [{ name: 'Ben', age: -1 }] }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('answers to the whole of zod as the schema it stands for', () => {
    const Base = lazySchema(() => z.object({ id: z.string(), note: z.string().optional() }));
    const Extended = lazySchema(() => Base.extend({ points: z.number() }));
    const Kind = lazySchema(() => z.enum(['builtin', 'llm']));

    expect(Extended.parse({ id: 'a', points: 2, extra: 1 })).toEqual({ id: 'a', points: 2 });
    expect(Object.keys(Extended.shape)).toEqual(['id', 'note', 'points']);
    expect(Base.pick({ id: true }).parse({ id: 'a', note: 'x' })).toEqual({ id: 'a' });
    expect(Base.optional().parse(undefined)).toBeUndefined();
    expect(Base instanceof z.ZodObject).toBe(true);
    expect(Kind instanceof z.ZodObject).toBe(false);
    expect(Kind.options).toEqual(['builtin', 'llm']);
    expect('parse' in Base).toBe(true);

    // A failure is zod's own, with its path.
    const failure = Extended.safeParse({ id: 'a', points: 'two' });
    expect(failure.success).toBe(false);
    expect(failure.error?.issues[0]?.path).toEqual(['points']);

    // A union picks its branch by a lazily built member's literal key.
    const Shape = lazySchema(() =>
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('circle'), radius: z.number() }),
        lazySchema(() => z.object({ kind: z.literal('square'), side: z.number() })),
      ]),
    );
    expect(Shape.parse({ kind: 'square', side: 2 })).toEqual({ kind: 'square', side: 2 });
    expect(Shape.safeParse({ kind: 'square', radius: 2 }).success).toBe(false);
  });

  it('leaves every contract module unbuilt on import: no zod builder runs as they load', async () => {
    const before = zodCalls.count;
    z.string();
    expect(zodCalls.count).toBe(before + 1);
    const folder = import.meta.dirname;
    const contracts = readdirSync(folder).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'lazy-schema.ts',
    );
    expect(contracts.length).toBeGreaterThan(15);
    for (const file of contracts) await import(/* @vite-ignore */ `./${file}`);
    expect(zodCalls.count).toBe(before + 1);
  });
});
