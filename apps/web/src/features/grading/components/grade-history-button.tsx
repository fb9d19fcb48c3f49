import { lazy, Suspense, useState } from 'react';
import { Button } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';

// The dialog (its list, diffs and AI cost table) is asked for on the first press, not with the
// grading screen: none of it is on the screen's first view (decision 0091).
const GradeHistoryDialog = lazy(async () => ({
  default: (await import('./grade-history-dialog.tsx')).GradeHistoryDialog,
}));

export interface GradeHistoryButtonProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

/** The grading screen's History button; its dialog stays mounted once opened, so it closes with its fade. */
export function GradeHistoryButton({ assignmentId, questionId, submissionId }: GradeHistoryButtonProps) {
  const [open, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<HistoryIcon />}
        onClick={() => {
          setHasOpened(true);
          setOpen(true);
        }}
      >
        History
      </Button>
      {hasOpened ? (
        <Suspense fallback={null}>
          <GradeHistoryDialog
            assignmentId={assignmentId}
            questionId={questionId}
            submissionId={submissionId}
            open={open}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
