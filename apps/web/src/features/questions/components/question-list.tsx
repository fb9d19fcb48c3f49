import { Link as RouterLink } from 'react-router-dom';
import { List, ListItem, ListItemButton, ListItemText, Paper } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import type { QuestionSummary } from '@gradewise/shared/contracts/questions';
import { questionPagePath } from '../../../lib/paths.ts';

export const UNTITLED_QUESTION = 'Untitled Question';

/** Questions of an assignment, in creation order: title (or 'Untitled Question') and 'Points: {n}'. */
export function QuestionList({ assignmentId, questions }: { assignmentId: string; questions: QuestionSummary[] }) {
  return (
    <Paper variant="outlined">
      <List disablePadding>
        {questions.map((question, index) => (
          <ListItem key={question._id} disablePadding divider={index < questions.length - 1}>
            <ListItemButton component={RouterLink} to={questionPagePath(assignmentId, question._id)} sx={{ py: 1.5 }}>
              <ListItemText
                primary={question.title ?? UNTITLED_QUESTION}
                secondary={`Points: ${question.points}`}
                slotProps={{ primary: { sx: { fontWeight: 500, overflowWrap: 'anywhere' } } }}
              />
              <ChevronRightIcon aria-hidden sx={{ color: 'text.secondary' }} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
