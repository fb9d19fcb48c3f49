import { useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Radio,
  RadioGroup,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { AnswerGroup, AnswerGroupMember } from '@gradewise/shared/contracts/answer-groups';
import { LoadingMessage, RETRY_LABEL } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo, showSuccess } from '../../../lib/toasts.tsx';
import {
  ANSWER_GROUP_MESSAGES,
  APPLY_TO_GROUP,
  describeGroupSize,
  FLAG_TEXTS,
  gradedMembers,
  groupOfSubmission,
  openMembers,
  useAnswerGroups,
  useApplyToGroup,
} from '../api/answer-groups-api.ts';
import { formatPoints } from '../format.ts';

export interface ApplyToGroupDialogProps {
  assignmentId: string;
  questionId: string;
  group: AnswerGroup;
  questionPoints: number;
  /** The graded answer to apply from, when the dialog is opened from it. */
  sourceSubmissionId?: string;
  onClose(): void;
}

/**
 * Apply to group from the grading screen, whose notice read only the open answer's group without
 * its members (decision 0095): the whole list is read as the dialog opens, then the dialog below
 * lists the group. Loading and a failed read are said in the dialog itself, with Close.
 */
export function ApplyToGroupOfSubmissionDialog({
  assignmentId,
  questionId,
  sourceSubmissionId,
  onClose,
}: Omit<ApplyToGroupDialogProps, 'group' | 'questionPoints'> & { sourceSubmissionId: string }) {
  const groups = useAnswerGroups(assignmentId, questionId);
  const group = groups.data ? groupOfSubmission(groups.data.groups, sourceSubmissionId) : undefined;
  if (groups.data && group) {
    return (
      <ApplyToGroupDialog
        assignmentId={assignmentId}
        questionId={questionId}
        group={group}
        questionPoints={groups.data.questionPoints}
        sourceSubmissionId={sourceSubmissionId}
        onClose={onClose}
      />
    );
  }
  return (
    <Dialog open onClose={onClose} aria-label={APPLY_TO_GROUP} fullWidth maxWidth="sm">
      <DialogContent>
        {groups.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void groups.refetch()}>
                {RETRY_LABEL}
              </Button>
            }
          >
            {messageOf(groups.error, ANSWER_GROUP_MESSAGES.fetchFailed)}
          </Alert>
        ) : groups.data ? (
          <Typography>This answer is no longer in a group of alike answers.</Typography>
        ) : (
          <LoadingMessage text="Loading the group…" />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The confirmation of "Apply to group": which graded answer's comments and deductions to copy,
 * and to which members. It lists every member by name; members flagged as differing from their
 * group start unticked, with the reason, so nothing unusual is graded without a look. Applied
 * grades are saved grades the instructor can open and change like any other (docs/decisions/0012-answer-groups.md).
 */
export function ApplyToGroupDialog(props: ApplyToGroupDialogProps) {
  const { group, questionPoints, onClose } = props;
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const sources = gradedMembers(group);
  const targets = openMembers(group);
  const [sourceId, setSourceId] = useState(
    () =>
      sources.find((member) => member.submissionId === props.sourceSubmissionId)?.submissionId ??
      sources.find((member) => member.isRepresentative)?.submissionId ??
      sources[0]?.submissionId ??
      '',
  );
  const [chosen, setChosen] = useState(
    () => new Set(targets.filter((member) => member.flags.length === 0).map((member) => member.submissionId)),
  );
  const apply = useApplyToGroup(props.assignmentId, props.questionId);
  const source = sources.find((member) => member.submissionId === sourceId);
  const alreadyGraded = sources.filter((member) => member.submissionId !== sourceId);
  const count = chosen.size;

  const toggle = (submissionId: string, isChecked: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (isChecked) next.add(submissionId);
      else next.delete(submissionId);
      return next;
    });

  const onApply = () => {
    if (!source || count === 0) return;
    apply.mutate(
      {
        fromSubmissionId: source.submissionId,
        // In the group's order, so the request reads like the list on screen.
        submissionIds: targets.map((member) => member.submissionId).filter((id) => chosen.has(id)),
      },
      {
        onSuccess: (output) => {
          showSuccess(output.message);
          if (output.skipped.length > 0) {
            showInfo(
              `${output.skipped.length} of the chosen answers ${output.skipped.length === 1 ? 'was' : 'were'} left as ${
                output.skipped.length === 1 ? 'it was' : 'they were'
              }: graded in the meantime, or no longer alike.`,
            );
          }
          onClose();
        },
        onError: (error) => showError(messageOf(error, ANSWER_GROUP_MESSAGES.applyFailed), error),
      },
    );
  };

  return (
    <Dialog
      open
      onClose={() => !apply.isPending && onClose()}
      aria-labelledby={titleId}
      fullScreen={isPhone}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>
        {APPLY_TO_GROUP}: {describeGroupSize(group.size).toLowerCase()}
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 2 }}>
          The comments and deductions of one graded answer are copied to the answers you tick and saved as their grades.
          Each stays open to review and change: open it from the submissions table or the review queue.
        </Typography>

        {sources.length > 1 ? (
          <FormControl sx={{ mb: 2 }}>
            <FormLabel id={`${titleId}-source`}>Apply the grade of</FormLabel>
            <RadioGroup
              aria-labelledby={`${titleId}-source`}
              value={sourceId}
              onChange={(event) => setSourceId(event.target.value)}
            >
              {sources.map((member) => (
                <FormControlLabel
                  key={member.submissionId}
                  value={member.submissionId}
                  control={<Radio size="small" />}
                  label={`${member.student.name} — ${formatPoints(member.grade ?? 0)} / ${formatPoints(questionPoints)}`}
                />
              ))}
            </RadioGroup>
          </FormControl>
        ) : source ? (
          <Typography sx={{ mb: 2 }}>
            Apply the grade of <strong>{source.student.name}</strong>: {formatPoints(source.grade ?? 0)} /{' '}
            {formatPoints(questionPoints)}
          </Typography>
        ) : (
          <Alert severity="info" sx={{ mb: 2 }}>
            No answer of this group has a saved grade yet. Grade one, then apply it to the others.
          </Alert>
        )}

        {targets.length > 0 ? (
          <FormControl component="fieldset" variant="standard" sx={{ width: '100%' }}>
            <FormLabel component="legend">Apply to these answers (no grade yet)</FormLabel>
            <FormGroup>
              {targets.map((member) => (
                <TargetOption
                  key={member.submissionId}
                  member={member}
                  questionPoints={questionPoints}
                  checked={chosen.has(member.submissionId)}
                  onChange={(isChecked) => toggle(member.submissionId, isChecked)}
                />
              ))}
            </FormGroup>
          </FormControl>
        ) : (
          <Typography color="text.secondary">Every answer of this group already has a grade.</Typography>
        )}

        {alreadyGraded.length > 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            Already graded, left as they are:{' '}
            {alreadyGraded
              .map(
                (member) =>
                  `${member.student.name} (${formatPoints(member.grade ?? 0)} / ${formatPoints(questionPoints)})`,
              )
              .join(', ')}
            .
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={apply.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={onApply}
          disabled={!source || count === 0 || apply.isPending}
          aria-busy={apply.isPending}
        >
          {apply.isPending ? 'Applying…' : `Apply to ${count} ${count === 1 ? 'answer' : 'answers'}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function TargetOption({
  member,
  questionPoints,
  checked,
  onChange,
}: {
  member: AnswerGroupMember;
  questionPoints: number;
  checked: boolean;
  onChange(isChecked: boolean): void;
}) {
  const suggestion =
    member.suggestedScore === null
      ? 'no AI suggestion'
      : `AI suggests ${formatPoints(member.suggestedScore)} / ${formatPoints(questionPoints)}`;
  return (
    <FormControlLabel
      sx={{ alignItems: 'flex-start', my: 0.5 }}
      control={<Checkbox checked={checked} onChange={(event) => onChange(event.target.checked)} sx={{ pt: 0.5 }} />}
      label={
        <Box>
          <Typography component="span">{member.student.name}</Typography>
          <Typography component="span" variant="body2" color="text.secondary">
            {' '}
            · {suggestion}
          </Typography>
          {member.flags.map((flag) => (
            <Typography key={flag} variant="body2" sx={{ color: 'warning.light' }}>
              Differs from its group: {FLAG_TEXTS[flag].toLowerCase()}. Not ticked: look at it first.
            </Typography>
          ))}
        </Box>
      }
    />
  );
}
