import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { GRADING_LEASE_RENEW_SECONDS, GradingLeaseOutput } from '@gradewise/shared/contracts/work-split';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';

const leasePath = (assignmentId: string, questionId: string, submissionId: string) =>
  `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}/grade/${encodeURIComponent(submissionId)}/lease`;

/**
 * "I have this answer open" while the grading screen shows it (decision 0031): takes the lease on
 * opening, renews it every GRADING_LEASE_RENEW_SECONDS, and gives it up on leaving. The answer says
 * whether someone else had it first. A failure only means the mark is missing: grading goes on.
 */
export function useGradingLease(assignmentId: string, questionId: string, submissionId: string) {
  const path = leasePath(assignmentId, questionId, submissionId);
  const lease = useQuery({
    queryKey: ['grading', 'lease', submissionId],
    queryFn: ({ signal }) => apiClient.post(path, undefined, GradingLeaseOutput, { signal }),
    refetchInterval: GRADING_LEASE_RENEW_SECONDS * 1000,
    refetchOnWindowFocus: true,
    retry: false,
    gcTime: 0,
  });
  useEffect(
    () => () => {
      void apiClient.delete(path, MessageOutput).catch(() => undefined);
    },
    [path],
  );
  return lease;
}
