import { useParams } from 'react-router-dom';
import { Container } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { RUBRIC_MESSAGES, useRubricQuestion } from '../../features/rubrics/api/rubrics-api.ts';
import { questionPagePath } from '../../lib/paths.ts';
import { RubricEditor } from '../../features/rubrics/components/rubric-editor.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';

/** .../rubric — Edit Rubric (instructor of the course). */
export function RubricEditRoute() {
  const { assignmentId = '', questionId = '' } = useParams();
  useDocumentTitle('Edit Rubric');
  const question = useRubricQuestion(assignmentId, questionId);
  useErrorToast(question.error, RUBRIC_MESSAGES.fetchFailed);
  const detail = question.data;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        title="Edit Rubric"
        // An untitled question is named by its place, not by a heading of another screen.
        subtitle={detail ? `${detail.title ?? 'Untitled question'} · ${detail.points} points` : undefined}
        back={{ to: questionPagePath(assignmentId, questionId), label: 'Back to the question' }}
      />
      {question.isPending ? <LoadingMessage text="Loading rubric…" /> : null}
      {question.isError ? <ErrorMessage text={RUBRIC_MESSAGES.fetchFailed} /> : null}
      {detail && detail.viewer !== 'staff' ? (
        <ErrorMessage text="Only the instructor of this course can edit its rubric." />
      ) : null}
      {detail && detail.viewer === 'staff' ? (
        <RubricEditor
          key={detail.autoRubric[0]?.updatedAt ?? 'none'}
          assignmentId={assignmentId}
          questionId={questionId}
          questionPoints={detail.points}
          rubric={detail.autoRubric[0]}
        />
      ) : null}
    </Container>
  );
}
