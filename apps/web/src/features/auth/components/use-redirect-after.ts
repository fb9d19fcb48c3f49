import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Login and register show their success message, then move on after a pause (spec section 9:
 * 2 seconds). The timer is dropped if the screen goes away first.
 */
export function useRedirectAfter(delayMs: number): (to: string) => void {
  const navigate = useNavigate();
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    if (target === null) return;
    const timer = setTimeout(() => navigate(target), delayMs);
    return () => clearTimeout(timer);
  }, [target, delayMs, navigate]);
  return setTarget;
}

export const REDIRECT_AFTER_AUTH_MS = 2000;
