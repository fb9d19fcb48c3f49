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
 */
export function useGradingPanels() {
  const theme = useTheme();
  const isTabbed = useMediaQuery(theme.breakpoints.down('md'));
  const [panel, setPanel] = useState<GradingPanel>('comments');

  const show = (next: GradingPanel) => {
    if (!isTabbed || next === panel) return;
    flushSync(() => setPanel(next));
  };

  return {
    isTabbed,
    panel,
    show,
    /** Whether a panel is on screen: always side by side, the chosen tab on a phone. */
    isShown: (which: GradingPanel) => !isTabbed || panel === which,
    /** The tab bar's choice (a person picked a tab): no flushSync needed. */
    choose: setPanel,
  };
}

export type GradingPanels = ReturnType<typeof useGradingPanels>;
