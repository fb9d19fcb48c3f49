import { useId, useState } from 'react';
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import RefreshIcon from '@mui/icons-material/Refresh';
import { showError } from '../../../lib/toasts.tsx';
import { RUBRIC_MESSAGES } from '../api/rubrics-api.ts';
import { RubricPreview, type PreviewSnapshot } from './rubric-preview.tsx';

export interface FullscreenToggle {
  isExpanded: boolean;
  onToggle(): void;
}

/** A pane's fullscreen button (Edit Rubric: each pane has one, and only one pane is expanded at a time). */
export function FullscreenButton({ label, toggle }: { label: string; toggle: FullscreenToggle }) {
  const text = toggle.isExpanded ? `Exit full screen: ${label}` : `Full screen: ${label}`;
  return (
    <Tooltip title={text}>
      <IconButton aria-label={text} aria-pressed={toggle.isExpanded} onClick={toggle.onToggle}>
        {toggle.isExpanded ? <FullscreenExitIcon /> : <FullscreenIcon />}
      </IconButton>
    </Tooltip>
  );
}

/**
 * The Preview pane: nothing until Recompile Preview, then the question and solution texts as
 * rendered Markdown and math — of the texts as they were at that click, so typing does not
 * re-render (and re-fail) on every key.
 */
export function RubricPreviewPane({
  questionText,
  solutionText,
  fullscreen,
}: {
  questionText: string;
  solutionText: string;
  fullscreen?: FullscreenToggle;
}) {
  const [snapshot, setSnapshot] = useState<PreviewSnapshot | null>(null);
  const headingId = useId();
  const recompile = () =>
    setSnapshot((previous) => ({ questionText, solutionText, version: (previous?.version ?? 0) + 1 }));
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, height: '100%', minWidth: 0 }}
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1.5 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ flex: 1 }}>
          Preview
        </Typography>
        <Button size="small" variant="outlined" startIcon={<RefreshIcon />} onClick={recompile}>
          Recompile Preview
        </Button>
        {fullscreen ? <FullscreenButton label="Preview" toggle={fullscreen} /> : null}
      </Stack>
      <Box aria-live="polite">
        {snapshot ? (
          <RubricPreview snapshot={snapshot} onFailed={(error) => showError(RUBRIC_MESSAGES.previewFailed, error)} />
        ) : (
          <Typography color="text.secondary">{RUBRIC_MESSAGES.previewPlaceholder}</Typography>
        )}
      </Box>
    </Paper>
  );
}
