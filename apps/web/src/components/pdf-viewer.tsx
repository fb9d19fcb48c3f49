import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Document, Page } from 'react-pdf';
import 'react-pdf/dist/Page/TextLayer.css';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { PDF_DOCUMENT_OPTIONS } from '../lib/pdf-worker.ts';
import { LoadingMessage } from './screen-states.tsx';

export const PDF_LOAD_FAILED_MESSAGE = 'Failed to load PDF.';
/** Spec section 9: preview page width 600; narrower screens get the width they have. */
export const PDF_PAGE_WIDTH = 600;

export interface PdfViewerProps {
  /** A signed file link (/api/files/...) or any same-origin PDF URL. */
  url: string;
  /** What the document is, for screen readers ("Question PDF"). */
  title: string;
  /** Largest page width in CSS pixels. */
  maxPageWidth?: number;
  /** The page shown (1-based), when the screen around it decides (comment regions); else the viewer pages itself. */
  pageNumber?: number;
  onPageNumberChange?(pageNumber: number): void;
  /** Drawn over the page, in a box exactly the page's size (comment regions); `null` draws nothing. */
  renderPageOverlay?(pageNumber: number): ReactNode;
  /** Shown between the paging controls and the page (what a drawing mode asks of the user). */
  pageBanner?: ReactNode;
}

/**
 * One page at a time with Previous / Next (react-pdf over pdf.js, worker bundled). The page
 * is drawn on a canvas with a text layer on top, so its text can be selected and read aloud.
 * Give it a `key` of the URL when the document can change, so paging starts again at page 1.
 */
export function PdfViewer({
  url,
  title,
  maxPageWidth = PDF_PAGE_WIDTH,
  renderPageOverlay,
  pageBanner,
  ...paging
}: PdfViewerProps) {
  const [pageCount, setPageCount] = useState<number | null>(null);
  const [ownPageNumber, setOwnPageNumber] = useState(1);
  // The overlay waits for its page to be drawn: until then the box it is laid over has no page's size.
  const [drawnPage, setDrawnPage] = useState<number | null>(null);
  const wanted = paging.pageNumber ?? ownPageNumber;
  // A page asked for before the document loaded (or past its end) shows the nearest one there is.
  const pageNumber = pageCount ? Math.min(Math.max(1, wanted), pageCount) : Math.max(1, wanted);
  const setPageNumber = (change: (current: number) => number) => {
    const next = change(pageNumber);
    setOwnPageNumber(next);
    paging.onPageNumberChange?.(next);
  };
  const [hasFailed, setHasFailed] = useState(false);
  const frameRef = useRef<HTMLDivElement | null>(null);
  const width = useAvailableWidth(frameRef, maxPageWidth);

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      {/* Above the page, so paging never needs scrolling past a tall page first. */}
      {pageCount && !hasFailed ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{ mb: 1.5, justifyContent: 'center', alignItems: 'center' }}
          role="group"
          aria-label="Pages"
        >
          <Button
            startIcon={<NavigateBeforeIcon />}
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((current) => Math.max(1, current - 1))}
          >
            Previous
          </Button>
          <Typography variant="body2" aria-live="polite" sx={{ minWidth: 96, textAlign: 'center' }}>
            Page {pageNumber} of {pageCount}
          </Typography>
          <Button
            endIcon={<NavigateNextIcon />}
            disabled={pageNumber >= pageCount}
            onClick={() => setPageNumber((current) => Math.min(pageCount, current + 1))}
          >
            Next
          </Button>
        </Stack>
      ) : null}
      {pageBanner}
      <Box ref={frameRef} sx={{ width: '100%', display: 'flex', justifyContent: 'center' }}>
        <Document
          file={url}
          options={PDF_DOCUMENT_OPTIONS}
          onLoadSuccess={({ numPages }) => {
            setPageCount(numPages);
          }}
          onLoadError={(error) => {
            console.error(PDF_LOAD_FAILED_MESSAGE, error);
            setHasFailed(true);
          }}
          onSourceError={(error) => {
            console.error(PDF_LOAD_FAILED_MESSAGE, error);
            setHasFailed(true);
          }}
          loading={<LoadingMessage text="Loading PDF…" compact />}
          error={<Alert severity="error">{PDF_LOAD_FAILED_MESSAGE}</Alert>}
          noData={<Alert severity="error">{PDF_LOAD_FAILED_MESSAGE}</Alert>}
        >
          {width > 0 ? (
            <Box
              sx={{
                bgcolor: 'common.white',
                boxShadow: 3,
                lineHeight: 0,
                // The canvas must never push the dialog wider than the phone.
                maxWidth: '100%',
                overflow: 'hidden',
                // The overlay (comment regions) is laid over the page in the same box.
                position: 'relative',
              }}
            >
              <Page
                pageNumber={pageNumber}
                width={width}
                renderAnnotationLayer={false}
                loading={<LoadingMessage text="Loading page…" compact />}
                error={<Alert severity="error">{PDF_LOAD_FAILED_MESSAGE}</Alert>}
                onRenderSuccess={() => setDrawnPage(pageNumber)}
              />
              {renderPageOverlay && drawnPage === pageNumber ? renderPageOverlay(pageNumber) : null}
            </Box>
          ) : null}
        </Document>
      </Box>
    </Box>
  );
}

/** The width a page may take: the frame's width, at most `maxWidth`, followed as the window resizes. */
function useAvailableWidth(frameRef: RefObject<HTMLDivElement | null>, maxWidth: number): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const measure = () => setWidth(Math.floor(Math.min(maxWidth, frame.clientWidth || maxWidth)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    return () => observer.disconnect();
  }, [frameRef, maxWidth]);
  return width;
}
