import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import type { GradeDiff, GradeHistoryEntry } from '@gradewise/shared/contracts/grade-audit';
import { EmptyMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { downloadCsv } from '../../../lib/download-csv.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError } from '../../../lib/toasts.tsx';
import { GRADE_HISTORY_MESSAGES, useGradeHistory } from '../api/grade-history-api.ts';
import { AiRunsCost } from './ai-runs-cost.tsx';
import { formatPoints } from '../format.ts';

const TITLE_ID = 'grade-history-title';
const REASON_LABELS: Record<GradeHistoryEntry['reason'], string> = {
  save: 'Saved',
  group: 'Applied to group',
  'rubric-change': 'Rubric change',
};

export interface GradeHistoryDialogProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  open: boolean;
  onClose(): void;
}

/**
 * The grading screen's History: every grade saved on this answer, newest first, each with the AI
 * suggestion it started from, what the person (or a rubric change) changed, who saved it, when and
 * under which rubric version. Read fresh each time it opens; the audit CSV of the question is one
 * click away. Loaded when History is first pressed (grade-history-button.tsx).
 */
export function GradeHistoryDialog({ assignmentId, questionId, submissionId, open, onClose }: GradeHistoryDialogProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const history = useGradeHistory(assignmentId, questionId, submissionId, open);
  const [isDownloading, setDownloading] = useState(false);

  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadCsv(apiPaths.scoped.auditCsv(assignmentId, questionId), 'grade-audit.csv');
    } catch (error) {
      showError(messageOf(error, GRADE_HISTORY_MESSAGES.auditCsvFailed), error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullScreen={isPhone} fullWidth maxWidth="md" aria-labelledby={TITLE_ID}>
      <DialogTitle id={TITLE_ID}>Grade history</DialogTitle>
      <DialogContent dividers>
        {history.isPending && open ? <LoadingMessage text="Loading grade history…" /> : null}
        {history.isError ? (
          <LoadFailedMessage
            error={history.error}
            notFoundText={GRADE_HISTORY_MESSAGES.notFound}
            failedText={GRADE_HISTORY_MESSAGES.fetchFailed}
            onRetry={() => void history.refetch()}
          />
        ) : null}
        {history.data && history.data.entries.length === 0 ? (
          <EmptyMessage text={GRADE_HISTORY_MESSAGES.empty} />
        ) : null}
        {history.data && history.data.entries.length > 0 ? (
          <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}>
            {history.data.entries.map((entry) => (
              <HistoryEntry key={entry.gradeId} entry={entry} points={history.data.questionPoints} />
            ))}
          </Box>
        ) : null}
        {open ? <AiRunsCost assignmentId={assignmentId} questionId={questionId} submissionId={submissionId} /> : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button
          startIcon={<FileDownloadOutlinedIcon />}
          onClick={onDownload}
          disabled={isDownloading}
          aria-busy={isDownloading}
        >
          Download audit trail (CSV)
        </Button>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function HistoryEntry({ entry, points }: { entry: GradeHistoryEntry; points: number }) {
  const headingId = `grade-history-${entry.gradeId}`;
  const suggestion = entry.aiSuggestion;
  return (
    <Box
      component="li"
      aria-labelledby={headingId}
      sx={{ border: 1, borderColor: entry.isCurrent ? 'primary.main' : 'divider', borderRadius: 1, p: 2 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {formatPoints(entry.grade)} / {formatPoints(points)}
        </Typography>
        <Chip
          size="small"
          label={REASON_LABELS[entry.reason]}
          color={entry.reason === 'rubric-change' ? 'info' : 'default'}
        />
        {entry.isCurrent ? <Chip size="small" label="Current" color="primary" variant="outlined" /> : null}
      </Stack>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {entry.reason === 'rubric-change' ? 'Recomputed by a rubric change of ' : 'Saved by '}
        {entry.savedBy.name} on {formatDateTime(entry.savedAt)} · Rubric version {entry.rubricVersion ?? 'not recorded'}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {suggestion
          ? `AI suggestion: ${formatPoints(suggestion.score ?? 0)} / ${formatPoints(points)}, confidence ${
              suggestion.confidence ?? '—'
            }% · ${suggestion.grader.kind === 'builtin' ? 'built-in grader' : suggestion.grader.provider} · ${
              suggestion.grader.model
            }`
          : entry.reason === 'group'
            ? 'Applied from the saved grade of an alike answer; no AI suggestion.'
            : 'No AI suggestion: graded by hand.'}
      </Typography>
      {entry.changesFromSuggestion ? (
        <DiffList title="Changed from the AI suggestion" diff={entry.changesFromSuggestion} />
      ) : null}
      {entry.changesFromPrevious ? (
        <DiffList title="Changed from the grade before" diff={entry.changesFromPrevious} />
      ) : null}
    </Box>
  );
}

function DiffList({ title, diff }: { title: string; diff: GradeDiff }) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {diff.summary.map((line, index) => (
          <Typography key={index} component="li" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {line}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
