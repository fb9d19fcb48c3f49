import { useEffect } from 'react';
import { messageOf } from './api-client.ts';
import { showErrorOnce } from './toasts.tsx';

/**
 * Spec section 8 for reads: a failed fetch is logged and shown once as an error toast (the server's
 * message, else the screen's fallback). The toast id dedupes the same failure rendered twice
 * (StrictMode, several components reading one query).
 */
export function useErrorToast(error: unknown, fallback: string): void {
  useEffect(() => {
    if (!error) return;
    const message = messageOf(error, fallback);
    console.error(fallback, error);
    showErrorOnce(message, `${fallback}:${message}`);
  }, [error, fallback]);
}
