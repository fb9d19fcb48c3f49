import { FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { ASSIGNMENT_MESSAGES, useSetAnonymousGrading } from '../api/assignments-api.ts';

export const ANONYMOUS_GRADING_LABEL = 'Anonymous grading';

/**
 * The owning instructor's switch for anonymous grading: on, everyone grading sees "Student 1…N"
 * instead of names and emails, the report, the regrade queue and the audit CSV included. The class
 * list stays named; the grades CSV shows names, and each download is recorded (issue 28).
 */
export function AnonymousGradingSetting({ assignment }: { assignment: AssignmentDetail }) {
  const update = useSetAnonymousGrading(assignment._id);
  const isOn = assignment.isAnonymous ?? false;
  return (
    <Stack sx={{ mt: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={isOn}
            disabled={update.isPending}
            slotProps={{ input: { 'aria-describedby': 'anonymous-grading-help' } }}
            onChange={(event) =>
              update.mutate(
                { isAnonymous: event.target.checked },
                {
                  onSuccess: (result) => showSuccess(result.message),
                  onError: (error) => showError(messageOf(error, ASSIGNMENT_MESSAGES.anonymityFailed), error),
                },
              )
            }
          />
        }
        label={ANONYMOUS_GRADING_LABEL}
      />
      <FormHelperText id="anonymous-grading-help" sx={{ mt: 0 }}>
        {isOn
          ? 'Graders see Student 1…N instead of names and emails, in reports and exports too. The class list stays named; downloading the grades CSV shows names and is recorded.'
          : 'Graders see student names and emails.'}
      </FormHelperText>
    </Stack>
  );
}
