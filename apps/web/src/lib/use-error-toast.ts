import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { messageOf } from './api-client.ts';

/**
 * Spec section 8 for reads: a failed fetch is logged and shown once as an error toast (the server's
 * message, else the screen's fallback). The toast id dedupes the same failure rendered twice
 * (StrictMode, several components reading one query). Same toast entry as lib/toasts.tsx.
 */
export function useErrorToast(error: unknown, fallback: string): void {
  useEffect(() => {
    if (!error) return;
    const message = messageOf(error, fallback);
    console.error(fallback, error);
    toast.error(message, { toastId: `${fallback}:${message}` });
  }, [error, fallback]);
}
