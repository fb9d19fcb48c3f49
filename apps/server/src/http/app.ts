import Fastify, { LogController, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { installAccessControl } from './access.ts';
import { installCompression } from './compression.ts';
import { installErrorHandler } from './error-handler.ts';
import { fastSerializerCompiler } from './fast-serializer.ts';
import { installRouteRegistry } from './route-registry.ts';
import { installSecurityHeaders } from './security-headers.ts';
import { answerGroupRoutes } from './routes/answer-group-routes.ts';
import { assignmentRoutes } from './routes/assignment-routes.ts';
import { authRoutes } from './routes/auth-routes.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { requestLimitStore } from '../services/request-limits.ts';
import { courseRoutes } from './routes/course-routes.ts';
import { fileRoutes } from './routes/file-routes.ts';
import { gradeAuditRoutes } from './routes/grade-audit-routes.ts';
import { gradeExportRoutes } from './routes/grade-export-routes.ts';
import { statisticsRoutes } from './routes/statistics-routes.ts';
import { gradingRoutes } from './routes/grading-routes.ts';
import { ltiRoutes } from './routes/lti-routes.ts';
import { questionRoutes } from './routes/question-routes.ts';
import { regradeRoutes } from './routes/regrade-routes.ts';
import { reviewRoutes } from './routes/review-routes.ts';
import { staffRoutes } from './routes/staff-routes.ts';
import { suggestionRoutes } from './routes/suggestion-routes.ts';
import { submissionRoutes } from './routes/submission-routes.ts';
import { workSplitRoutes } from './routes/work-split-routes.ts';
import { installStaticSite } from './static-site.ts';

export interface BuildAppOptions {
  /** Serve the built web app too (production). Tests of the API leave it off. */
  serveWebApp?: boolean;
  /** Where the built web app is (tests point it at a folder of their own). */
  webDistDir?: string;
}

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5.12 refuses a bare hop count (it trusts nobody then,
 * since a count cannot tell the proxy from a client that reached the server directly), so a count
 * is given as the function Fastify used to build for it: the nearest `hops` addresses are proxies.
 * It is the operator's choice, documented as safe only when nothing but the proxies reaches the server.
 */
function trustProxyOption(
  setting: AppContext['config']['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

/** One Fastify instance: the JSON API under /api and, optionally, the built SPA at /. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    // Off unless TRUST_PROXY says which proxies to believe: a client could otherwise pick its own address.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Errors are logged whatever this says (error-handler.ts); a line per request only when asked.
    logController: new LogController({ disableRequestLogging: !ctx.config.logRequests }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // One way to serialise every answer: fast-json-stringify from the route's zod contract (decision 0078).
  app.setSerializerCompiler(fastSerializerCompiler);
  installErrorHandler(app);

  await installSecurityHeaders(app);
  await installCompression(app);
  // After the security headers, so even refused requests carry them.
  installAccessControl(app, ctx);
  installRouteRegistry(app);
  // Counted in the database or Redis, so every API process shares one count per client (services/request-limits.ts).
  await app.register(rateLimit, { global: false, store: requestLimitStore(ctx) });
  await app.register(multipart, {
    limits: { fileSize: ctx.config.maxUploadBytes, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 24 },
  });

  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(courseRoutes(ctx));
  await app.register(assignmentRoutes(ctx));
  await app.register(questionRoutes(ctx));
  await app.register(submissionRoutes(ctx));
  await app.register(fileRoutes(ctx));
  await app.register(gradingRoutes(ctx));
  await app.register(reviewRoutes(ctx));
  await app.register(suggestionRoutes(ctx));
  await app.register(answerGroupRoutes(ctx));
  await app.register(gradeExportRoutes(ctx));
  await app.register(statisticsRoutes(ctx));
  await app.register(staffRoutes(ctx));
  await app.register(regradeRoutes(ctx));
  await app.register(gradeAuditRoutes(ctx));
  await app.register(workSplitRoutes(ctx));
  await app.register(ltiRoutes(ctx));

  if (options.serveWebApp) await installStaticSite(app, options.webDistDir);
  return app;
}
