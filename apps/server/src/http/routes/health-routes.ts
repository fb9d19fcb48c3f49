import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { checkReadiness } from '../../services/check-readiness.ts';

/**
 * For load balancers and orchestrators, outside /api (they are not part of the product's API):
 * GET /healthz answers 200 while the process lives; GET /readyz answers 200 when the database and
 * the file storage answer, 503 with what is wrong otherwise. Neither needs a session nor says
 * anything about users; /readyz says which setting is at fault, as the process's log does.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/healthz', { config: { access: 'public' } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { config: { access: 'public' } }, async (_request, reply) => {
      const readiness = await checkReadiness(ctx);
      return reply
        .status(readiness.ready ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(readiness);
    });
  };
}
