import { useEffect, useState, type ReactNode } from 'react';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';

/** Set once a grading screen of this page load has drawn its whole first view. */
let hasDrawnWholeView = false;

/**
 * Part of the grading screen's first view drawn in the task after the screen's paint (decision
 * 0104): the comment cards and the grade bar. On the first grading screen of a page load that draw
 * runs cold code and inserts every style of the screen for the first time (emotion); on a phone it
 * was the longest task before the largest paint (the answer-group notice, above the cards). Both
 * parts come below everything already drawn, so nothing on screen moves. Later screens of the same
 * page (Next, Previous, a save's move) find the code and the styles there and draw `children` at
 * once, with the rest of the answer (bench/grading-next.ts times the next suggestion drawn).
 *
 * Only this component renders again when its time comes, not the screen around it.
 */
export function FirstViewRest({ children }: { children: ReactNode }) {
  const [isFirstView] = useState(() => !hasDrawnWholeView);
  const isPainted = useAfterPaint(isFirstView);
  useEffect(() => {
    if (isPainted) hasDrawnWholeView = true;
  }, [isPainted]);
  return !isFirstView || isPainted ? children : null;
}
