import { startTransition, useEffect, useState } from 'react';

/**
 * True from the first task after the screen has been painted with `ready` true (a frame, then a
 * task), as a transition. For work the first view does not show: rendered or asked for then, it
 * is not part of the task that paints the screen's largest content (decisions 0053, 0091). In a
 * tab opened in the background nothing is painted (nor are frames run) until it is shown: true at once.
 */
export function useAfterPaint(ready = true): boolean {
  const [isDone, setDone] = useState(false);
  useEffect(() => {
    if (!ready || isDone) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => startTransition(() => setDone(true));
    if (document.visibilityState === 'hidden') {
      done();
      return undefined;
    }
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(done);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, isDone]);
  return isDone;
}
