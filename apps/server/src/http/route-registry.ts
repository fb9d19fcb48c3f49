import type { FastifyInstance } from 'fastify';
import type { Access } from './access.ts';

/**
 * Records every /api route as it is registered, with its declared access. The authorization
 * matrix test reads this list and fails when a route has no row, so a new route cannot ship
 * without someone writing down who may call it.
 */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: readonly RegisteredRoute[];
  }
}

export function installRouteRegistry(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, access });
  });
}
