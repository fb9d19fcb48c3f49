import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useMediaQuery, useTheme } from '@mui/material';

export type GradingPanel = 'answer' | 'comments';

/**
 * Which half of the grading screen a phone shows (issue 13 item 5). Side by side (md and up) both
 * are always shown. Narrower, the answer and the comments are two tabs under one sticky tab bar,
 * with Final Grade and Confidence stuck to the bottom, so the grade never scrolls away while the
 * instructor reads the PDF. It opens on the comments: that is where the decisions are.
 *
 * `show` switches before it returns (flushSync): a caller that then focuses a comment card or the
 * drawing layer finds it laid out, not hidden.
 *
 * A phone mounts a panel the first time it is shown, then keeps it mounted (the PDF keeps its page,
 * the comments their cards). Hidden behind the comments, the answer would otherwise load pdf.js,
 * its worker and the file (about 400 KB, and the longest tasks of the screen's start on a phone's
 * CPU) for a tab that may never be opened (decision 0062).
 */
export function useGradingPanels() {
  const theme = useTheme();
  const isTabbed = useMediaQuery(theme.breakpoints.down('md'));
  const [panel, setPanel] = useState<GradingPanel>('comments');
  const [opened, setOpened] = useState<ReadonlySet<GradingPanel>>(() => new Set([panel]));

  const choose = (next: GradingPanel) => {
    setPanel(next);
    setOpened((current) => (current.has(next) ? current : new Set([...current, next])));
  };

  const show = (next: GradingPanel) => {
    if (!isTabbed || next === panel) return;
    flushSync(() => choose(next));
  };

  return {
    isTabbed,
    panel,
    show,
    /** Whether a panel is on screen: always side by side, the chosen tab on a phone. */
    isShown: (which: GradingPanel) => !isTabbed || panel === which,
    /** Whether a panel's content is mounted: always side by side, once shown on a phone. */
    isOpened: (which: GradingPanel) => !isTabbed || opened.has(which),
    /** The tab bar's choice (a person picked a tab): no flushSync needed. */
    choose,
  };
}

export type GradingPanels = ReturnType<typeof useGradingPanels>;
