import { Navigate, Outlet } from 'react-router-dom';
import { hasSeenDemo } from '../lib/browser-storage.ts';

/**
 * Spec section 2 (Courses list): a logged-in person who has not viewed or skipped the demo
 * (no `seenDemo` in local storage) is sent to /demo first. Kept in the route table, around the
 * courses list, so the screen module itself can be replaced without losing the rule.
 */
export function RequireSeenDemo() {
  if (!hasSeenDemo()) return <Navigate to="/demo" replace />;
  return <Outlet />;
}
