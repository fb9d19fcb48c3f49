import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, unauthenticated } from '../lib/errors.ts';
import { userCacheOf } from '../auth/user-cache.ts';
import type { UserRow } from '../models/users.ts';

/**
 * Every API route declares who may call it in `config.access`; a route without one refuses to
 * register, so a forgotten rule fails at boot, not in production. Finer rules (course membership,
 * ownership) live in `policies/` and are applied by the services.
 */
export type Access = 'public' | 'user' | 'instructor' | 'signed-url';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: UserRow | null;
  }
}

export function installAccessControl(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public' || access === 'signed-url') return;
    request.user = await authenticate(ctx, request);
    if (access === 'instructor' && request.user.role !== 'instructor') {
      throw forbidden('Only instructors can do this.');
    }
  });
}

async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<UserRow> {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw unauthenticated();
  const claims = ctx.tokens.verify(match[1]);
  // Keyed by id and token version, briefly: see auth/user-cache.ts for how revocation stays immediate.
  const user = await userCacheOf(ctx).read(ctx, claims.userId, claims.tokenVersion);
  // A token issued before the user's token version was bumped has been revoked.
  if (!user || user.tokenVersion !== claims.tokenVersion) {
    throw new AppError('UNAUTHENTICATED', 401, 'Your session is not valid. Please log in again.');
  }
  return user;
}

/** For handlers behind `user` or `instructor` access: the caller, never null there. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthenticated();
  return request.user;
}
