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

/** "Read by OCR (scanned page 2)": what the label on a scanned answer's text says. */
export function describeOcrPages(pages: readonly number[]): string {
  const which = pages.length === 1 ? `page ${pages[0]}` : `pages ${pages.join(', ')}`;
  return `Scanned answer: the text of ${which} was read by OCR (text recognition). Check it against the original PDF.`;
}

export function GraderSummary({
  grader,
  hiddenText,
  ocrPages = [],
}: {
  grader: GraderInfo | null;
  hiddenText: readonly HiddenTextFinding[];
  /** Pages whose text OCR read; labelled so nobody takes a recognised text for a typed one. */
  ocrPages?: readonly number[];
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
      {ocrPages.length > 0 ? (
        <Alert severity="info" role="note" sx={{ mt: 1.5 }}>
          {describeOcrPages(ocrPages)}
        </Alert>
      ) : null}
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
