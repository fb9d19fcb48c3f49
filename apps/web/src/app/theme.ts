import { createTheme, type ThemeOptions } from '@mui/material/styles';

/** The media query of people who asked their system for less motion. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Where the keyboard is (WCAG 2.4.7): a 2 px ring in the primary light blue, outside the control,
 * only for keyboard focus (`:focus-visible`), so a click draws nothing. Light blue on the dark
 * background is about 9:1, above the 3:1 a focus indicator needs.
 */
export const FOCUS_RING = { outline: '2px solid #90caf9', outlineOffset: 2 } as const;

/** Spec section 9: dark, primary light blue, secondary pink, Roboto (self-hosted) with Arial fallback. */
const options: ThemeOptions = {
  palette: {
    mode: 'dark',
    primary: { main: '#90caf9' },
    secondary: { main: '#f48fb1' },
    // MUI's dark error red with dark text: white on it is 3.7:1, under the 4.5:1 of normal-sized text
    // (axe, the account's Delete account button; decision 0085). Its light and dark are MUI's dark
    // defaults, written out: given only main, MUI derives another light, and every red text changes.
    error: { main: '#f44336', light: '#e57373', dark: '#d32f2f', contrastText: 'rgba(0, 0, 0, 0.87)' },
  },
  typography: {
    fontFamily: ['Roboto', 'Arial', 'sans-serif'].join(','),
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
    },
    // Every button-like control (buttons, icon buttons, tabs, menu items, chips, switches) is a
    // ButtonBase, which drops the browser's outline: keyboard focus gets a ring of its own.
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible, &:focus-visible': FOCUS_RING },
      },
    },
    // Links, summaries and anything else focusable outside MUI's controls.
    MuiCssBaseline: {
      styleOverrides: {
        'a:focus-visible, summary:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible': FOCUS_RING,
      },
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
