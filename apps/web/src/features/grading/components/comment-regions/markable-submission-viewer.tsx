import { SubmissionViewer, type SubmissionViewerProps } from '../../../../components/submission-viewer.tsx';
import { RegionDrawer, RegionDrawingBanner } from '../../../../components/comment-regions/region-drawer.tsx';
import { RegionOverlay } from '../../../../components/comment-regions/region-overlay.tsx';
import type { RegionMarking } from '../../hooks/use-region-marking.ts';
import { usePdfReadAfterFirstView } from '../../api/grading-reads.ts';

export type MarkableSubmissionViewerProps = Omit<SubmissionViewerProps, 'view' | 'onViewChange' | 'pdf'> & {
  marking: RegionMarking;
};

/**
 * The grading screen's answer with the comments' boxes on its pages, and the drawing layer while
 * a comment is being marked (issue 13 item 12). Page and view follow useRegionMarking, so choosing
 * a comment can turn the PDF to its box.
 */
export function MarkableSubmissionViewer({ marking, ...viewer }: MarkableSubmissionViewerProps) {
  const { drawing } = marking;
  // Mounted with the screen's first view: the answer's PDF is read once that view is on screen.
  usePdfReadAfterFirstView(viewer.fileUrl);
  return (
    <SubmissionViewer
      {...viewer}
      view={marking.view}
      onViewChange={marking.setView}
      pdf={{
        pageNumber: marking.page,
        onPageNumberChange: marking.setPage,
        pageBanner: drawing ? (
          <RegionDrawingBanner
            id={drawing.instructionsId}
            commentNumber={drawing.number}
            onKeep={() => marking.keepMarking({ ...drawing.box, page: marking.page })}
            onCancel={marking.cancelMarking}
          />
        ) : null,
        renderPageOverlay: (page) => (
          <>
            <RegionOverlay
              page={page}
              marks={marking.marks}
              highlightedKey={marking.highlightedTempId}
              scrollTarget={marking.scrollTarget}
              onSelect={marking.selectMark}
            />
            {drawing ? (
              <RegionDrawer
                page={page}
                box={drawing.box}
                label={`Box for comment ${drawing.number}`}
                instructionsId={drawing.instructionsId}
                onBoxChange={marking.setDrawingBox}
                onConfirm={marking.keepMarking}
                onCancel={marking.cancelMarking}
              />
            ) : null}
          </>
        ),
      }}
    />
  );
}
