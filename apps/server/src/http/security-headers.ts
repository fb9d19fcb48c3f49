import Fastify, { type FastifyInstance } from 'fastify';
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
 * Sets helmet's headers on every answer (refused, not found and failed ones included), as
 * `@fastify/helmet` registered globally does, but computed once.
 *
 * The plugin builds helmet's middleware again on every request (its `helmetApplyHeaders` hook
 * calls `helmet(options)`, which parses and re-serialises the CSP directives), and adds an async
 * hook that decorates the reply with a `helmet()` function nobody here calls: about 0.03 ms of
 * CPU per request, a tenth of an authenticated `GET /api/courses` (issue 11, decision 0061).
 * The headers depend on the options only, so they are read once at boot from the plugin itself,
 * run on a probe instance (the names as it spells them, the values, in its order), and then set
 * on each response's raw headers, where the plugin sets them: a route's own header (the file
 * routes' CSP) still replaces one of them.
 */
export async function installSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions = SECURITY_HEADER_OPTIONS,
): Promise<void> {
  const headers = await readHelmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}

/** The headers `@fastify/helmet` with `options` sets on a request, as [name, value] pairs in its order. */
export async function readHelmetHeaders(options: FastifyHelmetOptions): Promise<Array<[string, string]>> {
  const probe = Fastify();
  let headers: Array<[string, string]> = [];
  try {
    await probe.register(helmet, options);
    probe.addHook('onRequest', (_request, reply, done) => {
      // Node's OutgoingMessage has getRawHeaderNames (the names as set) since 15.13; @types/node 20 omits it.
      const raw = reply.raw as typeof reply.raw & { getRawHeaderNames(): string[] };
      headers = raw.getRawHeaderNames().map((name) => [name, String(raw.getHeader(name))]);
      done();
    });
    probe.get('/', () => '');
    await probe.inject({ method: 'GET', url: '/' });
  } finally {
    await probe.close();
  }
  if (!headers.some(([name]) => name.toLowerCase() === 'content-security-policy'))
    throw new Error('@fastify/helmet set no Content-Security-Policy on its probe request');
  return headers;
}
