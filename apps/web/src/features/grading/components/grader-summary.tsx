import { Alert, AlertTitle, Box, Chip, Typography } from '@mui/material';
import type { GraderInfo, HiddenTextFinding } from '@gradewise/shared/contracts/grading';

/** "Who suggested this": the UI always says which grader (and model) produced the comments. */
export function describeGrader(grader: GraderInfo | null): string {
  if (!grader) return 'Graded by the instructor (no AI suggestion)';
  if (grader.kind === 'builtin') return `Suggested by the built-in grader (${grader.model})`;
  return `Suggested by ${grader.provider} · ${grader.model}`;
}

const REASONS: Record<string, string> = {
  'white-or-transparent': 'white or transparent text',
  tiny: 'text too small to read',
  'off-page': 'text outside the page',
  'covered-by-image': 'text covered by an image',
  'covered-by-text': 'text painted over by other text',
  'covered-by-annotation': 'text covered by an annotation',
  clipped: 'text clipped out of view',
  'low-contrast': 'text too faint to read',
  'blank-glyphs': 'letters that draw nothing',
  'remapped-glyphs': 'text that differs from the letters drawn',
};

export function GraderSummary({
  grader,
  hiddenText,
}: {
  grader: GraderInfo | null;
  hiddenText: readonly HiddenTextFinding[];
}) {
  return (
    <Box sx={{ mb: 2 }}>
      <Chip
        size="small"
        variant="outlined"
        color={grader ? 'secondary' : 'default'}
        label={describeGrader(grader)}
        sx={{ maxWidth: '100%' }}
      />
      {hiddenText.length > 0 ? (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          <AlertTitle>Hidden text found in this PDF</AlertTitle>
          {hiddenText.length === 1 ? 'One passage' : `${hiddenText.length} passages`} a reader cannot see{' '}
          {hiddenText.length === 1 ? 'was' : 'were'} kept out of grading. Check the original PDF before saving.
          <Box component="details" sx={{ mt: 1 }}>
            <summary>Show the hidden text</summary>
            <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
              {hiddenText.slice(0, 20).map((finding, index) => (
                <li key={index}>
                  <Typography variant="body2" component="span">
                    Page {finding.page} ({REASONS[finding.reason] ?? finding.reason}):{' '}
                    <q style={{ overflowWrap: 'anywhere' }}>{finding.text.slice(0, 300)}</q>
                  </Typography>
                </li>
              ))}
            </Box>
          </Box>
        </Alert>
      ) : null}
    </Box>
  );
}
