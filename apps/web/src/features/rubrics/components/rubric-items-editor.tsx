import { memo } from 'react';
import { Alert, Box, Button, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { checkDrafts, emptyDraft, moveDraft, type ItemDraft } from '../rubric-items.ts';
import { formatPoints } from '@gradewise/shared/points';

export interface RubricItemsEditorProps {
  drafts: ItemDraft[];
  questionPoints: number;
  onChange(drafts: ItemDraft[]): void;
}

/**
 * The rubric items: criterion, points and guidance for the grader; add, remove and reorder; and
 * a running total that must equal the question's points before the rubric can be saved.
 * Memoised: the editor around it re-renders on every key typed in the texts.
 */
export const RubricItemsEditor = memo(function RubricItemsEditor({
  drafts,
  questionPoints,
  onChange,
}: RubricItemsEditorProps) {
  const check = checkDrafts(drafts, questionPoints);
  const update = (index: number, change: Partial<ItemDraft>) =>
    onChange(drafts.map((draft, at) => (at === index ? { ...draft, ...change } : draft)));
  return (
    <Box>
      <Stack component="ol" spacing={2} aria-label="Rubric items" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {drafts.map((draft, index) => {
          const number = index + 1;
          return (
            <Paper
              key={draft.key}
              component="li"
              variant="outlined"
              sx={{ p: { xs: 1.5, sm: 2 } }}
              aria-label={`Item ${number}`}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
                <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
                  Item {number}
                </Typography>
                <Tooltip title="Move up">
                  <span>
                    <IconButton
                      aria-label={`Move item ${number} up`}
                      disabled={index === 0}
                      onClick={() => onChange(moveDraft(drafts, index, -1))}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Move down">
                  <span>
                    <IconButton
                      aria-label={`Move item ${number} down`}
                      disabled={index === drafts.length - 1}
                      onClick={() => onChange(moveDraft(drafts, index, 1))}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Remove">
                  <IconButton
                    aria-label={`Remove item ${number}`}
                    color="error"
                    onClick={() => onChange(drafts.filter((_, at) => at !== index))}
                  >
                    <DeleteOutlineIcon />
                  </IconButton>
                </Tooltip>
              </Stack>
              <Box
                sx={{
                  display: 'grid',
                  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) 140px' },
                  gap: 2,
                }}
              >
                <TextField
                  label={`Criterion of item ${number}`}
                  value={draft.criterion}
                  onChange={(event) => update(index, { criterion: event.target.value })}
                  error={!draft.criterion.trim()}
                  fullWidth
                />
                <TextField
                  label={`Points of item ${number}`}
                  value={draft.points}
                  onChange={(event) => update(index, { points: event.target.value })}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                />
                <TextField
                  label={`Guidance for item ${number}`}
                  value={draft.guidance}
                  onChange={(event) => update(index, { guidance: event.target.value })}
                  helperText="What full marks look like, common mistakes, partial credit."
                  multiline
                  minRows={2}
                  fullWidth
                  sx={{ gridColumn: { sm: '1 / -1' } }}
                />
              </Box>
            </Paper>
          );
        })}
      </Stack>
      <Button startIcon={<AddIcon />} onClick={() => onChange([...drafts, emptyDraft()])} sx={{ mt: 2 }}>
        Add Item
      </Button>
      <Box role="status" aria-live="polite" sx={{ mt: 2 }}>
        <Typography
          variant="h6"
          component="p"
          color={check.total === questionPoints ? 'success.light' : 'warning.light'}
        >
          Total: {formatPoints(check.total)} / {formatPoints(questionPoints)} points
        </Typography>
        {check.problems.length > 0 ? (
          <Alert severity="warning" sx={{ mt: 1 }}>
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {check.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </Box>
          </Alert>
        ) : null}
      </Box>
    </Box>
  );
});
