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

/** The policy of every stored file's response (docs/decisions/0015-ai-spend-and-active-pdfs.md). */
export const FILE_CSP =
  "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; " +
  "frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

export function fileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/files/:fileId',
      { config: { access: 'signed-url' }, schema: { params: FileParams, querystring: FileDownloadQuery } },
      async (request, reply) => {
        const { file, content, expiresAt } = await readSignedFile(ctx, request.params.fileId, request.query);
        const secondsLeft = Math.max(0, expiresAt - Math.floor(Date.now() / 1000));
        const extension = EXTENSIONS[file.mimeType];
        // Only the types our upload checks recognised are shown in the browser; anything else is a download.
        const disposition = extension ? 'inline' : 'attachment';
        return (
          reply
            .header('Content-Type', extension ? file.mimeType : 'application/octet-stream')
            .header('Content-Length', content.size)
            .header('Content-Disposition', `${disposition}; filename="${file.kind}.${extension ?? 'bin'}"`)
            .header('X-Content-Type-Options', 'nosniff')
            // The link is the permission: caches may keep the bytes only as long as the link lives, and only privately.
            .header('Cache-Control', `private, max-age=${Math.min(secondsLeft, 3600)}`)
            // A stored file is content, never a page: it may not run anything, whatever it contains.
            // `sandbox` (no allow-scripts) turns scripting off in a viewer that honours it, also for
            // a PDF opened directly by its link; uploads with active content are refused anyway
            // (pdf/active-content.ts). object-src 'self' lets a browser's built-in PDF viewer load.
            .header('Content-Security-Policy', FILE_CSP)
            .header('Referrer-Policy', 'no-referrer')
            .send(content.body)
        );
      },
    );
  };
}
