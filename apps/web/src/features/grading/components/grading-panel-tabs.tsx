import type { KeyboardEvent } from 'react';
import { Box, ButtonBase } from '@mui/material';
import type { GradingPanel } from '../hooks/use-grading-panels.ts';

export const panelIds = (panel: GradingPanel) => ({ tab: `grading-tab-${panel}`, panel: `grading-panel-${panel}` });

export interface GradingPanelTabsProps {
  panel: GradingPanel;
  commentCount: number;
  onChoose(panel: GradingPanel): void;
}

const PANELS: readonly GradingPanel[] = ['answer', 'comments'];

/**
 * The phone's tab bar over the grading screen's two halves (issue 13 item 5): Answer (the PDF or
 * its converted text) and Comments, with how many there are. Stuck to the top of the scrolling
 * area, as the grade is to its bottom, so both stay in reach however far the page is scrolled.
 *
 * Two equal halves, the chosen one underlined, with the tablist's roles and keys (arrows, Home,
 * End; the tab focused is shown at once, both panels being laid out). Not MUI's Tabs: they measure
 * their tabs after mounting to place the indicator (a forced layout and a second render of the
 * screen in its first view on a phone, decision 0099); halves of a fixed bar need no measuring.
 */
export function GradingPanelTabs({ panel, commentCount, onChoose }: GradingPanelTabsProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = PANELS.indexOf(panel);
    const next =
      event.key === 'ArrowRight'
        ? PANELS[(index + 1) % PANELS.length]
        : event.key === 'ArrowLeft'
          ? PANELS[(index + PANELS.length - 1) % PANELS.length]
          : event.key === 'Home'
            ? PANELS[0]
            : event.key === 'End'
              ? PANELS[PANELS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    onChoose(next);
    document.getElementById(panelIds(next).tab)?.focus();
  };
  return (
    <Box
      role="tablist"
      aria-label="Answer or comments"
      onKeyDown={onKeyDown}
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 2,
        display: 'flex',
        minHeight: 48,
        bgcolor: 'background.paper',
        // The dialog's paper is lightened by elevation in the dark theme: match it, not the page.
        backgroundImage: 'var(--Paper-overlay)',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {PANELS.map((which) => {
        const isSelected = which === panel;
        return (
          <ButtonBase
            key={which}
            role="tab"
            id={panelIds(which).tab}
            aria-controls={panelIds(which).panel}
            aria-selected={isSelected}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChoose(which)}
            sx={{
              flex: 1,
              minHeight: 48,
              px: 2,
              typography: 'button',
              color: isSelected ? 'primary.main' : 'text.secondary',
              // The indicator: the chosen half's own bottom edge, drawn over the bar's divider.
              boxShadow: isSelected ? 'inset 0 -2px 0 currentColor' : 'none',
            }}
          >
            {which === 'answer' ? 'Answer' : `Comments (${commentCount})`}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
