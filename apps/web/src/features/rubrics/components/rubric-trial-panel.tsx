import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import { RUBRIC_TRIAL_SUBMISSIONS_MAX, type RubricTrialOutput } from '@gradewise/shared/contracts/review';
import type { RubricItemInput } from '@gradewise/shared/contracts/grading';
import { messageOf } from '../../../lib/api-client.ts';
import { showError } from '../../../lib/toasts.tsx';
import { RUBRIC_MESSAGES, useTryRubric } from '../api/rubrics-api.ts';
import { formatPoints } from '@gradewise/shared/points';

export interface TrialSubmission {
  _id: string;
  student: { name: string };
}

export interface RubricTrialPanelProps {
  assignmentId: string;
  questionId: string;
  questionText: string;
  solutionText: string;
  items: RubricItemInput[];
  /** The question's latest submissions, to try the rubric on real answers. */
  submissions: readonly TrialSubmission[];
}

function describeGrader(grader: RubricTrialOutput['grader']): string {
  return grader.kind === 'builtin' ? `Built-in grader (${grader.model})` : `${grader.provider} · ${grader.model}`;
}

/**
 * Try the rubric before saving it: on a pasted sample answer and/or up to three real submissions.
 * The suggestions are only shown; nothing is stored or graded.
 */
export function RubricTrialPanel(props: RubricTrialPanelProps) {
  const trial = useTryRubric(props.assignmentId, props.questionId);
  const [sampleAnswer, setSampleAnswer] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const canTry = (sampleAnswer.trim().length > 0 || chosen.length > 0) && !trial.isPending;

  const toggle = (id: string) =>
    setChosen((current) => (current.includes(id) ? current.filter((item) => item !== id) : [...current, id]));
  const onTry = () =>
    trial.mutate(
      {
        questionText: props.questionText,
        solutionText: props.solutionText,
        items: props.items,
        ...(sampleAnswer.trim() ? { sampleAnswer } : {}),
        ...(chosen.length ? { submissionIds: chosen } : {}),
      },
      { onError: (error) => showError(messageOf(error, RUBRIC_MESSAGES.trialFailed), error) },
    );

  return (
    <Box>
      <TextField
        label="Sample answer"
        value={sampleAnswer}
        onChange={(event) => setSampleAnswer(event.target.value)}
        placeholder="Paste or type an answer a student might give."
        multiline
        minRows={4}
        fullWidth
      />
      {props.submissions.length > 0 ? (
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
          <Typography component="legend" variant="subtitle2">
            Or try it on real submissions (up to {RUBRIC_TRIAL_SUBMISSIONS_MAX})
          </Typography>
          <FormGroup row>
            {props.submissions.map((submission) => {
              const isChosen = chosen.includes(submission._id);
              return (
                <FormControlLabel
                  key={submission._id}
                  control={
                    <Checkbox
                      checked={isChosen}
                      disabled={!isChosen && chosen.length >= RUBRIC_TRIAL_SUBMISSIONS_MAX}
                      onChange={() => toggle(submission._id)}
                    />
                  }
                  label={submission.student.name}
                />
              );
            })}
          </FormGroup>
          {chosen.length >= RUBRIC_TRIAL_SUBMISSIONS_MAX ? (
            <FormHelperText>At most {RUBRIC_TRIAL_SUBMISSIONS_MAX} at a time.</FormHelperText>
          ) : null}
        </Box>
      ) : null}
      <Button variant="contained" startIcon={<ScienceOutlinedIcon />} onClick={onTry} disabled={!canTry} sx={{ mt: 2 }}>
        {trial.isPending ? 'Trying…' : 'Try Rubric'}
      </Button>
      <Box aria-live="polite" sx={{ mt: 3 }}>
        {trial.isPending ? (
          <Typography color="text.secondary">
            Grading with this rubric… This may take a minute with an AI provider.
          </Typography>
        ) : null}
        {trial.data ? <TrialResults output={trial.data} /> : null}
      </Box>
    </Box>
  );
}

function TrialResults({ output }: { output: RubricTrialOutput }) {
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        Suggestions by {describeGrader(output.grader)}. Nothing was saved.
      </Typography>
      {output.results.map((result) => (
        <Paper
          key={result.submissionId ?? 'sample'}
          variant="outlined"
          component="section"
          aria-label={`Trial: ${result.label}`}
          sx={{ p: 2 }}
        >
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
              {result.label}
            </Typography>
            <Typography sx={{ fontWeight: 700 }}>
              Score: {formatPoints(result.totalScore)} / {formatPoints(output.questionPoints)}
            </Typography>
            <Typography color="text.secondary">Confidence: {result.confidenceLevel}%</Typography>
          </Stack>
          {result.comments.length === 0 ? (
            <Alert severity="success">No deductions suggested.</Alert>
          ) : (
            <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {result.comments.map((comment, index) => (
                <Box
                  component="li"
                  key={index}
                  sx={{
                    borderLeft: 3,
                    borderColor: comment.pointsDeducted > 0 ? 'error.main' : 'success.main',
                    pl: 1.5,
                  }}
                >
                  {comment.criterion ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={comment.criterion}
                      sx={{ mb: 0.5, maxWidth: '100%' }}
                    />
                  ) : null}
                  <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{comment.text}</Typography>
                  <Typography variant="body2" color={comment.pointsDeducted > 0 ? 'error.light' : 'success.light'}>
                    Points Deducted: {formatPoints(comment.pointsDeducted)}
                  </Typography>
                </Box>
              ))}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
