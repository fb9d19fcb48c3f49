import { FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { ASSIGNMENT_MESSAGES, useUpdateAssignmentSettings } from '../api/assignments-api.ts';

export const RESUBMISSION_SETTING_LABEL = 'Allow resubmission after grading';

/**
 * The owning instructor's switch for the assignment's rule on graded answers: off, a graded answer
 * is final unless reopened for its student; on, students may send new versions and the earlier
 * grade counts until the new one is graded.
 */
export function ResubmissionSetting({ assignment }: { assignment: AssignmentDetail }) {
  const update = useUpdateAssignmentSettings(assignment._id);
  const isOn = assignment.allowsResubmission ?? false;
  return (
    <Stack sx={{ mt: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={isOn}
            disabled={update.isPending}
            slotProps={{ input: { 'aria-describedby': 'resubmission-setting-help' } }}
            onChange={(event) =>
              update.mutate(
                { allowsResubmission: event.target.checked },
                {
                  onSuccess: (result) => showSuccess(result.message),
                  onError: (error) => showError(messageOf(error, ASSIGNMENT_MESSAGES.settingsFailed), error),
                },
              )
            }
          />
        }
        label={RESUBMISSION_SETTING_LABEL}
      />
      <FormHelperText id="resubmission-setting-help" sx={{ mt: 0 }}>
        {isOn
          ? 'Students may send a new version at any time; their earlier grade counts until you grade the new one.'
          : 'A graded answer is final unless you reopen it for that student from the question page.'}
      </FormHelperText>
    </Stack>
  );
}
