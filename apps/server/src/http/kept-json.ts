import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BROTLI_OPTIONS, COMPRESS_MIN_BYTES } from './compression.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/**
 * Each kept body's compressed forms, made once and gone with the body (a WeakMap: while a list is
 * kept, every browser read of it is answered with the same bytes, decision 0065). Compressing the
 * whole class's list (564 KB for 300 answers) per request cost more than everything else its
 * kept answer does. Compressed off the event loop (zlib's thread pool).
 */
const compressed: Record<Encoding, WeakMap<Buffer, Promise<Buffer>>> = { br: new WeakMap(), gzip: new WeakMap() };

function compressOnce(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let made = compressed[encoding].get(body);
  if (!made) {
    made = encoding === 'br' ? brotli(body, BROTLI_OPTIONS) : gzip(body);
    compressed[encoding].set(body, made);
    // A failure is not kept: the next read tries again.
    made.catch(() => compressed[encoding].delete(body));
  }
  return made;
}

/**
 * Sends JSON bytes the server keeps between requests (already serialised against the route's
 * contract), compressed as the client prefers, as http/compression.ts would (the same encodings,
 * the same negotiation, the same brotli quality), but each kept body compressed only once. The
 * compression plugin leaves an answer that already says its `Content-Encoding` alone.
 */
export async function sendKeptJson(request: FastifyRequest, reply: FastifyReply, body: Buffer): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8');
  const header = request.headers['accept-encoding'];
  const encoding =
    header === undefined || body.length < COMPRESS_MIN_BYTES || request.headers['x-no-compression'] !== undefined
      ? undefined
      : // As the plugin reads it: `*` and `x-gzip` stand for gzip.
        (negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), ENCODINGS) as Encoding | null | undefined);
  if (!encoding) return reply.send(body);
  const bytes = await compressOnce(body, encoding);
  return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(bytes);
}
