import { useRef, useState } from 'react';
import type { GradingComment } from '@gradewise/shared/contracts/grading';
import type { SubmissionView } from '../../../components/submission-viewer.tsx';
import type { RegionMark } from '../../../components/comment-regions/region-overlay.tsx';

/**
 * The report's comment boxes (issue 13 item 12), read-only: the comments shown in the list are
 * numbered 1..n and those with a region get a box with the same number on the PDF. Hovering a
 * comment makes its box stand out; "Show on page" turns the PDF to it; choosing a box goes to its
 * comment. Only the comments given (the accepted ones) get boxes: a student is sent no others.
 */
export function useReportRegions(comments: readonly GradingComment[]) {
  const [view, setView] = useState<SubmissionView>('pdf');
  const [page, setPage] = useState(1);
  const [highlightedId, setHighlightedId] = useState<string | null>(null);
  const [scrollTarget, setScrollTarget] = useState<{ key: string; nonce: number } | null>(null);
  const nonce = useRef(0);
  const items = useRef(new Map<string, HTMLElement>());

  const marks: RegionMark[] = comments.flatMap((comment, index) =>
    comment.region ? [{ key: comment._id, number: index + 1, region: comment.region, text: comment.text }] : [],
  );

  return {
    view,
    setView,
    page,
    setPage,
    marks,
    highlightedId,
    scrollTarget,
    /** Pointer over a comment (or off it): its box stands out, on the page it is on. */
    hover(id: string | null) {
      setHighlightedId(id);
      const region = comments.find((comment) => comment._id === id)?.region;
      if (region && view === 'pdf') setPage(region.page);
    },
    /** "Show on page": the PDF at the box's page, the box brought into view. */
    show(id: string) {
      const region = comments.find((comment) => comment._id === id)?.region;
      if (!region) return;
      setView('pdf');
      setPage(region.page);
      setHighlightedId(id);
      setScrollTarget({ key: id, nonce: ++nonce.current });
    },
    /** A box chosen on the page: its comment in the list. */
    select(id: string) {
      setHighlightedId(id);
      items.current.get(id)?.focus();
    },
    registerItem(id: string, element: HTMLElement | null) {
      if (element) items.current.set(id, element);
      else items.current.delete(id);
    },
  };
}

export type ReportRegions = ReturnType<typeof useReportRegions>;
