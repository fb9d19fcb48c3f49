import { lazy, Suspense, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { APPLY_TO_GROUP, useAnswerGroupOf } from '../api/answer-groups-api.ts';
import { ROUTE_READ_FRESH_MS } from '../api/grading-reads.ts';
import { GroupFlagBadge, GroupSizeBadge } from './group-badges.tsx';

// Asked for on the press of Apply to group, not with the grading screen: its checkboxes, radios and
// list are on no first view (decision 0091), nor is the whole group it lists, read then (decision 0095).
const ApplyToGroupDialog = lazy(async () => ({
  default: (await import('./apply-to-group-dialog.tsx')).ApplyToGroupOfSubmissionDialog,
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
  // Only this answer's group, not the whole list with every member (decision 0095). Not read again on
  // mounting when the route has just read it (ROUTE_READ_FRESH_MS, decision 0079).
  const read = useAnswerGroupOf(assignmentId, questionId, submissionId, ROUTE_READ_FRESH_MS);
  const [isApplying, setApplying] = useState(false);
  if (read.isError) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Answer groups could not be loaded.
      </Typography>
    );
  }
  const group = read.data?.group;
  if (!group) return null;
  const { member, namedOthers, openOthers, appliedFrom } = group;
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
            ? `Alike to ${describeNames(
                namedOthers.map((other) => other.student.name),
                group.size - 1,
              )}. Once saved, this grade can be applied to the ones without a grade.`
            : openOthers > 0
              ? `${openOthers} alike ${openOthers === 1 ? 'answer has' : 'answers have'} no grade yet.`
              : 'Every alike answer has a grade.'}
      </Typography>
      {member.grade !== null && openOthers > 0 ? (
        <Button size="small" variant="outlined" sx={{ mt: 1 }} onClick={() => setApplying(true)}>
          {APPLY_TO_GROUP}
        </Button>
      ) : null}
      {isApplying ? (
        <Suspense fallback={null}>
          <ApplyToGroupDialog
            assignmentId={assignmentId}
            questionId={questionId}
            sourceSubmissionId={submissionId}
            onClose={() => setApplying(false)}
          />
        </Suspense>
      ) : null}
    </Box>
  );
}

/** "A, B and C", or "A, B and 297 more": `named` are the first of the `count` others. */
function describeNames(named: string[], count: number): string {
  if (count <= 3) return named.join(', ').replace(/, ([^,]*)$/, ' and $1');
  return `${named.slice(0, 2).join(', ')} and ${count - 2} more`;
}
