import { createTheme } from '@mui/material/styles';

/** Spec section 9: dark, primary light blue, secondary pink, Roboto (self-hosted) with Arial fallback. */
export const theme = createTheme({
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
});
