import { Alert } from '@mui/material';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAfterFirstView } from '../../../lib/after-first-view.ts';
import { useGradingLease } from '../api/grading-lease-api.ts';

/**
 * In the grading screen: marks the answer as open by this grader (a lease the server keeps while
 * the screen is open, decision 0031) and, when another grader had it open first, says who and
 * since when, so two graders never work on one answer unknowingly. It never blocks saving. Taken
 * once the screen's first view is on screen: a request and a render fewer before it (decisions
 * 0091, 0125: taken a frame after the dialog's commit, it still ended before its largest paint).
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
  const lease = useGradingLease(assignmentId, questionId, submissionId, useAfterFirstView());
  if (!lease.data || lease.data.isMine) return null;
  const { holder } = lease.data;
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      {holder.name} has had this answer open since {formatDateTime(holder.since)}. To avoid grading it twice, go on with
      another answer or check with them first; you can still save here.
    </Alert>
  );
}
