import { Box } from '@mui/material';
import { PageLoading } from '../../components/loading-icon.tsx';
import { NavBar } from './nav-bar.tsx';

/**
 * What a first visit shows while the screen's module loads: the navigation bar and the loading
 * screen, where index.html's first paint (drawn before the scripts arrive) showed the bar's brand
 * and the same loading screen, so React's first render changes nothing in place (decision 0050).
 */
export function AppLoading() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <NavBar />
      <Box component="main" sx={{ flex: 1 }}>
        <PageLoading />
      </Box>
    </Box>
  );
}
