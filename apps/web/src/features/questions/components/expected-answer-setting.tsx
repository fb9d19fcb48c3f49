import { useId } from 'react';
import { FormControlLabel, FormHelperText, Paper, Switch, Typography } from '@mui/material';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { QUESTION_MESSAGES, useQuestionFeedbackSettings } from '../api/questions-api.ts';

const EXPECTED_ANSWER_LABEL = 'Show the expected answer in feedback';
const EXPECTED_ANSWER_HELP = {
  off: 'Off: comments say what is missing without giving the answer away.',
  on: 'On: where an answer falls short, comments may also state the expected value or the solution’s wording.',
  readOnly: 'Only the course’s instructor can change this.',
} as const;

export interface ExpectedAnswerSettingProps {
  assignmentId: string;
  questionId: string;
  isOn: boolean;
  /** The owner changes it; a TA sees it, switched off from changes. */
  canChange: boolean;
}

/**
 * The question's "show the expected answer in feedback" (decision 0088). Off by default: the AI's
 * comments name the rubric item and what the answer shows or lacks, never the model answer. On, a
 * comment on a part not fully met may also state what was expected. Scores never depend on it.
 */
export function ExpectedAnswerSetting({ assignmentId, questionId, isOn, canChange }: ExpectedAnswerSettingProps) {
  const headingId = useId();
  const helpId = useId();
  const change = useQuestionFeedbackSettings(assignmentId, questionId);
  // While a change is saved, the switch shows the state asked for; a failure goes back to the stored one.
  const shown = change.isPending && change.variables !== undefined ? change.variables : isOn;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mb: 3 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Comments to students
      </Typography>
      <FormControlLabel
        sx={{ mt: 0.5, mr: 0 }}
        control={
          <Switch
            checked={shown}
            // Never disabled while saving: a disabled switch would drop the keyboard focus. A
            // press while a change is saved is ignored instead.
            disabled={!canChange}
            slotProps={{ input: { 'aria-describedby': helpId, 'aria-busy': change.isPending } }}
            onChange={(event) => {
              if (change.isPending) return;
              change.mutate(event.target.checked, {
                onSuccess: (result) => showSuccess(result.message),
                onError: (error) => showError(messageOf(error, QUESTION_MESSAGES.feedbackSettingFailed), error),
              });
            }}
          />
        }
        label={EXPECTED_ANSWER_LABEL}
      />
      <FormHelperText id={helpId} sx={{ mt: 0 }}>
        {shown ? EXPECTED_ANSWER_HELP.on : EXPECTED_ANSWER_HELP.off}
        {canChange ? null : ` ${EXPECTED_ANSWER_HELP.readOnly}`}
        {change.isPending ? ' Saving…' : null}
      </FormHelperText>
    </Paper>
  );
}
