import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Navigation state that says the in-app history has a page to go back to (kept across replaced entries). */
export interface BackState {
  canGoBack?: boolean;
}

/**
 * Spec: dialogs such as the grading screen and the report "go back one page". Opened from a link
 * inside the app, that is the previous page; opened from a bookmark or a fresh tab, there is none
 * (going back would leave the app), so the screen goes to `fallback` instead.
 */
export function useGoBack(fallback: string): { goBack: () => void; backState: BackState } {
  const navigate = useNavigate();
  const location = useLocation();
  const canGoBack = (location.state as BackState | null)?.canGoBack ?? location.key !== 'default';
  const goBack = useCallback(() => {
    if (canGoBack) navigate(-1);
    else navigate(fallback, { replace: true });
  }, [canGoBack, fallback, navigate]);
  return { goBack, backState: { canGoBack } };
}
