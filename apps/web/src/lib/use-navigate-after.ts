import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Moves on to another screen after a pause (spec section 9: 1 second after adding students), so
 * the success toast is seen first. The timer is dropped if the screen goes away before it fires.
 */
export function useNavigateAfter(delayMs: number): (to: string) => void {
  const navigate = useNavigate();
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    if (target === null) return;
    const timer = setTimeout(() => navigate(target), delayMs);
    return () => clearTimeout(timer);
  }, [target, delayMs, navigate]);
  return setTarget;
}
