import { useNavigate, useParams } from 'react-router-dom';
import { Container, Paper } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage } from '../../components/screen-states.tsx';
import { useAssignment } from '../../features/assignments/api/assignments-api.ts';
import { CreateQuestionForm } from '../../features/questions/components/create-question-form.tsx';
import { questionListPath, questionPagePath } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const ONLY_INSTRUCTORS_CREATE_QUESTIONS = 'Only instructors can create questions.';

/** Create question (spec section 2): instructors only; on success, the new question's page. */
export function QuestionCreateRoute() {
  useDocumentTitle('Create Question');
  const { assignmentId = '' } = useParams();
  const { user } = useSession();
  const navigate = useNavigate();
  const isInstructor = user?.role === 'instructor';
  // Only for the title line; the form works without it (the server checks the assignment).
  const assignment = useAssignment(isInstructor ? assignmentId : undefined);

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        back={{
          to: questionListPath(assignmentId),
          label: assignment.data ? `Questions for ${assignment.data.title}` : 'Questions',
        }}
        title="Create Question"
        subtitle={assignment.data ? `Assignment: ${assignment.data.title}` : undefined}
      />
      {isInstructor ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <CreateQuestionForm
            assignmentId={assignmentId}
            onCreated={(questionId) => navigate(questionPagePath(assignmentId, questionId))}
          />
        </Paper>
      ) : (
        <ErrorMessage text={ONLY_INSTRUCTORS_CREATE_QUESTIONS} />
      )}
    </Container>
  );
}
