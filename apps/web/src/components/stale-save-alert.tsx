import { useId } from 'react';
import { Alert, AlertTitle, Button } from '@mui/material';

export interface StaleSaveAlertProps {
  /** The server's account of the newer save: who saved what and when. */
  message: string;
  onReload: () => void;
  isReloading?: boolean;
}

/**
 * Shown when a save was refused because someone saved in between (409): nothing of the person's
 * work is thrown away until they choose Reload, which loads what is current now.
 */
export const STALE_SAVE_TITLE = 'Not saved: this changed since you opened it';

export function StaleSaveAlert({ message, onReload, isReloading = false }: StaleSaveAlertProps) {
  const titleId = useId();
  return (
    <Alert
      severity="warning"
      role="alert"
      aria-labelledby={titleId}
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onReload} disabled={isReloading}>
          Reload
        </Button>
      }
    >
      <AlertTitle id={titleId}>{STALE_SAVE_TITLE}</AlertTitle>
      {message}
    </Alert>
  );
}
