import { Tab, Tabs } from '@mui/material';
import type { GradingPanel } from '../hooks/use-grading-panels.ts';

export const panelIds = (panel: GradingPanel) => ({ tab: `grading-tab-${panel}`, panel: `grading-panel-${panel}` });

export interface GradingPanelTabsProps {
  panel: GradingPanel;
  commentCount: number;
  onChoose(panel: GradingPanel): void;
}

/**
 * The phone's tab bar over the grading screen's two halves (issue 13 item 5): Answer (the PDF or
 * its converted text) and Comments, with how many there are. Stuck to the top of the scrolling
 * area, as the grade is to its bottom, so both stay in reach however far the page is scrolled.
 * MUI's tabs give the tablist roles and arrow-key moves between the tabs.
 */
export function GradingPanelTabs({ panel, commentCount, onChoose }: GradingPanelTabsProps) {
  return (
    <Tabs
      value={panel}
      onChange={(_event, value: GradingPanel) => onChoose(value)}
      variant="fullWidth"
      // Both panels are already laid out, so an arrow key shows its tab at once (automatic activation).
      selectionFollowsFocus
      aria-label="Answer or comments"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 2,
        bgcolor: 'background.paper',
        // The dialog's paper is lightened by elevation in the dark theme: match it, not the page.
        backgroundImage: 'var(--Paper-overlay)',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Tab value="answer" label="Answer" id={panelIds('answer').tab} aria-controls={panelIds('answer').panel} />
      <Tab
        value="comments"
        label={`Comments (${commentCount})`}
        id={panelIds('comments').tab}
        aria-controls={panelIds('comments').panel}
      />
    </Tabs>
  );
}
