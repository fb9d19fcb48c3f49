import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../app/providers.tsx';
import { routes } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/**
 * Renders the real app (providers, route table, guards, screens) at a path, in memory. Returns the
 * router so tests can check where navigation went and how (PUSH or REPLACE), and the query
 * client, for a test to re-read what the server says now.
 */
export function renderApp(path: string, routeTable: RouteObject[] = routes) {
  const router = createMemoryRouter(routeTable, { initialEntries: [path] });
  const visitedPaths: string[] = [];
  router.subscribe((state) => {
    if (visitedPaths.at(-1) !== state.location.pathname) visitedPaths.push(state.location.pathname);
  });
  const queryClient = createQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, visitedPaths, queryClient };
}
