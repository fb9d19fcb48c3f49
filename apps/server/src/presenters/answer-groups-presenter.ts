import {
  ANSWER_GROUP_NAMED_OTHERS,
  type AnswerGroupFlag,
  type AnswerGroupOfSubmissionOutput,
  type AnswerGroupsOutput,
} from '@gradewise/shared/contracts/answer-groups';
import type { AnswerGroupsView, QuestionAnswers } from '../services/read-answer-groups.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import { reviewStatusOf } from './review-presenter.ts';

/** Answer groups -> the staff contract. There is no student shape: students never see groups. */
export function presentAnswerGroups({
  questionPoints,
  answers,
  analysis,
  identities,
}: AnswerGroupsView): AnswerGroupsOutput {
  const rowsById = new Map(answers.rows.map((row) => [row.submission.id, row]));
  return {
    questionPoints,
    groups: analysis.groups.map((group) => ({
      groupId: group.representativeId,
      size: group.members.length,
      representativeSubmissionId: group.representativeId,
      finalValue: group.finalValue,
      keyTerms: group.keyTerms,
      members: orderMembers(group.members, group.representativeId, rowsById, identities).map((member) => {
        const row = rowsById.get(member.id)!;
        const grade = answers.grades.get(member.id);
        const latestSucceededRun = answers.succeededRuns.get(member.id);
        const flags: AnswerGroupFlag[] = [];
        if (analysis.scoreOutliers.has(member.id)) flags.push('score-differs');
        if (member.isLessAlike) flags.push('less-alike');
        return {
          submissionId: member.id,
          student: identities.person(row.student),
          status: reviewStatusOf({ grade, latestRun: answers.latestRuns.get(member.id), latestSucceededRun }),
          grade: grade ? grade.grade : null,
          suggestedScore: latestSucceededRun?.totalScore ?? null,
          similarity: member.similarity,
          isRepresentative: member.id === group.representativeId,
          flags,
          appliedFromSubmissionId: grade?.appliedFromGradeId
            ? (answers.appliedFrom.get(grade.appliedFromGradeId) ?? null)
            : null,
        };
      }),
    })),
    withoutText: analysis.withoutText,
    gradeFirst: analysis.gradeFirstState,
  };
}

/**
 * The open answer's group, as the grading screen's notice shows it (decision 0095): its own member,
 * the first others by name, how many others have no grade. The same members, order and identities
 * as presentAnswerGroups (it is made from its output), without the rest of the list.
 */
export function presentAnswerGroupOf(view: AnswerGroupsView, submissionId: string): AnswerGroupOfSubmissionOutput {
  const { questionPoints, groups } = presentAnswerGroups(view);
  const group = groups.find((candidate) => candidate.members.some((member) => member.submissionId === submissionId));
  if (!group) return { questionPoints, group: null };
  const member = group.members.find((candidate) => candidate.submissionId === submissionId)!;
  const others = group.members.filter((candidate) => candidate.submissionId !== submissionId);
  const nameOf = ({ submissionId: id, student }: (typeof others)[number]) => ({ submissionId: id, student });
  const appliedFrom = group.members.find((candidate) => candidate.submissionId === member.appliedFromSubmissionId);
  return {
    questionPoints,
    group: {
      groupId: group.groupId,
      size: group.size,
      representativeSubmissionId: group.representativeSubmissionId,
      member,
      namedOthers: others.slice(0, ANSWER_GROUP_NAMED_OTHERS).map(nameOf),
      openOthers: others.filter((other) => other.grade === null).length,
      appliedFrom: appliedFrom ? nameOf(appliedFrom) : null,
    },
  };
}

/**
 * Grouping takes the answers in name order, so its member order follows names. On an anonymous
 * assignment the members go representative first, then by label, so the order says nothing of names.
 */
function orderMembers<Member extends { id: string }>(
  members: readonly Member[],
  representativeId: string,
  rowsById: Map<string, QuestionAnswers['rows'][number]>,
  identities: StudentIdentities,
): readonly Member[] {
  if (!identities.isAnonymous) return members;
  const studentOf = (member: Member) => rowsById.get(member.id)!.student;
  return [...members].sort(
    (a, b) =>
      Number(b.id === representativeId) - Number(a.id === representativeId) ||
      identities.compare(studentOf(a), studentOf(b)),
  );
}
