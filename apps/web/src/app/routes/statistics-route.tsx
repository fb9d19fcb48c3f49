import { useParams } from 'react-router-dom';
import { Container } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { STATISTICS_MESSAGES, useStatistics } from '../../features/statistics/api/statistics-api.ts';
import { StatisticsView } from '../../features/statistics/components/statistics-view.tsx';
import { AiSpendPanel } from '../../features/statistics/components/ai-spend-panel.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { assignmentPath, questionPagePath } from '../../lib/paths.ts';

/**
 * /assignments/:assignmentId/statistics and .../questions/:questionId/statistics (staff). A lazy
 * route: the charts library loads with this screen only, never on the first page.
 */
export function StatisticsRoute() {
  const { assignmentId = '', questionId } = useParams();
  const statistics = useStatistics({ assignmentId, questionId });
  const title = statistics.data ? `Statistics: ${statistics.data.title}` : 'Statistics';
  useDocumentTitle(title);
  useErrorToast(statistics.error, STATISTICS_MESSAGES.fetchFailed);
  const back = questionId
    ? {
        to: questionPagePath(assignmentId, questionId),
        label: 'Back to the question',
      }
    : { to: assignmentPath(assignmentId), label: 'Back to the assignment' };
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader back={back} title={title} />
      {statistics.isPending ? <LoadingMessage text="Loading statistics…" /> : null}
      {statistics.isError ? (
        <LoadFailedMessage
          error={statistics.error}
          notFoundText={STATISTICS_MESSAGES.notFound}
          failedText={STATISTICS_MESSAGES.fetchFailed}
          onRetry={() => void statistics.refetch()}
        />
      ) : null}
      {statistics.data ? <StatisticsView statistics={statistics.data} /> : null}
      {statistics.data ? <AiSpendPanel assignmentId={assignmentId} /> : null}
    </Container>
  );
}
