import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  useMediaQuery,
  type ButtonProps,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { LoadingMessage } from './screen-states.tsx';

// pdf.js is large: it loads the first time someone opens a PDF, not with the screen.
const PdfViewer = lazy(async () => ({ default: (await import('./pdf-viewer.tsx')).PdfViewer }));

export interface PdfDialogButtonProps {
  /** The signed link to the PDF. */
  url: string;
  /** Button text, e.g. 'View Question PDF'. */
  children: ReactNode;
  /** Dialog title and the viewer's accessible name, e.g. 'Question PDF'. */
  title: string;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  /** Accessible name when the visible text alone is ambiguous (several 'View PDF' in a table). */
  'aria-label'?: string;
}

/**
 * A button that opens a PDF in the in-app viewer (a dialog, full screen on phones), with a plain
 * link to open the same file in a new browser tab.
 */
export function PdfDialogButton({
  url,
  children,
  title,
  variant = 'outlined',
  size,
  'aria-label': ariaLabel,
}: PdfDialogButtonProps) {
  const [isOpen, setOpen] = useState(false);
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const close = () => setOpen(false);

  return (
    <>
      <Button
        variant={variant}
        size={size}
        startIcon={<PictureAsPdfIcon />}
        onClick={() => setOpen(true)}
        aria-label={ariaLabel}
        aria-haspopup="dialog"
      >
        {children}
      </Button>
      <Dialog open={isOpen} onClose={close} fullScreen={isPhone} maxWidth="md" fullWidth aria-labelledby={titleId}>
        <DialogTitle id={titleId} sx={{ pr: 7 }}>
          {title}
        </DialogTitle>
        <IconButton aria-label="Close PDF" onClick={close} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
        <DialogContent dividers sx={{ px: { xs: 1, sm: 3 } }}>
          {isOpen ? (
            <Suspense fallback={<LoadingMessage text="Loading PDF…" compact />}>
              <PdfViewer key={url} url={url} title={title} />
            </Suspense>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button component="a" href={url} target="_blank" rel="noopener noreferrer" endIcon={<OpenInNewIcon />}>
            Open in new tab
          </Button>
          <Button onClick={close}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
