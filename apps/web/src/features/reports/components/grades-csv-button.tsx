import { useState } from 'react';
import { Button, type ButtonProps } from '@mui/material';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { messageOf } from '../../../lib/api-client.ts';
import { showError } from '../../../lib/toasts.tsx';
import { downloadGradesCsv, REPORT_MESSAGES, type GradesCsvScope } from '../api/reports-api.ts';

export interface GradesCsvButtonProps extends GradesCsvScope {
  /** Used for the file name, e.g. the assignment or question title. */
  name: string;
  children?: ButtonProps['children'];
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}

/**
 * Downloads the saved grades as CSV (student name, email, points per question, total, late), for
 * pasting into a gradebook: a question's grades when `questionId` is given, else the assignment's.
 */
export function GradesCsvButton({
  assignmentId,
  questionId,
  name,
  children,
  variant = 'outlined',
  size,
}: GradesCsvButtonProps) {
  const [isDownloading, setDownloading] = useState(false);
  const onClick = async () => {
    setDownloading(true);
    try {
      await downloadGradesCsv({ assignmentId, questionId }, `${fileSlug(name)}-grades.csv`);
    } catch (error) {
      showError(messageOf(error, REPORT_MESSAGES.csvFailed), error);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button
      variant={variant}
      size={size}
      startIcon={<FileDownloadOutlinedIcon />}
      onClick={onClick}
      disabled={isDownloading}
      aria-busy={isDownloading}
    >
      {children ?? (questionId ? 'Download Grades (CSV)' : 'Download Assignment Grades (CSV)')}
    </Button>
  );
}

function fileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return slug || 'grades';
}
