import { useParams } from 'react-router-dom';
import { Container, Typography } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { COURSE_MESSAGES, useCourse } from '../../features/courses/api/courses-api.ts';
import { WorkSplitEditor } from '../../features/staff/components/work-split-editor.tsx';
import { coursePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const WORK_SPLIT_TITLE = 'Work split';

/** /courses/:id/work-split — who grades what (decision 0031): the owner splits, TAs read. */
export function WorkSplitRoute() {
  const { id = '' } = useParams();
  const course = useCourse(id);
  useDocumentTitle(WORK_SPLIT_TITLE);
  const back = { to: coursePath(id), label: course.data?.title ?? 'Course' };
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader back={back} title={WORK_SPLIT_TITLE} subtitle={course.data?.title} />
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
        <Typography>Only the course&apos;s staff see how its grading is split.</Typography>
      ) : null}
      {course.data?.viewer === 'staff' ? (
        <WorkSplitEditor courseId={course.data._id} canManage={course.data.staffRole !== 'ta'} />
      ) : null}
    </Container>
  );
}
