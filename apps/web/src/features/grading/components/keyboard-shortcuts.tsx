import { useId, useState, type KeyboardEvent } from 'react';
import { Box, IconButton, Popover, Tooltip, Typography } from '@mui/material';
import KeyboardIcon from '@mui/icons-material/Keyboard';

export type ShortcutCommand =
  | 'nextComment'
  | 'previousComment'
  | 'accept'
  | 'decline'
  | 'edit'
  | 'addComment'
  | 'saveGrade'
  | 'undoSave'
  | 'nextSubmission'
  | 'previousSubmission'
  | 'help';

interface Shortcut {
  command: ShortcutCommand;
  keys: string[];
  /** What the help popover shows for the keys. */
  label: string;
  description: string;
  /** Only in the review queue. */
  queueOnly?: boolean;
}

/** The grading screen's shortcuts. Single keys work outside text fields; a field keeps its typing. */
export const SHORTCUTS: readonly Shortcut[] = [
  { command: 'nextComment', keys: ['j', 'ArrowDown'], label: 'J or ↓', description: 'Next comment' },
  { command: 'previousComment', keys: ['k', 'ArrowUp'], label: 'K or ↑', description: 'Previous comment' },
  { command: 'accept', keys: ['a'], label: 'A', description: 'Accept the current comment' },
  { command: 'decline', keys: ['d'], label: 'D', description: 'Decline the current comment' },
  { command: 'edit', keys: ['e'], label: 'E', description: 'Edit the current comment' },
  { command: 'addComment', keys: ['c'], label: 'C', description: 'Add a comment' },
  { command: 'saveGrade', keys: ['s'], label: 'S', description: 'Save grade' },
  { command: 'undoSave', keys: ['u'], label: 'U', description: 'Undo the grade just saved (while its message shows)' },
  {
    command: 'nextSubmission',
    keys: [']'],
    label: ']',
    description: 'Next submission in the review queue',
    queueOnly: true,
  },
  {
    command: 'previousSubmission',
    keys: ['['],
    label: '[',
    description: 'Previous submission in the review queue',
    queueOnly: true,
  },
  { command: 'help', keys: ['?'], label: '?', description: 'Show these shortcuts' },
];

/** In a comment editor: Ctrl+Enter (⌘+Enter) saves the comment and Escape cancels it. */
const EDITOR_KEYS = [
  { label: 'Ctrl+Enter', description: 'In a comment editor: Save (Done for a new comment)' },
  { label: 'Esc', description: 'In a comment editor: Cancel' },
];

/** Which command a key press means, or null (typing in a field, a modifier held, an unknown key). */
export function commandForKey(
  event: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'target'>,
  inQueue: boolean,
): ShortcutCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target as HTMLElement | null;
  if (target?.closest?.('input, textarea, select, [contenteditable="true"], [role="textbox"]')) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const shortcut = SHORTCUTS.find((item) => item.keys.includes(key) && (inQueue || !item.queueOnly));
  if (!shortcut) return null;
  // Arrow keys move between comments only from a comment, so they still scroll the page elsewhere.
  if ((key === 'ArrowDown' || key === 'ArrowUp') && !target?.closest?.('[data-comment-card]')) return null;
  return shortcut.command;
}

export interface ShortcutsHelpProps {
  inQueue: boolean;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** A keyboard button that opens the list of shortcuts (also opened with ?). */
export function ShortcutsHelp({ inQueue, open, onOpenChange }: ShortcutsHelpProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const titleId = useId();
  const rows = [...SHORTCUTS.filter((item) => inQueue || !item.queueOnly), ...EDITOR_KEYS];
  return (
    <>
      <Tooltip title="Keyboard shortcuts (?)">
        <IconButton
          ref={setAnchor}
          color="inherit"
          aria-label="Keyboard shortcuts"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => onOpenChange(!open)}
        >
          <KeyboardIcon />
        </IconButton>
      </Tooltip>
      <Popover
        open={open && anchor !== null}
        anchorEl={anchor}
        onClose={() => onOpenChange(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, maxWidth: 380 } } }}
      >
        <Typography id={titleId} variant="subtitle1" component="h2" gutterBottom>
          Keyboard shortcuts
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            columnGap: 2,
            rowGap: 0.75,
            m: 0,
            '& dd': { m: 0 },
          }}
        >
          {rows.map((row) => (
            <Box key={row.label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 700 }}>
                {row.label}
              </Typography>
              <Typography component="dd" variant="body2">
                {row.description}
              </Typography>
            </Box>
          ))}
        </Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
          Single-key shortcuts work when the cursor is not in a text field. Changes are announced to screen readers.
        </Typography>
      </Popover>
    </>
  );
}
