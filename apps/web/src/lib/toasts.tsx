import { Slide, ToastContainer, toast } from 'react-toastify/unstyled';
// The stylesheet is bundled from node_modules (no CDN); the unstyled entry keeps it from being injected twice.
import 'react-toastify/ReactToastify.css';

/** Toast settings of spec section 9: top right, 5 seconds, paused on hover and on focus loss. */
export function AppToasts() {
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
    />
  );
}

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
