import { useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import type { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo } from '../../../lib/toasts.tsx';
import { formatMoney } from '@gradewise/shared/contracts/ai-cost';
import { useResuggestEstimate } from '../api/ai-cost-api.ts';
import { SUGGESTION_MESSAGES, useResuggest, useSuggestionSummary } from '../api/suggestions-api.ts';
import { CostEstimateBody } from './grade-all-cost.tsx';
import { ConfidenceHelp } from './confidence-help.tsx';
import { learnedFromGradesText } from './learned-from-grades.tsx';

export interface SuggestionsPanelProps {
  assignmentId: string;
  questionId: string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "openai-compatible/llama3.1" — how the re-suggest action names the model that will be paid. */
export function describeModel(grader: SuggestionSummary['grader']): string {
  return `${grader.provider}/${grader.model}`;
}

/**
 * Where the question's AI suggestions stand (issue 9): how many wait for review, how many of them
 * are expected to need a change (from their confidence), and how they learn from the saved grades —
 * by themselves with the built-in grader after each save, or, with an LLM, through an explicit
 * re-suggest that says how many paid calls it makes before making them.
 */
export function SuggestionsPanel({ assignmentId, questionId }: SuggestionsPanelProps) {
  const headingId = useId();
  const summary = useSuggestionSummary(assignmentId, questionId);
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2">
        AI suggestions
      </Typography>
      {summary.isPending ? <LoadingMessage text="Loading AI suggestions…" compact /> : null}
      {summary.isError ? (
        <Alert
          severity="error"
          variant="outlined"
          sx={{ mt: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void summary.refetch()}>
              Retry
            </Button>
          }
        >
          {messageOf(summary.error, SUGGESTION_MESSAGES.summaryFailed)}
        </Alert>
      ) : null}
      {summary.data ? (
        <SummaryContent assignmentId={assignmentId} questionId={questionId} summary={summary.data} />
      ) : null}
    </Paper>
  );
}

function SummaryContent({ assignmentId, questionId, summary }: SuggestionsPanelProps & { summary: SuggestionSummary }) {
  const { pending, expectedChanges, savedGrades, refresh } = summary;
  const isRefreshing = refresh?.status === 'queued' || refresh?.status === 'running';
  return (
    <Box sx={{ mt: 1 }}>
      {pending === 0 ? (
        <Typography color="text.secondary">
          No suggestions waiting for review.
          {summary.withoutSuggestion > 0
            ? ` ${plural(summary.withoutSuggestion, 'answer has', 'answers have')} no suggestion yet: use Grade All.`
            : ''}
        </Typography>
      ) : (
        <Typography>
          <strong>{plural(pending, 'suggestion', 'suggestions')} pending</strong> (no saved grade) · about{' '}
          <strong>{expectedChanges}</strong> of them expected to need a change
          <ConfidenceHelp label="How the expected changes are counted" />
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {savedGrades === 0
          ? 'Each grade you save teaches the AI how you grade this question.'
          : summary.refreshesAutomatically
            ? `Suggestions learn from your ${plural(savedGrades, 'saved grade', 'saved grades')} and update by themselves after each save.`
            : `New suggestions learn from your ${plural(savedGrades, 'saved grade', 'saved grades')}.`}
      </Typography>

      {summary.refreshesAutomatically && refresh ? (
        <Box role="status" aria-live="polite" sx={{ mt: 1.5 }}>
          {isRefreshing ? (
            <>
              <Typography variant="body2">
                {/* Without a saved grade, a refresh is the server's: the class grew (decision 0093). */}
                {savedGrades > 0
                  ? 'Updating the pending suggestions from your saved grades…'
                  : 'Updating the pending suggestions now that more answers have been read…'}
              </Typography>
              <LinearProgress sx={{ mt: 1 }} aria-hidden />
            </>
          ) : refresh.status === 'failed' ? (
            <Alert severity="warning" variant="outlined">
              The suggestions could not be updated from your last save. They update again after your next save.
            </Alert>
          ) : refresh.examplesUsed ? (
            <Typography variant="body2" color="success.main">
              {learnedFromGradesText(refresh.examplesUsed)}
              {refresh.resuggested !== null
                ? `: ${plural(refresh.resuggested, 'suggestion', 'suggestions')} refreshed.`
                : '.'}
            </Typography>
          ) : null}
        </Box>
      ) : null}

      {!summary.refreshesAutomatically && savedGrades > 0 && summary.resuggestable > 0 ? (
        <ResuggestAction assignmentId={assignmentId} questionId={questionId} summary={summary} />
      ) : null}
    </Box>
  );
}

function ResuggestAction({
  assignmentId,
  questionId,
  summary,
}: SuggestionsPanelProps & { summary: SuggestionSummary }) {
  const [isConfirming, setConfirming] = useState(false);
  const resuggest = useResuggest(assignmentId, questionId);
  // The cost before it starts (issue 31), read while the confirmation is open, as Grade All's.
  const estimate = useResuggestEstimate(assignmentId, questionId, isConfirming);
  const cost = estimate.data;
  const titleId = useId();
  const count = summary.resuggestable;
  const model = describeModel(summary.grader);
  const answers = plural(count, 'answer', 'answers');

  const onConfirm = () =>
    resuggest.mutate(count, {
      onSuccess: (output) => {
        setConfirming(false);
        showInfo(output.message);
      },
      onError: (error) => {
        setConfirming(false);
        showError(messageOf(error, SUGGESTION_MESSAGES.resuggestFailed), error);
      },
    });

  return (
    <Stack direction="row" sx={{ mt: 2 }}>
      <Button
        variant="outlined"
        startIcon={<ReplayIcon />}
        onClick={() => setConfirming(true)}
        disabled={resuggest.isPending}
        sx={{ textAlign: 'left' }}
      >
        Re-suggest {answers} with {model}
      </Button>
      <Dialog
        open={isConfirming}
        onClose={() => !resuggest.isPending && setConfirming(false)}
        aria-labelledby={titleId}
      >
        <DialogTitle id={titleId}>Re-suggest {answers}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            This makes {plural(count, 'call', 'calls')} to {model}, one per answer without a saved grade, with your{' '}
            {plural(summary.savedGrades, 'saved grade', 'saved grades')} as examples. Your provider may charge for each
            call. Suggestions you have not saved are replaced; saved grades never change.
          </DialogContentText>
          <Box sx={{ mt: 2 }}>
            <CostEstimateBody estimate={estimate} empty="Nothing to re-suggest: every answer has a saved grade." />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={resuggest.isPending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            onClick={onConfirm}
            disabled={resuggest.isPending || !cost || cost.answers === 0 || !cost.fitsBudget}
            aria-busy={resuggest.isPending}
          >
            Make {plural(count, 'call', 'calls')}
            {cost && cost.answers > 0 ? ` (about ${formatMoney(cost.cost, cost.currency)})` : ''}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
