import { Link as RouterLink } from 'react-router-dom';
import { Button, Tooltip } from '@mui/material';
import EditNoteIcon from '@mui/icons-material/EditNote';
import { rubricEditPath } from '../../../lib/paths.ts';
import { GenerateRubricButton } from './generate-rubric-button.tsx';

/**
 * The rubric buttons of the question page (instructor only): Generate Rubric while the question
 * has no AI rubric, else Edit Rubric (View Rubric Wizard sits next to it, from the question page).
 */
export function RubricActions({
  assignmentId,
  questionId,
  hasRubric,
}: {
  assignmentId: string;
  questionId: string;
  hasRubric: boolean;
}) {
  if (!hasRubric) return <GenerateRubricButton assignmentId={assignmentId} questionId={questionId} />;
  return (
    <Tooltip describeChild title="Change the saved rubric: its texts, items and points">
      <Button
        component={RouterLink}
        to={rubricEditPath(assignmentId, questionId)}
        variant="outlined"
        startIcon={<EditNoteIcon />}
      >
        Edit Rubric
      </Button>
    </Tooltip>
  );
}
