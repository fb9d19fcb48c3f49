import { useId, useState } from 'react';
import { useMediaQuery, useTheme } from '@mui/material';
import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import type { SubmissionView } from '../../../components/submission-viewer.tsx';
import { DEFAULT_REGION } from '../../../components/comment-regions/region-geometry.ts';
import type { RegionMark } from '../../../components/comment-regions/region-overlay.tsx';
import type { CommentReview } from './use-comment-review.ts';
import type { GradingPanels } from './use-grading-panels.ts';

/** A request to bring one box into view; a new nonce asks again for the same box. */
export interface ScrollTarget {
  key: string;
  nonce: number;
}

/**
 * The grading screen's comment regions (issue 13 item 12): which page and view the answer shows,
 * which comment's box stands out (the one hovered, else the current one), and the drawing of a
 * box for a comment — started with "Mark on page", kept by letting go of a drag or with Enter,
 * cancelled with Escape. The boxes themselves are part of the comments (useCommentReview), so
 * they are saved with the grade through the existing save. On a phone (tabs), marking and showing a
 * box turn to the answer's tab, and keeping a box or choosing one turns back to its comment.
 */
export function useRegionMarking(review: CommentReview, panels: Pick<GradingPanels, 'show'>) {
  const [view, setView] = useState<SubmissionView>('pdf');
  const [page, setPage] = useState(1);
  const [hoveredTempId, setHoveredTempId] = useState<string | null>(null);
  const [drawing, setDrawing] = useState<{ tempId: string; box: CommentRegion } | null>(null);
  const [scrollTarget, setScrollTarget] = useState<ScrollTarget | null>(null);
  const instructionsId = useId();
  // Side by side (md and up) the page can follow the comments; on a phone the list is elsewhere.
  const theme = useTheme();
  const isSideBySide = useMediaQuery(theme.breakpoints.up('md'));

  const comments = review.state.comments;
  const indexOf = (tempId: string) => comments.findIndex((comment) => comment.tempId === tempId);
  // A comment deleted while its box was being drawn ends the drawing.
  const activeDrawing = drawing && indexOf(drawing.tempId) >= 0 ? drawing : null;
  const highlightedTempId = activeDrawing ? null : (hoveredTempId ?? review.activeTempId);

  const scrollTo = (key: string) => setScrollTarget((current) => ({ key, nonce: (current?.nonce ?? 0) + 1 }));

  // Looking at a comment turns the PDF to its box's page, and beside the list brings the box into
  // view. Done while rendering, on a change of comment (or of its box's page) only: paging by hand
  // is left alone.
  const highlightedRegion = comments.find((comment) => comment.tempId === highlightedTempId)?.region ?? null;
  const highlightKey = highlightedTempId && highlightedRegion ? `${highlightedTempId}@${highlightedRegion.page}` : null;
  const [seenHighlightKey, setSeenHighlightKey] = useState<string | null>(null);
  if (highlightKey !== seenHighlightKey) {
    setSeenHighlightKey(highlightKey);
    if (highlightedTempId && highlightedRegion) {
      setPage(highlightedRegion.page);
      if (isSideBySide) scrollTo(highlightedTempId);
    }
  }

  const marks: RegionMark[] = comments.flatMap((comment, index) =>
    comment.region && comment.tempId !== activeDrawing?.tempId
      ? [
          {
            key: comment.tempId,
            number: index + 1,
            region: comment.region,
            text: comment.text,
            isMuted: !comment.accepted,
          },
        ]
      : [],
  );

  /** "Mark on page": a box to draw on the page shown (or the comment's own box, on its page). */
  const startMarking = (tempId: string) => {
    const comment = comments[indexOf(tempId)];
    if (!comment) return;
    const startPage = comment.region?.page ?? page;
    panels.show('answer');
    setView('pdf');
    setPage(startPage);
    setDrawing({ tempId, box: comment.region ?? { page: startPage, ...DEFAULT_REGION } });
    review.announce(`Marking comment ${indexOf(tempId) + 1} on the page.`);
  };

  const finishMarking = (box: CommentRegion | null) => {
    if (!activeDrawing) return;
    const { tempId } = activeDrawing;
    setDrawing(null);
    if (box) review.setRegion(tempId, box);
    else review.announce('Marking cancelled.');
    panels.show('comments');
    review.focusComment(tempId);
  };

  /** "Show on page": the PDF, at the box's page, with the box brought into view (any width). */
  const showOnPage = (tempId: string) => {
    const region = comments[indexOf(tempId)]?.region;
    if (!region) return;
    panels.show('answer');
    setView('pdf');
    setPage(region.page);
    setHoveredTempId(null);
    review.handlers.onActivate(tempId);
    scrollTo(tempId);
  };

  return {
    view,
    setView,
    page,
    setPage,
    marks,
    highlightedTempId,
    scrollTarget,
    drawing: activeDrawing ? { ...activeDrawing, number: indexOf(activeDrawing.tempId) + 1, instructionsId } : null,
    setDrawingBox: (box: CommentRegion) => setDrawing((current) => (current ? { ...current, box } : current)),
    onHover: setHoveredTempId,
    startMarking,
    keepMarking: (box: CommentRegion) => finishMarking(box),
    cancelMarking: () => finishMarking(null),
    removeMark: (tempId: string) => review.setRegion(tempId, null),
    showOnPage,
    selectMark: (tempId: string) => {
      panels.show('comments');
      review.focusComment(tempId);
    },
  };
}

export type RegionMarking = ReturnType<typeof useRegionMarking>;
