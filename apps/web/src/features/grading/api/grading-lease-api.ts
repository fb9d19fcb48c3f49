import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { GRADING_LEASE_RENEW_SECONDS } from '@gradewise/shared/contracts/work-split';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { gradingQueries } from '../../../lib/queries/grading.ts';

/**
 * "I have this answer open" while the grading screen shows it (decision 0031): takes the lease on
 * opening, renews it every GRADING_LEASE_RENEW_SECONDS, and gives it up on leaving. The answer says
 * whether someone else had it first. A failure only means the mark is missing: grading goes on.
 */
export function useGradingLease(assignmentId: string, questionId: string, submissionId: string, enabled = true) {
  const path = apiPaths.submissions.lease(assignmentId, questionId, submissionId);
  const lease = useQuery({
    ...gradingQueries.lease(assignmentId, questionId, submissionId),
    enabled,
    refetchInterval: GRADING_LEASE_RENEW_SECONDS * 1000,
    refetchOnWindowFocus: true,
  });
  useEffect(
    () => () => {
      void apiClient.delete(path, MessageOutput).catch(() => undefined);
    },
    [path],
  );
  // Closing the tab or the browser unmounts nothing: on page hide the lease is given up by a request
  // that outlives the page (keepalive: the same authorized DELETE, with its bearer token, which
  // sendBeacon cannot send), so "Open by …" does not linger until the lease expires. A page brought
  // back from the back/forward cache takes it again.
  const { refetch } = lease;
  useEffect(() => {
    const release = () => void apiClient.delete(path, MessageOutput, { keepalive: true }).catch(() => undefined);
    const retake = (event: PageTransitionEvent) => {
      if (event.persisted) void refetch();
    };
    window.addEventListener('pagehide', release);
    window.addEventListener('pageshow', retake);
    return () => {
      window.removeEventListener('pagehide', release);
      window.removeEventListener('pageshow', retake);
    };
  }, [path, refetch]);
  return lease;
}
