import { Alert } from '@mui/material';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';
import { useGradingLease } from '../api/grading-lease-api.ts';

/**
 * In the grading screen: marks the answer as open by this grader (a lease the server keeps while
 * the screen is open, decision 0031) and, when another grader had it open first, says who and
 * since when, so two graders never work on one answer unknowingly. It never blocks saving. Taken
 * once the screen has been painted: a request and a render fewer before its first view (decision 0091).
 */
export function GradingLeaseNotice({
  assignmentId,
  questionId,
  submissionId,
}: {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}) {
  const lease = useGradingLease(assignmentId, questionId, submissionId, useAfterPaint());
  if (!lease.data || lease.data.isMine) return null;
  const { holder } = lease.data;
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      {holder.name} has had this answer open since {formatDateTime(holder.since)}. To avoid grading it twice, go on with
      another answer or check with them first; you can still save here.
    </Alert>
  );
}
