import { Navigate, Outlet } from 'react-router-dom';
import { PageLoading } from '../components/loading-icon.tsx';
import { hasSeenDemo } from '../lib/browser-storage.ts';

/**
 * Spec section 2 (Courses list): a logged-in person who has not viewed or skipped the demo
 * (no `seenDemo` in local storage) is sent to /demo first. Kept in the route table, around the
 * courses list, so the screen module itself can be replaced without losing the rule. Until the
 * demo's screen has loaded the page says so: a first sign-in would otherwise show an empty page.
 */
export function RequireSeenDemo() {
  if (!hasSeenDemo())
    return (
      <>
        <PageLoading label="Opening How it works" />
        <Navigate to="/demo" replace />
      </>
    );
  return <Outlet />;
}
