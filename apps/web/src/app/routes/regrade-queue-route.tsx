import { useParams } from 'react-router-dom';
import { Container, Typography } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { COURSE_MESSAGES, useCourse } from '../../features/courses/api/courses-api.ts';
import { RegradeQueueList } from '../../features/regrades/components/regrade-queue.tsx';
import { coursePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const REGRADE_QUEUE_TITLE = 'Regrade requests';

/** /courses/:id/regrade-requests — the course staff's queue of regrade requests (issue 12 item 3). */
export function RegradeQueueRoute() {
  const { id = '' } = useParams();
  const course = useCourse(id);
  useDocumentTitle(REGRADE_QUEUE_TITLE);
  const back = { to: coursePath(id), label: course.data?.title ?? 'Course' };
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader back={back} title={REGRADE_QUEUE_TITLE} subtitle={course.data?.title} />
      {course.isPending ? <LoadingMessage text="Loading course…" /> : null}
      {course.isError ? (
        <LoadFailedMessage
          error={course.error}
          notFoundText={COURSE_MESSAGES.notFound}
          failedText={COURSE_MESSAGES.fetchFailed}
          onRetry={() => void course.refetch()}
        />
      ) : null}
      {course.data && course.data.viewer !== 'staff' ? (
        <Typography>Only the course&apos;s staff see its regrade requests.</Typography>
      ) : null}
      {course.data?.viewer === 'staff' ? <RegradeQueueList courseId={course.data._id} /> : null}
    </Container>
  );
}
