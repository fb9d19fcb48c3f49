import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../app/providers.tsx';
import { createRoutes } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { startSessionCheckEarly } from '../lib/session.tsx';

/**
 * Renders the real app (providers, route table, guards, screens) at a path, in memory. Returns the
 * router so tests can check where navigation went and how (PUSH or REPLACE), and the query
 * client, for a test to re-read what the server says now.
 */
export function renderApp(path: string, routeTable?: RouteObject[]) {
  // As main.tsx does before the first render: the stored token is checked, and set on the API client.
  startSessionCheckEarly();
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routeTable ?? createRoutes(queryClient), { initialEntries: [path] });
  const visitedPaths: string[] = [];
  router.subscribe((state) => {
    if (visitedPaths.at(-1) !== state.location.pathname) visitedPaths.push(state.location.pathname);
  });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, visitedPaths, queryClient };
}
