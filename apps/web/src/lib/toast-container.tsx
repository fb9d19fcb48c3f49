import CloseIcon from '@mui/icons-material/Close';
import { IconButton } from '@mui/material';
import { Slide, ToastContainer, toast } from 'react-toastify/unstyled';
// The stylesheet is bundled from node_modules (no CDN); the unstyled entry keeps it from being injected twice.
import 'react-toastify/ReactToastify.css';

/**
 * react-toastify and its stylesheet, loaded apart from the first page (lib/toasts.tsx loads this
 * module when the browser is idle after the first paint, or with the first toast if that is
 * sooner). Everything else imports lib/toasts.tsx, never react-toastify.
 */
export { toast };

/**
 * Toast settings of spec section 9: top right, 5 seconds, paused on hover and on focus loss.
 * @public read by lib/toasts.tsx from its dynamic import, which knip does not follow.
 */
export function AppToastContainer() {
  return (
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
    />
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
