import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Responses smaller than this go out as they are: below about a kilobyte the headers and the
 * CPU cost more than the bytes saved.
 */
export const COMPRESS_MIN_BYTES = 1024;

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
    encodings: ['br', 'gzip'],
  });
}
