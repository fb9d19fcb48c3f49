import { lazy, Suspense, useId, useState, type MouseEvent } from 'react';
import { NavLink, Link as RouterLink, useNavigate } from 'react-router-dom';
import { AppBar, Box, Button, CircularProgress, IconButton, Toolbar, Typography } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import SchoolIcon from '@mui/icons-material/School';
import { loginPathFor } from '../../lib/return-path.ts';
import { useSession } from '../../lib/session.tsx';

const NavMenu = lazy(async () => ({ default: (await import('./nav-menu.tsx')).NavMenu }));

export interface NavItem {
  label: string;
  to?: string;
  onSelect?: () => void;
  /** False for a link that only passes through another page (signed-out Assignments goes to Login). */
  marksActive?: boolean;
}

export const CHECKING_SESSION_LABEL = 'Checking sign-in…';

/**
 * Spec section 2: About, FAQs, Pricing, Assignments; then Courses and Logout, or Login and Register.
 * Account (password, sessions, deletion: issue 15) is an addition, between Courses and Logout.
 * Signed out, Assignments (a private screen) goes to login and comes back after it, instead of
 * bouncing home. While a stored session is being checked neither pair is offered yet: the bar
 * says it is checking (see <SessionCheck>).
 */
function useNavItems(): NavItem[] {
  const { isAuthenticated, loading, logout } = useSession();
  const navigate = useNavigate();
  const common: NavItem[] = [
    { label: 'About', to: '/about' },
    { label: 'FAQs', to: '/faqs' },
    { label: 'Pricing', to: '/pricing' },
    isAuthenticated || loading
      ? { label: 'Assignments', to: '/assignments' }
      : // Not marked active on /login: there it would underline beside Login, two current pages.
        { label: 'Assignments', to: loginPathFor('/assignments'), marksActive: false },
  ];
  if (loading) return common;
  if (isAuthenticated) {
    const logOutAndGoHome = () => {
      logout();
      navigate('/');
    };
    return [
      ...common,
      { label: 'Courses', to: '/courses' },
      { label: 'Account', to: '/account' },
      { label: 'Logout', onSelect: logOutAndGoHome },
    ];
  }
  return [...common, { label: 'Login', to: '/login' }, { label: 'Register', to: '/register' }];
}

const navButtonStyle = { minWidth: 'auto', px: 1.5 };
const activeLinkStyle = {
  ...navButtonStyle,
  '&.active': { color: 'primary.main', boxShadow: 'inset 0 -2px 0 currentColor', borderRadius: 0 },
};

/** The session check in progress, said in words (and to screen readers) where Login/Register will be. */
function SessionCheck() {
  return (
    <Box
      role="status"
      aria-label={CHECKING_SESSION_LABEL}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, color: 'text.secondary' }}
    >
      <CircularProgress size={16} color="inherit" aria-hidden />
      <Typography variant="body2" component="span" aria-hidden sx={{ whiteSpace: 'nowrap' }}>
        {CHECKING_SESSION_LABEL}
      </Typography>
    </Box>
  );
}

/** The graduation cap and "Gradewise", going home: the bar's first item, on every screen. */
export function BrandLink() {
  return (
    <Button
      component={RouterLink}
      to="/"
      color="inherit"
      startIcon={<SchoolIcon color="primary" />}
      sx={{ textTransform: 'none', mr: 'auto', px: 1 }}
    >
      <Typography component="span" variant="h6" sx={{ fontWeight: 700, letterSpacing: 0.5 }}>
        Gradewise
      </Typography>
    </Button>
  );
}

/** `inert` and `aria-hidden` when a full-screen dialog covers it (app-layout.tsx, decision 0095). */
export function NavBar(props: { inert?: boolean; 'aria-hidden'?: boolean }) {
  const items = useNavItems();
  const { loading } = useSession();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const [hasOpenedMenu, setHasOpenedMenu] = useState(false);
  const closeMenu = () => setMenuAnchor(null);

  return (
    <AppBar position="sticky" color="default" elevation={1} component="header" {...props}>
      <Toolbar component="nav" aria-label="Main" sx={{ gap: 1 }}>
        <BrandLink />

        {loading ? <SessionCheck /> : null}
        <Box sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, alignItems: 'center' }}>
          {items.map((item) =>
            item.to ? (
              <Button
                key={item.label}
                component={item.marksActive === false ? RouterLink : NavLink}
                to={item.to}
                color="inherit"
                sx={activeLinkStyle}
              >
                {item.label}
              </Button>
            ) : (
              <Button key={item.label} color="inherit" onClick={item.onSelect} sx={navButtonStyle}>
                {item.label}
              </Button>
            ),
          )}
        </Box>

        <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
          <IconButton
            color="inherit"
            aria-label="Open navigation menu"
            aria-controls={menuAnchor ? menuId : undefined}
            aria-haspopup="true"
            aria-expanded={menuAnchor ? 'true' : undefined}
            onClick={(event: MouseEvent<HTMLElement>) => {
              setHasOpenedMenu(true);
              setMenuAnchor(event.currentTarget);
            }}
          >
            <MenuIcon />
          </IconButton>
          {/* The menu (MUI's Menu, Popover and Modal) loads the first time it opens: the first page needs none of it. */}
          {hasOpenedMenu ? (
            <Suspense fallback={null}>
              <NavMenu id={menuId} anchor={menuAnchor} items={items} onClose={closeMenu} />
            </Suspense>
          ) : null}
        </Box>
      </Toolbar>
    </AppBar>
  );
}
