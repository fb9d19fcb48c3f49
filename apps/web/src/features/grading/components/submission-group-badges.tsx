import type { ReactNode } from 'react';
import { Stack } from '@mui/material';
import type { AnswerGroupMember } from '@gradewise/shared/contracts/answer-groups';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { useAnswerGroups } from '../api/answer-groups-api.ts';
import { useReviewQueue } from '../api/grading-api.ts';
import { GradeFirstBadge, GroupFlagBadge, GroupSizeBadge } from './group-badges.tsx';

/**
 * For the submissions table (staff): under each student, the size of the answer's group, whether it
 * differs from it, and "Grade first" while that is on. Reads the queries the question page already
 * makes (answer groups, review queue), so it adds no request of its own.
 */
export function useSubmissionGroupBadges(assignmentId: string, questionId: string, enabled: boolean) {
  const groups = useAnswerGroups(assignmentId, questionId, enabled);
  const queue = useReviewQueue(assignmentId, questionId, enabled);
  const members = new Map<string, { size: number; member: AnswerGroupMember }>();
  for (const group of groups.data?.groups ?? [])
    for (const member of group.members) members.set(member.submissionId, { size: group.size, member });
  const queueItems = new Map<string, ReviewQueueItem>(
    (queue.data?.items ?? []).map((item) => [item.submissionId, item]),
  );
  return (submissionId: string): ReactNode => {
    const entry = members.get(submissionId);
    const item = queueItems.get(submissionId);
    if (!entry && !item?.isGradeFirst) return null;
    return (
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
        {item?.isGradeFirst ? <GradeFirstBadge represents={item.represents} /> : null}
        {entry ? <GroupSizeBadge size={entry.size} /> : null}
        {entry?.member.flags.map((flag) => (
          <GroupFlagBadge key={flag} flag={flag} />
        ))}
      </Stack>
    );
  };
}
