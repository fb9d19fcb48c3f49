import { useId, useState } from 'react';
import { Box, IconButton, Popover, Tooltip, Typography } from '@mui/material';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import { SHORTCUTS } from '../shortcut-keys.ts';

/** In a comment editor: Ctrl+Enter (⌘+Enter) saves the comment and Escape cancels it. */
const EDITOR_KEYS = [
  { label: 'Ctrl+Enter', description: 'In a comment editor: Save (Done for a new comment)' },
  { label: 'Esc', description: 'In a comment editor: Cancel' },
];

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
