import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { Alert, Box, Button, Stack } from '@mui/material';
import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import { regionAfterKey, regionFromDrag, regionToPercentStyle, type Point } from './region-geometry.ts';

export interface RegionDrawerProps {
  /** The page shown: the box is drawn on it. */
  page: number;
  /** The box so far (its page is replaced by `page`). */
  box: CommentRegion;
  /** What is being drawn, for screen readers ("Box for comment 2"). */
  label: string;
  /** The id of the instructions (RegionDrawingBanner), read when the layer takes focus. */
  instructionsId: string;
  onBoxChange(box: CommentRegion): void;
  onConfirm(box: CommentRegion): void;
  onCancel(): void;
}

/**
 * The layer laid over a PDF page while a comment's box is drawn (issue 13 item 12). With a mouse,
 * pen or finger: drag from one corner to the other and let go to keep it. With the keyboard (the
 * layer takes focus): the arrow keys move a box that starts in the middle of the page, Shift with
 * them resizes it, Alt makes the steps fine, Enter keeps it and Escape cancels.
 */
export function RegionDrawer({
  page,
  box,
  label,
  instructionsId,
  onBoxChange,
  onConfirm,
  onCancel,
}: RegionDrawerProps) {
  const layerRef = useRef<HTMLDivElement | null>(null);
  const dragStart = useRef<Point | null>(null);
  const onPage = { ...box, page };

  // Focus (and with it the page, scrolled into view: on a phone the PDF is above the comments).
  useEffect(() => {
    layerRef.current?.focus();
  }, []);

  const pointIn = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { point: { x: event.clientX - rect.left, y: event.clientY - rect.top }, size: rect };
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.currentTarget.focus({ preventScroll: true });
    dragStart.current = pointIn(event).point;
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!dragStart.current) return;
    const { point, size } = pointIn(event);
    const drawn = regionFromDrag(page, dragStart.current, point, size);
    if (drawn) onBoxChange(drawn);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!dragStart.current) return;
    const { point, size } = pointIn(event);
    const drawn = regionFromDrag(page, dragStart.current, point, size);
    dragStart.current = null;
    // A click is not a box: the one shown stays, to be dragged again or kept with Enter.
    if (drawn) onConfirm(drawn);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    let handled = true;
    if (event.key === 'Enter') onConfirm(onPage);
    else if (event.key === 'Escape') onCancel();
    else {
      const next = regionAfterKey(onPage, event.key, { shiftKey: event.shiftKey, altKey: event.altKey });
      if (next) onBoxChange(next);
      else handled = false;
    }
    if (handled) event.preventDefault();
    // The grading screen's shortcuts (a, d, s…) must not act on a comment while its box is drawn;
    // Tab still leaves the layer.
    if (event.key !== 'Tab') event.stopPropagation();
  };

  return (
    <Box
      ref={layerRef}
      role="application"
      aria-roledescription="box drawing"
      aria-label={`${label}, page ${page}`}
      aria-describedby={instructionsId}
      tabIndex={0}
      data-region-drawer=""
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        dragStart.current = null;
      }}
      sx={{
        position: 'absolute',
        inset: 0,
        zIndex: 3,
        cursor: 'crosshair',
        // A finger draws instead of scrolling the page while the layer is up.
        touchAction: 'none',
        bgcolor: 'rgba(25, 118, 210, 0.06)',
        '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: -3 },
      }}
    >
      <Box
        aria-hidden
        data-region-draft=""
        sx={{
          position: 'absolute',
          ...regionToPercentStyle(onPage),
          border: '2px dashed',
          borderColor: 'primary.main',
          bgcolor: 'rgba(25, 118, 210, 0.14)',
          pointerEvents: 'none',
        }}
      />
    </Box>
  );
}

/** What to do while drawing, with buttons for those who neither drag nor use the keys. */
export function RegionDrawingBanner({
  id,
  commentNumber,
  onKeep,
  onCancel,
}: {
  id: string;
  commentNumber: number;
  onKeep(): void;
  onCancel(): void;
}) {
  return (
    <Alert
      severity="info"
      icon={false}
      sx={{ mb: 1.5, '& .MuiAlert-message': { width: '100%' } }}
      data-region-banner=""
    >
      <Box id={id} sx={{ mb: 1 }}>
        Marking comment {commentNumber}: drag over the place on the page. Or use the arrow keys to move the box,
        Shift+arrows to resize it, Enter to keep it and Escape to cancel.
      </Box>
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="contained" onClick={onKeep}>
          Keep box
        </Button>
        <Button size="small" color="inherit" onClick={onCancel}>
          Cancel
        </Button>
      </Stack>
    </Alert>
  );
}
