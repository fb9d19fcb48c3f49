import { useId, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import { PdfDialogButton } from '../../../components/pdf-dialog-button.tsx';
import { ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useSubmissionVersions } from '../api/submissions-api.ts';

export interface SubmissionVersionsButtonProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  studentName: string;
  /** How many versions exist (the table shows the latest). */
  count: number;
}

/** Every upload is kept: the instructor can open the earlier versions of one student's answer. */
export function SubmissionVersionsButton({
  assignmentId,
  questionId,
  submissionId,
  studentName,
  count,
}: SubmissionVersionsButtonProps) {
  const [isOpen, setOpen] = useState(false);
  const titleId = useId();
  const versions = useSubmissionVersions(assignmentId, questionId, submissionId, isOpen);
  const close = () => setOpen(false);

  return (
    <>
      <Button
        size="small"
        variant="text"
        startIcon={<HistoryIcon />}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={`All ${count} versions of ${studentName}'s answer`}
      >
        {count} versions
      </Button>
      <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>Versions of {studentName}&apos;s answer</DialogTitle>
        <DialogContent dividers>
          {versions.isPending ? (
            <LoadingMessage text="Loading versions…" compact />
          ) : versions.isError ? (
            <ErrorMessage text={messageOf(versions.error, 'Failed to fetch submission versions.')} />
          ) : (
            <List disablePadding>
              {versions.data.versions.map((version) => (
                <ListItem
                  key={version._id}
                  divider
                  secondaryAction={
                    <PdfDialogButton
                      url={version.file}
                      title={`Version ${version.version} of ${studentName}'s answer`}
                      size="small"
                      variant="text"
                      aria-label={`View PDF of version ${version.version}`}
                    >
                      View PDF
                    </PdfDialogButton>
                  }
                  sx={{ pr: 16 }}
                >
                  <ListItemText
                    primary={`Version ${version.version}${version.isLate ? ' (late)' : ''}`}
                    secondary={`${formatDateTime(version.submittedAt)} · uploaded by ${version.uploadedBy.name}`}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
