import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { createQueryClient } from '../lib/query-client.ts';
import { SessionProvider } from '../lib/session.tsx';
import { AppToasts } from '../lib/toasts.tsx';
import { theme } from './theme.ts';

/** Everything a screen may rely on: theme, server-state cache, session, toasts. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <QueryClientProvider client={client}>
        <SessionProvider>
          {children}
          <AppToasts />
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
