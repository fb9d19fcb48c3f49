import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Box, Button, GlobalStyles } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { afterFirstView } from './after-first-view.ts';

/**
 * The app's toasts (spec sections 8 and 9). react-toastify and its stylesheet (about 7 KB gzip of
 * script and the largest part of the first page's stylesheet) are not on the first page: they load
 * when the browser is idle after the first view (afterFirstView, decision 0125), or with the first
 * toast if it comes sooner (decision 0044). Loading them early rather than only with the first toast keeps a failed request
 * able to say so when the network is gone. Until they are loaded, toasts wait in order; once loaded,
 * every toast is shown at once, as before.
 */
type ToastModule = typeof import('./toast-container.tsx');

let toastModule: ToastModule | null = null;
let loading: Promise<ToastModule> | null = null;
const loadListeners = new Set<() => void>();

/** Starts loading react-toastify (once; every caller gets the same promise). Tests await it first. */
export function loadToasts(): Promise<ToastModule> {
  loading ??= import('./toast-container.tsx').then(
    (loaded) => {
      toastModule = loaded;
      loadListeners.forEach((listener) => listener());
      return loaded;
    },
    (error: unknown) => {
      // A later toast tries again (the chunk may be back with the network).
      loading = null;
      throw error;
    },
  );
  return loading;
}

function withToast(show: (toast: ToastModule['toast']) => void): void {
  if (toastModule) return show(toastModule.toast);
  loadToasts().then(
    (loaded) => show(loaded.toast),
    (error: unknown) => console.error('The notifications could not be loaded.', error),
  );
}

function subscribeToLoad(listener: () => void): () => void {
  loadListeners.add(listener);
  return () => loadListeners.delete(listener);
}

/**
 * Where the toasts appear: top right, below the top bar (the nav's Courses / Logout, and the
 * grading screen's toolbar with the review queue's Next, which wraps to a second line on a phone),
 * so a toast never covers them; the newest stacks on top and older ones slide down beneath it.
 */
export function AppToasts() {
  const layer = useToastLayer();
  const loaded = useSyncExternalStore(subscribeToLoad, () => toastModule);
  const queryClient = useQueryClient();
  // After the first view, not at the first idle time: that came before the grading screen's
  // largest paint (decision 0125).
  useEffect(() => afterFirstView(queryClient, () => void loadToasts().catch(() => undefined)), [queryClient]);
  return (
    <>
      <GlobalStyles styles={TOAST_OFFSET} />
      {createPortal(loaded ? <loaded.AppToastContainer /> : null, layer)}
    </>
  );
}

/**
 * A child of <body> of its own for the toasts. An open MUI dialog (the full-screen grading screen)
 * sets aria-hidden on every other child of <body>, which would silence the toasts for screen
 * readers and take their Undo button out of the accessibility tree; this layer keeps itself out of
 * that, as the announcements it carries are meant to be heard over any dialog.
 */
function useToastLayer(): HTMLElement {
  const [layer] = useState(() => {
    const element = document.createElement('div');
    element.dataset.toastLayer = '';
    return element;
  });
  useEffect(() => {
    document.body.appendChild(layer);
    const observer = new MutationObserver(() => {
      if (layer.hasAttribute('aria-hidden')) layer.removeAttribute('aria-hidden');
    });
    observer.observe(layer, { attributes: true, attributeFilter: ['aria-hidden'] });
    return () => {
      observer.disconnect();
      layer.remove();
    };
  }, [layer]);
  return layer;
}

/** Below the tallest top bar (72px desk toolbars; on a phone the queue's own line and badge make the grading toolbar 140px); `body` outranks the stylesheet's own rule. */
const TOAST_OFFSET = {
  'body .Toastify__toast-container--top-right': { top: 88 },
  '@media (max-width: 480px)': { 'body .Toastify__toast-container--top-right': { top: 148 } },
} as const;

/** Failures are logged for the developer and shown to the person (spec section 8). */
export function showError(message: ReactNode, error?: unknown): void {
  if (error !== undefined) console.error(message, error);
  withToast((toast) => toast.error(message));
}

/** An error toast shown once however often it is asked for while on screen: `key` names the failure. */
export function showErrorOnce(message: string, key: string): void {
  withToast((toast) => toast.error(message, { toastId: key }));
}

export function showSuccess(message: ReactNode): void {
  withToast((toast) => toast.success(message));
}

export function showInfo(message: string): void {
  withToast((toast) => toast.info(message));
}

/** How long a toast that offers Undo stays (paused while hovered): longer than the rest, to reach its button. */
const UNDO_TOAST_MS = 10_000;

/** The Undo of the toast on screen, if any: a keyboard shortcut (U on the grading screen) runs it too. */
let pendingUndo: (() => void) | null = null;
/** Only the latest save offers Undo: its toast replaces an earlier one, so U and the button agree. */
let undoToastId: string | null = null;
/** Undo toasts are named here, not by react-toastify, so the name is known before the toast is shown. */
let undoToastCount = 0;

/**
 * A success toast with an Undo button (issue 13 item 10: a grade saved with a single key can be
 * taken back). Undo closes the toast and runs `onUndo` once; the offer ends when the toast closes
 * or a newer save replaces it.
 */
export function showSuccessWithUndo(message: string, onUndo: () => void): void {
  const earlier = undoToastId;
  const id = `undo-${(undoToastCount += 1)}`;
  let isUsed = false;
  const runThis = () => {
    if (isUsed) return;
    isUsed = true;
    withToast((toast) => toast.dismiss(id));
    onUndo();
  };
  pendingUndo = runThis;
  undoToastId = id;
  withToast((toast) => {
    if (earlier !== null) toast.dismiss(earlier);
    toast.success(
      ({ closeToast }) => {
        const undo = () => {
          if (isUsed) return;
          isUsed = true;
          closeToast();
          onUndo();
        };
        return (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: '100%' }}>
            <Box component="span" sx={{ flex: 1 }}>
              {message}
            </Box>
            <Button size="small" color="inherit" variant="outlined" onClick={undo} sx={{ flexShrink: 0 }}>
              Undo
            </Button>
          </Box>
        );
      },
      {
        toastId: id,
        autoClose: UNDO_TOAST_MS,
        onClose: () => {
          if (pendingUndo === runThis) pendingUndo = null;
        },
      },
    );
  });
}

/** Runs the Undo of the toast on screen; false when there is none (it closed, or was used). */
export function undoFromToast(): boolean {
  const undo = pendingUndo;
  pendingUndo = null;
  if (!undo) return false;
  undo();
  return true;
}
