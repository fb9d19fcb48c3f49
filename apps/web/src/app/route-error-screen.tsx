import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Alert, Button, Container, Stack, Typography } from '@mui/material';
import { useDocumentTitle } from '../lib/use-document-title.ts';

const RELOADED_FOR_CHUNK_KEY = 'gradewise.reloadedForChunk';

/**
 * A lazily loaded screen whose file is gone: the page was loaded before a new build was deployed,
 * and the old build's chunks are no longer served (the server answers 404 for them). Browsers word
 * the failure differently; these are Chromium's, Firefox's and Safari's.
 */
export function isStaleChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Shown in place of a screen that failed: it threw while rendering, or its code could not be loaded.
 * A stale chunk after a deploy reloads the page once (which fetches the new build); if it fails
 * again, the person gets the message and a Reload button rather than a loop.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const isStaleChunk = isStaleChunkError(error);
  const shouldReload = isStaleChunk && window.sessionStorage.getItem(RELOADED_FOR_CHUNK_KEY) !== window.location.href;
  useDocumentTitle('Something went wrong');

  useEffect(() => {
    if (!shouldReload) return;
    window.sessionStorage.setItem(RELOADED_FOR_CHUNK_KEY, window.location.href);
    window.location.reload();
  }, [shouldReload]);

  if (!isStaleChunk && !isRouteErrorResponse(error)) console.error('A screen failed to render.', error);
  const reload = () => {
    window.sessionStorage.removeItem(RELOADED_FOR_CHUNK_KEY);
    window.location.reload();
  };

  return (
    <Container component="main" maxWidth="sm" sx={{ py: { xs: 6, md: 10 } }}>
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="h4" component="h1">
          Something went wrong
        </Typography>
        <Alert severity={isStaleChunk ? 'info' : 'error'} variant="outlined" sx={{ width: '100%' }}>
          {isStaleChunk
            ? 'Gradewise was updated while this page was open. Reload to get the new version.'
            : 'This page could not be shown. Reload to try again.'}
        </Alert>
        <Stack direction="row" spacing={2}>
          <Button variant="contained" onClick={reload}>
            Reload
          </Button>
          <Button href="/">Go to the home page</Button>
        </Stack>
      </Stack>
    </Container>
  );
}
