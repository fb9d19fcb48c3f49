import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { loadSessionUser } from '../auth/sessions.ts';
import type { VerifiedToken } from '../auth/tokens.ts';
import { AppError, forbidden, unauthenticated } from '../lib/errors.ts';
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
    /** The caller's verified token (logout revokes exactly this one). */
    token: VerifiedToken | null;
  }
}

export function installAccessControl(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  app.decorateRequest('token', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public' || access === 'signed-url') return;
    request.token = readToken(ctx, request);
    request.user = await authenticate(ctx, request.token);
    if (access === 'instructor' && request.user.role !== 'instructor') {
      throw forbidden('Only instructors can do this.');
    }
  });
}

function readToken(ctx: AppContext, request: FastifyRequest): VerifiedToken {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw unauthenticated();
  return ctx.tokens.verify(match[1]);
}

async function authenticate(ctx: AppContext, token: VerifiedToken): Promise<UserRow> {
  // Signed out everywhere (token version bumped), logged out (this token) or deleted: auth/sessions.ts.
  const user = await loadSessionUser(ctx, token);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Your session is not valid. Please log in again.');
  return user;
}

/** For handlers behind `user` or `instructor` access: the caller's token, never null there. */
export function currentToken(request: FastifyRequest): VerifiedToken {
  if (!request.token) throw unauthenticated();
  return request.token;
}

/** For handlers behind `user` or `instructor` access: the caller, never null there. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthenticated();
  return request.user;
}
