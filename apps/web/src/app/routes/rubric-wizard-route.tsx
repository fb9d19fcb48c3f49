import { Link as RouterLink, useParams } from 'react-router-dom';
import { Button, Container, Link, Typography } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { RUBRIC_MESSAGES, useRubricQuestion } from '../../features/rubrics/api/rubrics-api.ts';
import { RubricWizard } from '../../features/rubrics/components/rubric-wizard.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { questionPagePath, rubricEditPath } from '../../lib/paths.ts';

/** .../rubric-wizard — review, shape, try and save the question's rubric (instructor of the course). */
export function RubricWizardRoute() {
  const { assignmentId = '', questionId = '' } = useParams();
  useDocumentTitle('Rubric Wizard');
  const question = useRubricQuestion(assignmentId, questionId);
  useErrorToast(question.error, RUBRIC_MESSAGES.fetchFailed);
  const detail = question.data;
  const questionPage = questionPagePath(assignmentId, questionId);
  const rubric = detail?.viewer === 'staff' ? detail.autoRubric[0] : undefined;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
      <PageHeader
        title="Rubric Wizard"
        subtitle={detail ? `${detail.title ?? 'Untitled question'} · ${detail.points} points` : undefined}
        back={{ to: questionPage, label: 'Back to the question' }}
      />
      {/* The wizard drafts and tries a rubric step by step; Edit Rubric changes a saved one in place. */}
      {rubric ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Step by step: check the texts, shape the items, try them on answers, then save. To change a saved rubric
          directly, use{' '}
          <Link component={RouterLink} to={rubricEditPath(assignmentId, questionId)}>
            Edit Rubric
          </Link>
          .
        </Typography>
      ) : null}
      {question.isPending ? <LoadingMessage text="Loading rubric…" /> : null}
      {question.isError ? <ErrorMessage text={RUBRIC_MESSAGES.fetchFailed} /> : null}
      {detail && detail.viewer !== 'staff' ? (
        <ErrorMessage text="Only the instructor of this course can see its rubric." />
      ) : null}
      {detail && detail.viewer === 'staff' && !rubric ? (
        <EmptyMessage text={RUBRIC_MESSAGES.noRubric}>
          <Button component={RouterLink} to={questionPage} sx={{ mt: 1 }}>
            Go to the question
          </Button>
        </EmptyMessage>
      ) : null}
      {detail && detail.viewer === 'staff' && rubric ? (
        <RubricWizard
          key={rubric.updatedAt}
          assignmentId={assignmentId}
          questionId={questionId}
          questionPoints={detail.points}
          rubric={rubric}
          submissions={detail.submissions ?? []}
        />
      ) : null}
    </Container>
  );
}
