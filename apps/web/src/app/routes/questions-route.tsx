import { Link as RouterLink, useParams } from 'react-router-dom';
import { Button, Container, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { PageHeader } from '../../components/page-header.tsx';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES, useAssignment } from '../../features/assignments/api/assignments-api.ts';
import { QUESTION_MESSAGES, useQuestions } from '../../features/questions/api/questions-api.ts';
import { QuestionList } from '../../features/questions/components/question-list.tsx';
import { messageOf } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { assignmentPath, questionCreatePath } from '../../lib/paths.ts';

/** Questions list (spec section 2): 'Questions for {assignment title}', Create Question for instructors. */
export function QuestionsRoute() {
  const { assignmentId = '' } = useParams();
  const { user } = useSession();
  const assignment = useAssignment(assignmentId);
  const questions = useQuestions(assignmentId);
  const heading = assignment.data ? `Questions for ${assignment.data.title}` : 'Questions';
  useDocumentTitle(heading);
  useErrorToast(assignment.error, ASSIGNMENT_MESSAGES.fetchFailed);
  useErrorToast(questions.error, QUESTION_MESSAGES.fetchListFailed);

  if (assignment.isPending || questions.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <LoadingMessage text="Loading questions…" />
      </Container>
    );
  }
  if (assignment.isError || questions.isError) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Questions
        </Typography>
        <ErrorMessage
          text={
            assignment.isError
              ? ASSIGNMENT_MESSAGES.notFound
              : messageOf(questions.error, QUESTION_MESSAGES.fetchListFailed)
          }
        />
      </Container>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        back={{ to: assignmentPath(assignmentId), label: assignment.data.title }}
        title={heading}
        subtitle={`Total points: ${assignment.data.points}`}
        actions={
          user?.role === 'instructor' && assignment.data.staffRole !== 'ta' ? (
            <Button
              component={RouterLink}
              to={questionCreatePath(assignmentId)}
              variant="contained"
              startIcon={<AddIcon />}
            >
              Create Question
            </Button>
          ) : null
        }
      />
      {questions.data.length === 0 ? (
        <EmptyMessage text="No questions yet." />
      ) : (
        <QuestionList assignmentId={assignmentId} questions={questions.data} />
      )}
    </Container>
  );
}
