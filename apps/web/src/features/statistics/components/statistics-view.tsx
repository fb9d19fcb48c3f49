import type { ReactNode } from 'react';
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
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Agreement, StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { ReliabilityPanel } from './reliability-diagram.tsx';

/**
 * A table's frame, which scrolls sideways on a phone: reachable by the keyboard (Tab, then the
 * arrow keys) and named, so it can be scrolled without a pointer (axe: scrollable-region-focusable).
 */
const SCROLLS_SIDEWAYS = { tabIndex: 0, role: 'region' } as const;

/**
 * The statistics of a question or an assignment: key figures, the grade distribution and the
 * rubric items' deductions as charts (MUI X Charts), each chart named for screen readers and
 * followed by the same numbers as a table, the reliability diagram of the AI's confidence, then
 * the per-grader table with the AI as one grader.
 */

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10}%`);
const number = (value: number | null) => (value === null ? '—' : String(value));

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: '1 1 140px', minWidth: 140 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p">
        {value}
      </Typography>
    </Paper>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 4 }}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function agreementText(agreement: Agreement | null): string {
  if (!agreement || agreement.compared === 0) return '—';
  return `${number(agreement.meanAbsoluteDifference)} pts apart · ${percent(agreement.withinTenPercentShare)} within 10% (${agreement.compared})`;
}

/** "3. Q1: Explains the addi…": the bar's number and the start of its label, for the chart's axis. */
export function shortItemLabel(index: number, label: string): string {
  const short = label.length > 20 ? `${label.slice(0, 19).trimEnd()}…` : label;
  return `${index + 1}. ${short}`;
}

export function StatisticsView({ statistics }: { statistics: StatisticsOutput }) {
  const { histogram, rubricItems, graders } = statistics;
  const isAssignment = statistics.scope === 'assignment';
  const binLabels = histogram.map((bin) => `${bin.from}–${bin.to}`);
  const distributionSummary =
    statistics.graded === 0
      ? 'No saved grades yet.'
      : `Grades of ${statistics.graded} ${isAssignment ? 'fully graded ' : ''}students out of ${statistics.points} points: ` +
        histogram.map((bin, index) => `${binLabels[index]}: ${bin.count}`).join(', ');
  const itemLabel = (item: (typeof rubricItems)[number]) =>
    statistics.scope === 'assignment' ? `${item.questionLabel}: ${item.criterion}` : item.criterion;

  return (
    <Box>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ flexWrap: 'wrap' }}>
        <Figure
          label={isAssignment ? 'Fully graded students' : 'Graded'}
          value={`${statistics.graded} of ${statistics.answered}`}
        />
        {isAssignment ? (
          <Figure label="Partly graded (not in the figures)" value={String(statistics.partlyGraded)} />
        ) : null}
        <Figure
          label={isAssignment ? 'Mean of fully graded' : 'Mean'}
          value={`${number(statistics.mean)} / ${statistics.points}`}
        />
        <Figure
          label={isAssignment ? 'Median of fully graded' : 'Median'}
          value={`${number(statistics.median)} / ${statistics.points}`}
        />
        <Figure label="Late answers" value={percent(statistics.lateShare)} />
        <Figure
          label="Kept within 10% of the AI"
          value={statistics.aiAgreement.compared === 0 ? '—' : percent(statistics.aiAgreement.withinTenPercentShare)}
        />
      </Stack>

      <Section id="statistics-distribution" title="Grade distribution">
        {statistics.graded === 0 ? (
          <Typography color="text.secondary">
            No saved grades yet: the distribution appears once grades are saved.
          </Typography>
        ) : (
          <Box component="figure" sx={{ m: 0 }}>
            <Box role="img" aria-label={distributionSummary}>
              <BarChart
                height={260}
                xAxis={[{ scaleType: 'band', data: binLabels, label: 'Points' }]}
                yAxis={[{ label: 'Students', tickMinStep: 1 }]}
                series={[{ data: histogram.map((bin) => bin.count), label: 'Students' }]}
                hideLegend
              />
            </Box>
            <Typography component="figcaption" variant="body2" color="text.secondary">
              Students per band of points (the last band includes the full mark).
              {isAssignment && statistics.partlyGraded > 0
                ? ` ${statistics.partlyGraded} partly graded ${statistics.partlyGraded === 1 ? 'student is' : 'students are'} left out until every answer of theirs is graded.`
                : ''}
            </Typography>
          </Box>
        )}
        <TableContainer
          {...SCROLLS_SIDEWAYS}
          aria-label="Grade distribution table, scrolls sideways"
          component={Paper}
          variant="outlined"
          sx={{ mt: 1 }}
        >
          <Table size="small" aria-label="Grade distribution table">
            <TableHead>
              <TableRow>
                <TableCell>Points</TableCell>
                <TableCell align="right">Students</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {histogram.map((bin, index) => (
                <TableRow key={binLabels[index]}>
                  <TableCell>{binLabels[index]}</TableCell>
                  <TableCell align="right">{bin.count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Section>

      <Section id="statistics-rubric" title="Deductions per rubric item">
        {rubricItems.length === 0 ? (
          <Typography color="text.secondary">No rubric items to count deductions on.</Typography>
        ) : (
          <>
            {statistics.graded > 0 ? (
              <Box
                role="img"
                aria-label={
                  'Share of graded answers that lost points on each rubric item: ' +
                  rubricItems.map((item) => `${itemLabel(item)}: ${percent(item.answerShare)}`).join(', ')
                }
              >
                <BarChart
                  height={Math.max(160, 48 * rubricItems.length + 60)}
                  layout="horizontal"
                  yAxis={[
                    {
                      scaleType: 'band',
                      // Each bar is its number in the table below; the axis shows it with the start
                      // of the criterion, the tooltip the whole label (items of one question used to
                      // read alike when cut at the axis's width).
                      data: rubricItems.map((_item, index) => index),
                      valueFormatter: (index: number, context) =>
                        context.location === 'tick'
                          ? shortItemLabel(index, itemLabel(rubricItems[index]!))
                          : `${index + 1}. ${itemLabel(rubricItems[index]!)}`,
                      width: 170,
                    },
                  ]}
                  xAxis={[{ min: 0, max: 100, label: '% of graded answers' }]}
                  series={[
                    {
                      data: rubricItems.map((item) => Math.round(item.answerShare * 1000) / 10),
                      label: '% of answers',
                    },
                  ]}
                  hideLegend
                />
              </Box>
            ) : null}
            <TableContainer
              {...SCROLLS_SIDEWAYS}
              aria-label="Deductions per rubric item table, scrolls sideways"
              component={Paper}
              variant="outlined"
              sx={{ mt: 1 }}
            >
              <Table size="small" aria-label="Deductions per rubric item table">
                <TableHead>
                  <TableRow>
                    <TableCell>Rubric item</TableCell>
                    <TableCell align="right">Answers that lost points</TableCell>
                    <TableCell align="right">Share of points deducted</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rubricItems.map((item, index) => (
                    <TableRow key={`${item.questionId}:${item.itemId}`}>
                      <TableCell>
                        {index + 1}. {itemLabel(item)} ({item.points} pts)
                      </TableCell>
                      <TableCell align="right">
                        {item.deductedCount} ({percent(item.answerShare)})
                      </TableCell>
                      <TableCell align="right">{percent(item.pointsShare)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </Section>

      <Section id="statistics-reliability" title="AI confidence against what was kept">
        <ReliabilityPanel statistics={statistics} />
      </Section>

      <Section id="statistics-graders" title="Graders">
        {graders.length === 0 ? (
          <Typography color="text.secondary">Nobody has graded yet.</Typography>
        ) : (
          <TableContainer
            {...SCROLLS_SIDEWAYS}
            aria-label="Graders table, scrolls sideways"
            component={Paper}
            variant="outlined"
          >
            <Table size="small" aria-label="Graders table">
              <TableHead>
                <TableRow>
                  <TableCell>Grader</TableCell>
                  <TableCell align="right">Answers</TableCell>
                  <TableCell align="right">Mean grade</TableCell>
                  <TableCell>Agreement with the instructor</TableCell>
                  <TableCell>Agreement with the AI</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {graders.map((grader) => (
                  <TableRow key={grader.graderId}>
                    <TableCell>
                      {grader.name}
                      {grader.isInstructor ? ' (instructor)' : ''}
                    </TableCell>
                    <TableCell align="right">{grader.count}</TableCell>
                    <TableCell align="right">
                      {grader.meanGrade === null ? '—' : `${grader.meanGrade} (${grader.meanPercent}%)`}
                    </TableCell>
                    <TableCell>
                      {grader.isInstructor ? 'Reference' : agreementText(grader.agreementWithInstructor)}
                    </TableCell>
                    <TableCell>{grader.kind === 'ai' ? '—' : agreementText(grader.agreementWithAi)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Agreement: mean difference in points, and the share of answers within 10% of the points. With the instructor:
          on answers both graded. With the AI: against the suggestion each grade started from.
        </Typography>
      </Section>
    </Box>
  );
}
