import { useId, useState } from 'react';
import {
  Box,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useTheme,
} from '@mui/material';
import type { Reliability, ReliabilityBin, StatisticsOutput } from '@gradewise/shared/contracts/statistics';

/**
 * The reliability diagram of the AI's confidence (issue 27): across, the confidence its suggestions
 * said (the mean of each band of 10 points); up, the share of them the grader kept. On the
 * diagonal the confidence tells the truth. Drawn as plain SVG (a scatter with a diagonal and
 * sized points is not one of the page's bar charts), named for screen readers with the numbers in
 * its description, and followed by the same numbers as a table.
 */

export const RELIABILITY_EMPTY_TEXT =
  'No AI suggestions have been reviewed yet: the diagram fills in as you save grades.';

const WIDTH = 360;
const HEIGHT = 316;
const PLOT = { left: 50, right: 14, top: 14, bottom: 50 };
const PLOT_WIDTH = WIDTH - PLOT.left - PLOT.right;
const PLOT_HEIGHT = HEIGHT - PLOT.top - PLOT.bottom;
const TICKS = [0, 20, 40, 60, 80, 100];

const x = (percent: number) => PLOT.left + (percent / 100) * PLOT_WIDTH;
const y = (percent: number) => PLOT.top + (1 - percent / 100) * PLOT_HEIGHT;

const oneDecimal = (value: number) => String(Math.round(value * 10) / 10);
export const saidText = (value: number | null) => (value === null ? '—' : `${oneDecimal(value)}%`);
export const keptText = (share: number | null) => (share === null ? '—' : `${oneDecimal(share * 100)}%`);
export const errorText = (value: number | null) => (value === null ? '—' : `${oneDecimal(value)} points`);
export const bandText = (bin: Pick<ReliabilityBin, 'from' | 'to'>) => `${bin.from}–${bin.to}`;
const decisionsText = (count: number) => `${count} ${count === 1 ? 'decision' : 'decisions'}`;

/**
 * Where a point's count goes: on the side away from its gap line (above a point above the
 * diagonal, below one under it), so neighbouring bands' counts stand apart; beside it at the top
 * and bottom edges, on its left near the right edge.
 */
function countPlace(
  said: number,
  kept: number,
  r: number,
): { x: number; y: number; anchor: 'start' | 'middle' | 'end' } {
  const above = kept >= said;
  if (above ? kept <= 94 : kept >= 6) {
    return { x: x(said), y: above ? y(kept) - r - 4 : y(kept) + r + 12, anchor: 'middle' };
  }
  return said > 88
    ? { x: x(said) - r - 4, y: y(kept) + 4, anchor: 'end' }
    : { x: x(said) + r + 4, y: y(kept) + 4, anchor: 'start' };
}

type FilledBin = ReliabilityBin & { meanConfidence: number; keptShare: number };
const filledBins = (reliability: Reliability) =>
  reliability.bins.filter(
    (bin): bin is FilledBin => bin.count > 0 && bin.meanConfidence !== null && bin.keptShare !== null,
  );

/** The diagram's numbers in words: its accessible description. */
export function reliabilitySummary(reliability: Reliability): string {
  if (reliability.decisions === 0) return RELIABILITY_EMPTY_TEXT;
  const bands = filledBins(reliability).map(
    (bin) =>
      `${bandText(bin)}: said ${saidText(bin.meanConfidence)}, kept ${keptText(bin.keptShare)} (${decisionsText(bin.count)})`,
  );
  return (
    `${decisionsText(reliability.decisions)}; calibration error ${errorText(reliability.expectedCalibrationError)}. ` +
    `${bands.join('; ')}.`
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.25, flex: '1 1 130px', minWidth: 130 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {value}
      </Typography>
    </Paper>
  );
}

function Plot({ reliability, label }: { reliability: Reliability; label: string }) {
  const theme = useTheme();
  const titleId = useId();
  const descriptionId = useId();
  const bins = filledBins(reliability);
  const largest = Math.max(1, ...bins.map((bin) => bin.count));
  const radius = (count: number) => 4 + 9 * Math.sqrt(count / largest);
  const ink = theme.palette.text.secondary;

  return (
    <Box
      component="svg"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      sx={{ display: 'block', width: '100%', maxWidth: 440, height: 'auto', fontFamily: theme.typography.fontFamily }}
    >
      <title id={titleId}>{`Reliability diagram: ${label}`}</title>
      <desc id={descriptionId}>{reliabilitySummary(reliability)}</desc>
      <g aria-hidden="true">
        {TICKS.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={y(0)} y2={y(100)} stroke={theme.palette.divider} />
            <line x1={x(0)} x2={x(100)} y1={y(tick)} y2={y(tick)} stroke={theme.palette.divider} />
            <text x={x(tick)} y={y(0) + 16} textAnchor="middle" fontSize={11} fill={ink}>
              {tick}
            </text>
            <text x={x(0) - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill={ink}>
              {tick}
            </text>
          </g>
        ))}
        <text x={x(50)} y={HEIGHT - 8} textAnchor="middle" fontSize={12} fill={theme.palette.text.primary}>
          Confidence said (%)
        </text>
        <text
          x={14}
          y={y(50)}
          textAnchor="middle"
          fontSize={12}
          fill={theme.palette.text.primary}
          transform={`rotate(-90 14 ${y(50)})`}
        >
          Kept (%)
        </text>
        <line x1={x(0)} y1={y(0)} x2={x(100)} y2={y(100)} stroke={ink} strokeDasharray="5 4" />
        {/* The key, in the corner a calibrated grader leaves empty (said little, kept much). */}
        <line x1={x(3)} x2={x(11)} y1={y(94)} y2={y(94)} stroke={ink} strokeDasharray="5 4" />
        <text x={x(13)} y={y(94) + 4} fontSize={11} fill={ink}>
          ideal: kept as said
        </text>
        {bins.map((bin) => {
          const said = bin.meanConfidence;
          const kept = bin.keptShare * 100;
          const r = radius(bin.count);
          const count = countPlace(said, kept, r);
          return (
            <g key={bin.from}>
              <line
                x1={x(said)}
                x2={x(said)}
                y1={y(said)}
                y2={y(kept)}
                stroke={theme.palette.warning.main}
                strokeWidth={2}
              />
              <circle
                cx={x(said)}
                cy={y(kept)}
                r={r}
                fill={theme.palette.primary.main}
                stroke={theme.palette.background.paper}
                strokeWidth={1.5}
              />
              <text
                x={count.x}
                y={count.y}
                textAnchor={count.anchor}
                fontSize={12}
                fontWeight={500}
                fill={theme.palette.text.primary}
              >
                {bin.count}
              </text>
            </g>
          );
        })}
      </g>
    </Box>
  );
}

/**
 * The figures, the plot and the table of one reliability diagram, or the empty state without
 * decisions. `label` names what it covers ("All questions", a question's title).
 */
export function ReliabilityDiagram({ reliability, label }: { reliability: Reliability; label: string }) {
  if (reliability.decisions === 0) {
    return <Typography color="text.secondary">{RELIABILITY_EMPTY_TEXT}</Typography>;
  }
  const bins = filledBins(reliability);
  return (
    <Box>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Figure label="Decisions" value={String(reliability.decisions)} />
        <Figure label="Mean confidence said" value={saidText(reliability.meanConfidence)} />
        <Figure label="Suggestions kept" value={keptText(reliability.keptShare)} />
        <Figure label="Calibration error (ECE)" value={errorText(reliability.expectedCalibrationError)} />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'flex-start' } }}>
        <Box component="figure" sx={{ m: 0, flex: { md: '0 0 440px' }, width: { xs: '100%', md: 440 }, maxWidth: 440 }}>
          <Plot reliability={reliability} label={label} />
          <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Each point is a band of 10 confidence points: across, the confidence the AI said on average; up, the share
            of its suggestions kept (the saved score within 10% of the question&apos;s points of the suggested one). On
            the dashed diagonal the confidence tells the truth; below it, the AI said more than was kept (above it,
            less), and the line from the diagonal to a point is the gap. The number by a point is its decisions.
          </Typography>
        </Box>
        <TableContainer component={Paper} variant="outlined" sx={{ flex: { md: '1 1 0' }, minWidth: 0 }}>
          <Table size="small" aria-label="Reliability table">
            <TableHead>
              <TableRow>
                <TableCell>Confidence band</TableCell>
                <TableCell align="right">Decisions</TableCell>
                <TableCell align="right">Said</TableCell>
                <TableCell align="right">Kept</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {bins.map((bin) => (
                <TableRow key={bin.from}>
                  <TableCell>{bandText(bin)}</TableCell>
                  <TableCell align="right">{bin.count}</TableCell>
                  <TableCell align="right">{saidText(bin.meanConfidence)}</TableCell>
                  <TableCell align="right">{keptText(bin.keptShare)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Stack>
    </Box>
  );
}

const ALL = 'all';

/**
 * The statistics page's diagram: for a question, its own; for an assignment, all its questions
 * together, or one of them chosen in a select (a native one: keyboard and phone pickers for free).
 */
export function ReliabilityPanel({ statistics }: { statistics: StatisticsOutput }) {
  const [shown, setShown] = useState(ALL);
  // Without any decision every question is empty too: nothing to choose between.
  const choices =
    statistics.scope === 'assignment' && statistics.reliability.decisions > 0 ? statistics.questionReliability : [];
  const chosen = choices.find((entry) => entry.questionId === shown);
  const label = chosen ? chosen.questionLabel : statistics.scope === 'assignment' ? 'All questions' : statistics.title;
  return (
    <>
      {choices.length > 1 ? (
        <TextField
          select
          size="small"
          label="Questions"
          value={chosen ? shown : ALL}
          onChange={(event) => setShown(event.target.value)}
          slotProps={{ select: { native: true } }}
          sx={{ mb: 2, minWidth: 220, maxWidth: '100%' }}
        >
          <option value={ALL}>All questions</option>
          {choices.map((entry) => (
            <option key={entry.questionId} value={entry.questionId}>
              {entry.questionLabel}
            </option>
          ))}
        </TextField>
      ) : null}
      <ReliabilityDiagram reliability={chosen ? chosen.reliability : statistics.reliability} label={label} />
    </>
  );
}
