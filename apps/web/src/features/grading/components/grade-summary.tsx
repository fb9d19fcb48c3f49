import { Box, Typography } from '@mui/material';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatPoints } from '../format.ts';
import { CONFIDENCE_HELP, ConfidenceHelp } from './confidence-help.tsx';

export interface GradeSummaryProps {
  finalGrade: number;
  questionPoints: number;
  confidence: number;
}

/**
 * Final Grade and Confidence (spec section 2). The grading screen keeps it stuck to the bottom of
 * the scrolling area, so the grade stays in view however many comments there are, and on a phone
 * while the instructor reads the PDF above the comments.
 */
export function GradeSummary({ finalGrade, questionPoints, confidence }: GradeSummaryProps) {
  return (
    <Box
      role="group"
      aria-label="Grade summary"
      data-grade-summary
      sx={{
        gridColumn: { xs: '1', md: '2' },
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        // A bar of its own colour and frame, so comments scrolling under it do not show through.
        bgcolor: 'grey.900',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        boxShadow: 4,
        px: 2,
        py: 1,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 3,
      }}
    >
      <Typography variant="h6" component="p">
        Final Grade: {formatPoints(finalGrade)} / {formatPoints(questionPoints)}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography
          color={confidence < 50 ? 'warning.light' : 'text.secondary'}
          aria-describedby="confidence-definition"
        >
          Confidence: {Math.round(confidence)}%
        </Typography>
        <ConfidenceHelp />
        <Box component="span" id="confidence-definition" sx={visuallyHidden}>
          {CONFIDENCE_HELP}
        </Box>
      </Box>
    </Box>
  );
}
