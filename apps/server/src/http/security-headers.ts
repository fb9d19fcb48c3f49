import type { FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/** The security headers of every answer: helmet's, with our Content-Security-Policy. */
export const SECURITY_HEADER_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // MUI (emotion) injects <style> elements at run time; scripts stay strictly same-origin.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * `@fastify/helmet` registered for the whole app, so every answer (refused, not found and failed
 * ones included) carries its headers; a route's own header (the file routes' CSP, the LTI pages')
 * still replaces one of them. Decision 0061 set precomputed headers by hand to save about 0.03 ms
 * per request; decision 0078 went back to the plugin: one less piece of machinery to keep equal to
 * it by hand, and the values are pinned by security-header-values.test.ts.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, { ...SECURITY_HEADER_OPTIONS, global: true });
}
