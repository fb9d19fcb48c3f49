import { Chip } from '@mui/material';
import SchoolOutlinedIcon from '@mui/icons-material/SchoolOutlined';

export function learnedFromGradesText(examplesUsed: number): string {
  return `Updated from your ${examplesUsed} ${examplesUsed === 1 ? 'grade' : 'grades'}`;
}

/**
 * Marks an AI suggestion that was fitted to the instructor's saved grades on this question, so the
 * instructor can tell a learned suggestion from a cold start. Nothing for a cold start.
 */
export function LearnedFromGrades({ examplesUsed }: { examplesUsed: number | undefined }) {
  if (!examplesUsed || examplesUsed <= 0) return null;
  return (
    <Chip
      size="small"
      color="success"
      variant="outlined"
      icon={<SchoolOutlinedIcon />}
      label={learnedFromGradesText(examplesUsed)}
      sx={{ maxWidth: '100%', mb: 2 }}
    />
  );
}
