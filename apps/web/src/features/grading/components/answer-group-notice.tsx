import { lazy, Suspense, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { APPLY_TO_GROUP, groupOfSubmission, openMembers, useAnswerGroups } from '../api/answer-groups-api.ts';
import { ROUTE_READ_FRESH_MS } from '../api/grading-reads.ts';
import { GroupFlagBadge, GroupSizeBadge } from './group-badges.tsx';

// Asked for on the press of Apply to group, not with the grading screen: its checkboxes, radios and
// list are on no first view (decision 0091).
const ApplyToGroupDialog = lazy(async () => ({
  default: (await import('./apply-to-group-dialog.tsx')).ApplyToGroupDialog,
}));

export interface AnswerGroupNoticeProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

/**
 * On the grading screen: the size of the open answer's group of alike answers, whether it differs
 * from its group, where an applied grade came from, and — once this answer has a saved grade and
 * others of its group have none — Apply to group. Shows nothing for an answer in no group, and
 * nothing while the groups load: the review itself never waits for them.
 */
export function AnswerGroupNotice({ assignmentId, questionId, submissionId }: AnswerGroupNoticeProps) {
  // Not read again on mounting when the route has just read them (ROUTE_READ_FRESH_MS, decision 0079).
  const groups = useAnswerGroups(assignmentId, questionId, true, ROUTE_READ_FRESH_MS);
  const [isApplying, setApplying] = useState(false);
  if (groups.isError) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Answer groups could not be loaded.
      </Typography>
    );
  }
  if (!groups.data) return null;
  const group = groupOfSubmission(groups.data.groups, submissionId);
  if (!group) return null;
  const member = group.members.find((candidate) => candidate.submissionId === submissionId)!;
  const others = group.members.filter((candidate) => candidate.submissionId !== submissionId);
  const open = openMembers(group).filter((candidate) => candidate.submissionId !== submissionId);
  const appliedFrom = member.appliedFromSubmissionId
    ? group.members.find((candidate) => candidate.submissionId === member.appliedFromSubmissionId)
    : undefined;
  return (
    <Box role="group" aria-label="Answer group" sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <GroupSizeBadge size={group.size} />
        {member.flags.map((flag) => (
          <GroupFlagBadge key={flag} flag={flag} />
        ))}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {appliedFrom
          ? `This grade was applied from ${appliedFrom.student.name}'s with Apply to group. Review and change it like any grade.`
          : member.grade === null
            ? `Alike to ${describeNames(others.map((other) => other.student.name))}. Once saved, this grade can be applied to the ones without a grade.`
            : open.length > 0
              ? `${open.length} alike ${open.length === 1 ? 'answer has' : 'answers have'} no grade yet.`
              : 'Every alike answer has a grade.'}
      </Typography>
      {member.grade !== null && open.length > 0 ? (
        <Button size="small" variant="outlined" sx={{ mt: 1 }} onClick={() => setApplying(true)}>
          {APPLY_TO_GROUP}
        </Button>
      ) : null}
      {isApplying ? (
        <Suspense fallback={null}>
          <ApplyToGroupDialog
            assignmentId={assignmentId}
            questionId={questionId}
            group={group}
            questionPoints={groups.data.questionPoints}
            sourceSubmissionId={submissionId}
            onClose={() => setApplying(false)}
          />
        </Suspense>
      ) : null}
    </Box>
  );
}

function describeNames(names: string[]): string {
  if (names.length <= 3) return names.join(', ').replace(/, ([^,]*)$/, ' and $1');
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}
