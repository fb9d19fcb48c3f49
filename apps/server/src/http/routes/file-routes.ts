import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FileDownloadQuery } from '@gradewise/shared/contracts/files';
import type { AppContext } from '../../context.ts';
import { readSignedFile } from '../../services/read-file.ts';

const FileParams = z.object({ fileId: z.string() });

/** Filenames shown to the browser are ours, never the uploader's (no header injection, no spoofing). */
const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export function fileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/files/:fileId',
      { config: { access: 'signed-url' }, schema: { params: FileParams, querystring: FileDownloadQuery } },
      async (request, reply) => {
        const { file, content, expiresAt } = await readSignedFile(ctx, request.params.fileId, request.query);
        const secondsLeft = Math.max(0, expiresAt - Math.floor(Date.now() / 1000));
        return (
          reply
            .header('Content-Type', file.mimeType)
            .header('Content-Length', content.length)
            .header('Content-Disposition', `inline; filename="${file.kind}.${EXTENSIONS[file.mimeType] ?? 'bin'}"`)
            .header('X-Content-Type-Options', 'nosniff')
            // The link is the permission: caches may keep the bytes only as long as the link lives, and only privately.
            .header('Cache-Control', `private, max-age=${Math.min(secondsLeft, 3600)}`)
            // A stored file is content, never a page: it may not run anything, whatever it contains.
            .header(
              'Content-Security-Policy',
              "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'",
            )
            .header('Referrer-Policy', 'no-referrer')
            .send(content)
        );
      },
    );
  };
}
