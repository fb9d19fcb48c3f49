import { Navigate, Outlet } from 'react-router-dom';
import { PageLoading } from '../components/loading-icon.tsx';
import { useSession } from '../lib/session.tsx';

/**
 * The private-route guard of spec section 2: a spinner while the session is being checked, the
 * child route once authenticated, otherwise a redirect to / that replaces the history entry (so
 * Back does not bounce into the guard again). The server enforces access on every API call; this
 * only keeps people from landing on screens that cannot work for them.
 */
export function RequireAuth() {
  const { loading, isAuthenticated } = useSession();
  if (loading) return <PageLoading label="Checking your session" />;
  if (!isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
