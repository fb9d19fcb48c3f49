import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { CourseList } from '@gradewise/shared/contracts/courses';
import { expectJson } from './support/expect-json.ts';

/**
 * The test helper that reads a response through its contract: real HTTP answers (Fastify's inject)
 * whose status and body the test chooses, so each way of failing is seen once with its message.
 */

const Point = z.object({ x: z.number(), label: z.string() });

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.get('/point', async () => ({ x: 3, label: 'three', extra: 'not in the contract' }));
  app.get('/bad-point', async () => ({ x: 'three' }));
  app.get('/missing', async (_request, reply) =>
    reply.code(404).send({ code: 'NOT_FOUND', message: 'No such point.' }),
  );
  app.get('/text', async (_request, reply) => reply.type('text/plain').send('plain words'));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('expectJson', () => {
  it('answers the parsed, typed body when the status and the contract hold', async () => {
    const point = expectJson(await app.inject({ url: '/point' }), 200, Point);
    expectTypeOf(point).toEqualTypeOf<{ x: number; label: string }>();
    // Parsed, not cast: what the contract does not name is not there.
    expect(point).toEqual({ x: 3, label: 'three' });
  });

  it('fails on a wrong status with the status and the body text', async () => {
    const response = await app.inject({ url: '/missing' });
    expect(() => expectJson(response, 200, Point)).toThrow(
      'expected status 200, got 404 {"code":"NOT_FOUND","message":"No such point."}',
    );
  });

  it('fails on a body that breaks the contract, naming each field and the body', async () => {
    const response = await app.inject({ url: '/bad-point' });
    let message = '';
    try {
      expectJson(response, 200, Point);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^the body breaks the contract \(x: .*number.*; label: .*string.*\): 200 \{"x":"three"\}$/);
  });

  it('fails on a body that is not JSON, with the body text', async () => {
    const response = await app.inject({ url: '/text' });
    expect(() => expectJson(response, 200, Point)).toThrow('expected a JSON body, got 200 plain words');
  });

  it('reads a shared contract: a course list that is not one fails', async () => {
    const response = await app.inject({ url: '/point' });
    expect(() => expectJson(response, 200, CourseList)).toThrow(/^the body breaks the contract/);
  });
});
