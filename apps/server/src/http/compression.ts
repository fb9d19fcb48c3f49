import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Responses smaller than this go out as they are: below about a kilobyte the headers and the
 * CPU cost more than the bytes saved.
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Answers up to this size are compressed in one call on the request's own turn instead of through
 * a zlib stream. The plugin's default on two cores is 8 KB, which sent the question page's 22 KB
 * through a stream: 1.8 ms of the server's CPU per request as a browser asks for it (br), against
 * 0.16 ms for the same compression in one call (decision 0058). 64 KB holds the event loop for
 * about 0.4 ms at most; larger answers (the whole class's list) still stream.
 */
export const COMPRESS_IN_ONE_CALL_MAX_BYTES = 64 * 1024;

/** Brotli as the plugin's recommended default (quality 4 of 11: most of the saving, a fraction of the time). */
export const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
};

/**
 * Compresses API answers (JSON above COMPRESS_MIN_BYTES) with brotli or gzip, whichever the client
 * prefers, and says so with `Content-Encoding` and `Vary: Accept-Encoding`. Built web assets are
 * compressed once at build time (apps/web/vite.config.ts) and served as they are by static-site.ts:
 * a response that already has a `Content-Encoding` is left alone. Types that are compressed already
 * (PDFs, images, fonts) are left alone too. Register before the routes: the plugin hooks each route.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_MIN_BYTES,
    syncThreshold: COMPRESS_IN_ONE_CALL_MAX_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: BROTLI_OPTIONS,
  });
}
