import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApplyToGroupOutput,
  type AnswerGroup,
  type AnswerGroupFlag,
  type ApplyToGroupInput,
} from '@gradewise/shared/contracts/answer-groups';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { gradingQueries } from '../../../lib/queries/grading.ts';
import { refreshAfterGrading } from './grading-api.ts';

/** Texts of the answer-group screens. */
export const ANSWER_GROUP_MESSAGES = {
  fetchFailed: 'Failed to fetch the answer groups.',
  applyFailed: 'Failed to apply the grade to the group.',
} as const;

/** The action's name: its buttons and its dialog's title. */
export const APPLY_TO_GROUP = 'Apply to group';

/** What a flag means, in the words the screens use. */
export const FLAG_TEXTS: Record<AnswerGroupFlag, string> = {
  'score-differs': "Its AI suggestion is far from the group's",
  'less-alike': 'Shares fewer key points with the group',
};

/** "Group of 7 alike answers". */
export const describeGroupSize = (size: number) => `Group of ${size} alike answers`;

/** GET answer-groups (owning instructor): the groups of alike answers, biggest first. */
export function useAnswerGroups(assignmentId: string, questionId: string, enabled = true, staleTime = 0) {
  return useQuery({ ...gradingQueries.answerGroups(assignmentId, questionId), enabled, staleTime });
}

/** GET answer-groups/of/:submissionId: one answer's group, as the grading screen's notice shows it (decision 0095). */
export function useAnswerGroupOf(assignmentId: string, questionId: string, submissionId: string, staleTime = 0) {
  return useQuery({ ...gradingQueries.answerGroupOf(assignmentId, questionId, submissionId), staleTime });
}

/** POST answer-groups/apply; afterwards everything that shows grades is read again. */
export function useApplyToGroup(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApplyToGroupInput) =>
      apiClient.post(apiPaths.questions.applyToGroup(assignmentId, questionId), input, ApplyToGroupOutput),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

/** The group a submission belongs to, if any. */
export function groupOfSubmission(groups: readonly AnswerGroup[], submissionId: string): AnswerGroup | undefined {
  return groups.find((group) => group.members.some((member) => member.submissionId === submissionId));
}

/** Members a grade can be applied to: those without a saved grade. */
export function openMembers(group: AnswerGroup) {
  return group.members.filter((member) => member.grade === null);
}

/** Members whose saved grade can be the source of Apply to group. */
export function gradedMembers(group: AnswerGroup) {
  return group.members.filter((member) => member.grade !== null);
}
