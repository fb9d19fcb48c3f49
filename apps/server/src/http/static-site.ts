import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../lib/errors.ts';

export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Serves the built single-page app at `/`. Unknown non-API GETs get index.html so client routes
 * such as /courses/123 survive a reload; unknown /api paths stay JSON 404s.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy beside each text asset (vite.config.ts);
 * `preCompressed` sends the copy the client accepts, with its `Content-Encoding` and
 * `Vary: Accept-Encoding`, so nothing is compressed per request.
 */
export async function installStaticSite(app: FastifyInstance, distDir = WEB_DIST_DIR): Promise<void> {
  const indexPath = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexPath)) {
    app.log.warn(
      `The web app is not built (${indexPath} is missing): run "npm run build -w @gradewise/web". Serving the API only.`,
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Hashed assets never change; index.html must always be revalidated.
    setHeaders: (res, filePath) => {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api') {
      throw notFound(`No route for ${request.method} ${pathname}.`);
    }
    const candidate = path.join(distDir, path.normalize(pathname));
    if (
      candidate.startsWith(distDir) &&
      pathname !== '/' &&
      fs.existsSync(candidate) &&
      fs.statSync(candidate).isFile()
    ) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    // A build asset that is not there is a 404, never index.html: a page loaded before a new build
    // asks for chunks the new build no longer has, and it must see the import fail (the web app's
    // route error screen then reloads) rather than get HTML where it expects a script.
    if (pathname.startsWith('/assets/')) {
      return reply.status(404).type('text/plain; charset=utf-8').send(`${pathname} is not part of this build.`);
    }
    // Read on each request (a few kB): a rebuild of the web app while the server runs must not
    // leave it serving an index that points at assets that no longer exist.
    const indexHtml = await fs.promises.readFile(indexPath);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
