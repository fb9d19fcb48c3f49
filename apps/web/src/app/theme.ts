import { createTheme, type ThemeOptions } from '@mui/material/styles';

/** The media query of people who asked their system for less motion. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Spec section 9: dark, primary light blue, secondary pink, Roboto (self-hosted) with Arial fallback. */
const options: ThemeOptions = {
  palette: {
    mode: 'dark',
    primary: { main: '#90caf9' },
    secondary: { main: '#f48fb1' },
  },
  typography: {
    fontFamily: ['Roboto', 'Arial', 'sans-serif'].join(','),
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
    },
  },
};

/**
 * Without motion, MUI's expanding panels, dialogs and menus appear at once: no CSS transition and
 * no transition time, so nothing on screen moves under the pointer after a click (WCAG 2.3.3).
 */
const withoutMotion: ThemeOptions['transitions'] = {
  create: () => 'none',
  getAutoHeightDuration: () => 0,
  duration: {
    shortest: 0,
    shorter: 0,
    short: 0,
    standard: 0,
    complex: 0,
    enteringScreen: 0,
    leavingScreen: 0,
  },
};

export function createAppTheme({ reducedMotion }: { reducedMotion: boolean }) {
  return createTheme(reducedMotion ? { ...options, transitions: withoutMotion } : options);
}
