import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, GlobalStyles, IconButton } from '@mui/material';
import { Slide, ToastContainer, toast } from 'react-toastify/unstyled';
// The stylesheet is bundled from node_modules (no CDN); the unstyled entry keeps it from being injected twice.
import 'react-toastify/ReactToastify.css';

/**
 * Toast settings of spec section 9: top right, 5 seconds, paused on hover and on focus loss.
 * Pushed down below the top bar (the nav's Courses / Logout, and the grading screen's toolbar
 * with the review queue's Next, which wraps to a second line on a phone), so a toast never covers
 * them; the newest stacks on top and older ones slide down beneath it.
 */
export function AppToasts() {
  const layer = useToastLayer();
  return (
    <>
      <GlobalStyles styles={TOAST_OFFSET} />
      {createPortal(
        <ToastContainer
          position="top-right"
          autoClose={5000}
          pauseOnHover
          pauseOnFocusLoss
          closeOnClick={false}
          newestOnTop
          theme="dark"
          transition={Slide}
          closeButton={DismissButton}
        />,
        layer,
      )}
    </>
  );
}

/**
 * The toast's own close button, named for what it does: its default name ("close") is the name of
 * the grading screen's Close too, and both are on screen at once after a save.
 */
function DismissButton({ closeToast }: { closeToast: (reason?: boolean | string) => void }) {
  return (
    <IconButton
      aria-label="Dismiss notification"
      size="small"
      onClick={() => closeToast(true)}
      sx={{ alignSelf: 'flex-start', color: 'inherit', opacity: 0.7 }}
    >
      <CloseIcon fontSize="small" />
    </IconButton>
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
export function showError(message: string, error?: unknown): void {
  if (error !== undefined) console.error(message, error);
  toast.error(message);
}

export function showSuccess(message: string): void {
  toast.success(message);
}

export function showInfo(message: string): void {
  toast.info(message);
}

/** How long a toast that offers Undo stays (paused while hovered): longer than the rest, to reach its button. */
const UNDO_TOAST_MS = 10_000;

/** The Undo of the toast on screen, if any: a keyboard shortcut (U on the grading screen) runs it too. */
let pendingUndo: (() => void) | null = null;
/** Only the latest save offers Undo: its toast replaces an earlier one, so U and the button agree. */
let undoToastId: string | number | null = null;

/**
 * A success toast with an Undo button (issue 13 item 10: a grade saved with a single key can be
 * taken back). Undo closes the toast and runs `onUndo` once; the offer ends when the toast closes
 * or a newer save replaces it.
 */
export function showSuccessWithUndo(message: string, onUndo: () => void): void {
  if (undoToastId !== null) toast.dismiss(undoToastId);
  let isUsed = false;
  const id = toast.success(
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
      autoClose: UNDO_TOAST_MS,
      onClose: () => {
        if (pendingUndo === runThis) pendingUndo = null;
      },
    },
  );
  const runThis = () => {
    if (isUsed) return;
    isUsed = true;
    toast.dismiss(id);
    onUndo();
  };
  pendingUndo = runThis;
  undoToastId = id;
}

/** Runs the Undo of the toast on screen; false when there is none (it closed, or was used). */
export function undoFromToast(): boolean {
  const undo = pendingUndo;
  pendingUndo = null;
  if (!undo) return false;
  undo();
  return true;
}
