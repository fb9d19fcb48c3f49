import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from '../lib/query-client.ts';
import { AppProviders } from './providers.tsx';
import { createAppRouter } from './router.tsx';

/**
 * The query cache and the router, made before React's first render (main.tsx, in the task after the
 * modules' evaluation, decision 0123): the router's loaders then start the first screen's request
 * beside the session check instead of after the first render (decision 0059). One cache serves the
 * loaders and the screens.
 */
export function startApp(): { queryClient: QueryClient; router: ReturnType<typeof createAppRouter> } {
  const queryClient = createQueryClient();
  return { queryClient, router: createAppRouter(queryClient) };
}

export function App({ app }: { app: ReturnType<typeof startApp> }) {
  return (
    <AppProviders queryClient={app.queryClient}>
      <RouterProvider router={app.router} />
    </AppProviders>
  );
}
