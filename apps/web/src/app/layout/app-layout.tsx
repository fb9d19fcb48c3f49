import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { Box } from '@mui/material';
import { useSession } from '../../lib/session.tsx';
import { NavBar } from './nav-bar.tsx';
import { SiteFooter } from './site-footer.tsx';

/**
 * The route handle of a screen that is a full-screen dialog (grading, grading report): the page
 * behind it is never seen, so the layout leaves out the footer there (see below).
 */
export const FULL_SCREEN = { fullScreen: true } as const;

function isFullScreen(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'fullScreen' in handle && handle.fullScreen === true;
}

/** Every route renders inside this: navigation bar, the route's screen, footer (spec section 2). */
export function AppLayout() {
  const { loading } = useSession();
  const fullScreen = useMatches().some((match) => isFullScreen(match.handle));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      {/*
        Behind a full-screen dialog the page is inert and hidden from assistive technology: the
        grading screen's dialog is drawn in place, not in a portal that hid the rest (decision 0095).
      */}
      <Box
        component="a"
        href="#main"
        {...behindDialog(fullScreen)}
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 'tooltip',
          p: 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          '&:focus': { top: 8 },
        }}
      >
        Skip to main content
      </Box>
      <NavBar {...behindDialog(fullScreen)} />
      <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Outlet />
      </Box>
      {/*
        Not while a stored session is being checked: the check's spinner is short, so the footer sat
        in view at the bottom of the window and the signed-in screen then pushed it down, a layout
        shift (0.041 on /courses in Lighthouse). Added once the screen is there, it moves nothing.
      */}
      {/*
        Nor behind a full-screen dialog, where nobody sees it: it was the grading screen's largest
        text, so Lighthouse timed that screen's LCP by the footer, painted with the dialog's costly
        first commit (decisions 0044, 0050, 0051).
      */}
      {loading || fullScreen ? null : <SiteFooter />}
      {/* A new screen opens at its top (the demo's Skip left /courses scrolled down); Back returns to where it was. */}
      <ScrollRestoration />
    </Box>
  );
}

/** The props of what a full-screen dialog covers: nobody can see, reach or hear it. */
function behindDialog(fullScreen: boolean) {
  return fullScreen ? { inert: true, 'aria-hidden': true } : {};
}
