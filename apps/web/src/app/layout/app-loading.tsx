import { AppBar, Box, Toolbar } from '@mui/material';
import { PageLoading } from '../../components/loading-icon.tsx';
import { BrandLink } from './nav-bar.tsx';

/**
 * What a first visit shows while the first screen's module loads: the bar with its brand only and
 * the loading screen, as index.html's first paint drew them before the scripts arrived, so React's
 * first render moves nothing (decision 0064). Not the real NavBar: its menu button could be opened
 * here and then replaced, menu and all, under the finger when the layout renders (decision 0050).
 */
export function AppLoading() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <AppBar position="sticky" color="default" elevation={1} component="header">
        <Toolbar>
          <BrandLink />
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flex: 1 }}>
        <PageLoading />
      </Box>
    </Box>
  );
}
