import { lazy, Suspense, useId, useState } from 'react';
import { Alert, Box, Link, Paper, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { ErrorBoundary } from './error-boundary.tsx';
import { ExtractionState, type ExtractionStateProps } from './extraction-state.tsx';
import type { PdfViewerProps } from './pdf-viewer.tsx';
import { LoadingMessage } from './screen-states.tsx';

// pdf.js is large: it loads when a PDF is first shown, not with the screen.
const PdfViewer = lazy(async () => ({ default: (await import('./pdf-viewer.tsx')).PdfViewer }));

export const NO_EXTRACTED_TEXT = 'No extracted text.';
const PDF_FAILED = 'Failed to load PDF.';
export type SubmissionView = 'pdf' | 'text';

export interface SubmissionViewerProps {
  /** Signed link to the submission's PDF. */
  fileUrl: string;
  /** The text the grader read (extracted or OCR); empty when there is none. */
  text: string;
  /** Whose answer this is, for screen readers ("Answer of Sam Student"). */
  title: string;
  defaultView?: SubmissionView;
  /** Where reading the PDF's text stands, shown with the converted text (staff screens). */
  extraction?: ExtractionStateProps;
  /** The view shown, when the screen around it decides (a comment's region asks for the PDF). */
  view?: SubmissionView;
  onViewChange?(view: SubmissionView): void;
  /** Paging, overlay and banner of the PDF (comment regions); see PdfViewer. */
  pdf?: Pick<PdfViewerProps, 'pageNumber' | 'onPageNumberChange' | 'renderPageOverlay' | 'pageBanner'>;
}

/**
 * The left pane of the grading screen and the grading report (spec section 2): the answer as
 * 'Original PDF' (paged viewer) or as 'Converted Text' (what the grader read).
 */
export function SubmissionViewer({
  fileUrl,
  text,
  title,
  defaultView = 'pdf',
  extraction,
  pdf,
  ...controlled
}: SubmissionViewerProps) {
  const [ownView, setOwnView] = useState<SubmissionView>(defaultView);
  const view = controlled.view ?? ownView;
  const setView = (next: SubmissionView) => {
    setOwnView(next);
    controlled.onViewChange?.(next);
  };
  const panelId = useId();
  return (
    <Box sx={{ minWidth: 0 }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={view}
        onChange={(_event, next: SubmissionView | null) => {
          if (next) setView(next);
        }}
        aria-label="Show the answer as"
        sx={{ mb: 2 }}
      >
        <ToggleButton value="pdf" aria-controls={panelId}>
          Original PDF
        </ToggleButton>
        <ToggleButton value="text" aria-controls={panelId}>
          Converted Text
        </ToggleButton>
      </ToggleButtonGroup>
      <Box
        id={panelId}
        role="region"
        aria-label={view === 'pdf' ? `${title}: original PDF` : `${title}: converted text`}
      >
        {view === 'pdf' ? (
          // If the PDF viewer itself cannot start (pdf.js needs a recent browser), the screen stays
          // usable: the failure is said, and the file can still be opened by the browser.
          <ErrorBoundary
            key={fileUrl}
            onError={(error) => console.error(PDF_FAILED, error)}
            fallback={
              <Alert severity="error">
                {PDF_FAILED}{' '}
                <Link href={fileUrl} target="_blank" rel="noopener noreferrer">
                  Open the PDF in a new tab
                </Link>
              </Alert>
            }
          >
            <Suspense fallback={<LoadingMessage text="Loading PDF…" compact />}>
              <PdfViewer url={fileUrl} title={title} {...pdf} />
            </Suspense>
          </ErrorBoundary>
        ) : (
          <Paper variant="outlined" sx={{ p: 2, maxHeight: { md: '70vh' }, overflow: 'auto' }}>
            {extraction?.status ? (
              <Box sx={{ mb: 1 }}>
                <ExtractionState {...extraction} />
              </Box>
            ) : null}
            {text.trim() ? (
              <Typography
                component="pre"
                sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', m: 0 }}
              >
                {text}
              </Typography>
            ) : (
              <Typography color="text.secondary">{NO_EXTRACTED_TEXT}</Typography>
            )}
          </Paper>
        )}
      </Box>
    </Box>
  );
}
