import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Accordion, AccordionDetails, AccordionSummary, Box, Button, Paper, Stack, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { AnswerGroup, AnswerGroupMember, AnswerGroupsOutput } from '@gradewise/shared/contracts/answer-groups';
import type { GradeFirstState } from '@gradewise/shared/contracts/review';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { gradePagePath } from '../../../lib/paths.ts';
import {
  ANSWER_GROUP_MESSAGES,
  APPLY_TO_GROUP,
  describeGroupSize,
  gradedMembers,
  openMembers,
  useAnswerGroups,
} from '../api/answer-groups-api.ts';
import { formatPoints } from '../format.ts';
import { ApplyToGroupDialog } from './apply-to-group-dialog.tsx';
import { GroupFlagBadge } from './group-badges.tsx';

export const NO_GROUPS_MESSAGE = 'No alike answers yet.';

export interface AnswerGroupsPanelProps {
  assignmentId: string;
  questionId: string;
}

/**
 * "Alike answers" on the question page (staff): how far "grade these first" has come, and the
 * groups of alike answers with their members, flags and the Apply to group action. Self-contained
 * (its own data, its own dialog) so the question page only places it.
 */
export function AnswerGroupsPanel({ assignmentId, questionId }: AnswerGroupsPanelProps) {
  const headingId = useId();
  const groups = useAnswerGroups(assignmentId, questionId);
  const [applying, setApplying] = useState<AnswerGroup | null>(null);

  let body: ReactNode;
  if (groups.isPending) body = <LoadingMessage compact text="Loading answer groups…" />;
  else if (groups.isError) {
    body = (
      <ErrorMessage
        text={messageOf(groups.error, ANSWER_GROUP_MESSAGES.fetchFailed)}
        action={
          <Button color="inherit" size="small" onClick={() => void groups.refetch()}>
            Retry
          </Button>
        }
      />
    );
  } else if (groups.data.groups.length === 0) {
    body = (
      <EmptyMessage text={NO_GROUPS_MESSAGE}>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {describeUnread(groups.data)}
        </Typography>
      </EmptyMessage>
    );
  } else {
    body = (
      <Box sx={{ mt: 1 }}>
        {groups.data.groups.map((group) => (
          <GroupAccordion
            key={group.groupId}
            group={group}
            assignmentId={assignmentId}
            questionId={questionId}
            questionPoints={groups.data.questionPoints}
            onApply={() => setApplying(group)}
          />
        ))}
        {groups.data.withoutText > 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {describeUnread(groups.data)}
          </Typography>
        ) : null}
      </Box>
    );
  }

  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Alike answers
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Answers that say the same (near-identical text, or the same final value and key points) form a group. Grade one,
        then apply its comments and deductions to the rest of its group.
      </Typography>
      {groups.data ? <GradeFirstStatus state={groups.data.gradeFirst} /> : null}
      {body}
      {applying && groups.data ? (
        <ApplyToGroupDialog
          assignmentId={assignmentId}
          questionId={questionId}
          // The latest version of the group (after a refetch) if it still exists.
          group={groups.data.groups.find((group) => group.groupId === applying.groupId) ?? applying}
          questionPoints={groups.data.questionPoints}
          onClose={() => setApplying(null)}
        />
      ) : null}
    </Paper>
  );
}

function describeUnread(data: AnswerGroupsOutput): string {
  if (data.withoutText === 0) return 'Every answer says something different so far.';
  const count = data.withoutText;
  return `${count} ${count === 1 ? 'answer has' : 'answers have'} not been read yet and ${
    count === 1 ? 'is' : 'are'
  } not grouped: answers are read when first graded (Grade All reads them all).`;
}

/** "Grade these first: 2 of 5 of your own grades saved." */
export function GradeFirstStatus({ state }: { state: GradeFirstState }) {
  if (state.target === 0) return null;
  const saved = Math.min(state.ownGrades, state.target);
  return (
    <Typography variant="body2" sx={{ mt: 1.5 }} role="status">
      <strong>Grade these first:</strong> {saved} of {state.target} of your own grades saved.{' '}
      {state.isActive
        ? 'Until then the review queue starts with the answers that best represent the class, marked Grade first, so your first grades teach the most.'
        : state.ownGrades >= state.target
          ? 'The review queue now shows first the suggestions most likely to be far off.'
          : 'Answers are read when first graded; Grade All reads them all.'}
    </Typography>
  );
}

function GroupAccordion({
  group,
  assignmentId,
  questionId,
  questionPoints,
  onApply,
}: {
  group: AnswerGroup;
  assignmentId: string;
  questionId: string;
  questionPoints: number;
  onApply(): void;
}) {
  const representative = group.members[0]!;
  const graded = gradedMembers(group).length;
  const flagged = group.members.filter((member) => member.flags.length > 0).length;
  const open = openMembers(group).length;
  const canApply = graded > 0 && open > 0;
  const facts = [
    group.finalValue ? `final value ${group.finalValue}` : null,
    group.keyTerms.length > 0 ? `key terms: ${group.keyTerms.join(', ')}` : null,
    `${graded} graded`,
    flagged > 0 ? `${flagged} flagged` : null,
  ].filter(Boolean);
  const namesById = new Map(group.members.map((member) => [member.submissionId, member.student.name]));
  return (
    <Accordion disableGutters variant="outlined" sx={{ '&:not(:last-of-type)': { borderBottom: 0 } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 500 }}>
            {describeGroupSize(group.size)}, like {representative.student.name}&apos;s
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {facts.join(' · ')}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Box
          component="ul"
          sx={{ listStyle: 'none', p: 0, m: 0 }}
          aria-label={`Members of ${describeGroupSize(group.size).toLowerCase()}`}
        >
          {group.members.map((member) => (
            <MemberRow
              key={member.submissionId}
              member={member}
              questionPoints={questionPoints}
              href={gradePagePath(assignmentId, questionId, member.submissionId)}
              appliedFromName={
                member.appliedFromSubmissionId ? namesById.get(member.appliedFromSubmissionId) : undefined
              }
            />
          ))}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            size="small"
            onClick={onApply}
            disabled={!canApply}
            aria-label={`${APPLY_TO_GROUP}: ${describeGroupSize(group.size).toLowerCase()} like ${representative.student.name}'s`}
          >
            {APPLY_TO_GROUP}
          </Button>
          {!canApply ? (
            <Typography variant="body2" color="text.secondary">
              {graded === 0 ? 'Grade one answer of this group first.' : 'Every answer of this group has a grade.'}
            </Typography>
          ) : null}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}

function MemberRow({
  member,
  questionPoints,
  href,
  appliedFromName,
}: {
  member: AnswerGroupMember;
  questionPoints: number;
  href: string;
  appliedFromName: string | undefined;
}) {
  const standing =
    member.grade !== null
      ? `Graded ${formatPoints(member.grade)} / ${formatPoints(questionPoints)}`
      : member.suggestedScore !== null
        ? `AI suggests ${formatPoints(member.suggestedScore)} / ${formatPoints(questionPoints)}`
        : 'Not graded';
  return (
    <Box component="li" sx={{ py: 1, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 } }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={href} size="small" sx={{ textTransform: 'none', fontWeight: 500 }}>
          {member.student.name}
        </Button>
        {member.isRepresentative ? (
          <Typography variant="caption" color="text.secondary">
            representative
          </Typography>
        ) : null}
        <Typography variant="body2" color={member.grade !== null ? 'success.light' : 'text.secondary'}>
          {standing}
        </Typography>
      </Stack>
      {appliedFromName ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ ml: 1 }}>
          Applied from {appliedFromName}&apos;s grade
        </Typography>
      ) : null}
      {member.flags.length > 0 ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5, ml: 1 }}>
          {member.flags.map((flag) => (
            <GroupFlagBadge key={flag} flag={flag} />
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}
