import { useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { CssBaseline, useMediaQuery } from '@mui/material';
// MUI's ThemeProvider picks this provider for a theme without CSS variables (ours) at run time, but
// imports the CSS-variables provider as well, about 5 KB gzip on every first page (decision 0039).
import { ThemeProvider } from '@mui/system';
import { createQueryClient } from '../lib/query-client.ts';
import { SessionProvider } from '../lib/session.tsx';
import { AppToasts } from '../lib/toasts.tsx';
import { createAppTheme, REDUCED_MOTION_QUERY } from './theme.ts';

/** Everything a screen may rely on: theme, server-state cache, session, toasts. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  // Read on the first render (noSsr), so the app never starts animated and then switches.
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY, { noSsr: true });
  const theme = useMemo(() => createAppTheme({ reducedMotion }), [reducedMotion]);
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
