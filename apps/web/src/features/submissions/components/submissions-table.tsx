import { Fragment, useRef, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { EARLIER_VERSION_LABEL } from '@gradewise/shared/resubmission';
import { PdfDialogButton } from '../../../components/pdf-dialog-button.tsx';
import { ExtractionState } from '../../../components/extraction-state.tsx';
import { EmptyMessage } from '../../../components/screen-states.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { gradePagePath, gradingReportPath } from '../../../lib/paths.ts';
import { ReopenSubmissionButton } from './reopen-submission-button.tsx';
import { SubmissionVersionsButton } from './submission-versions-button.tsx';
import { formatPoints } from '@gradewise/shared/points';
import { isGraded, reviewStateOf, type SubmissionTableRow } from './submission-row.ts';

export const NO_SUBMISSIONS_MESSAGE = 'No submissions yet.';
export const NOT_GRADED = 'Not Graded';

export interface SubmissionsTableProps {
  assignmentId: string;
  questionId: string;
  /** The question's points, for 'Current: {grade} / {points}'. */
  questionPoints: number;
  rows: SubmissionTableRow[];
  /** The course's instructor sees the Actions column and every student's latest submission. */
  isStaff: boolean;
  /**
   * More instructor actions per row, after Grade / Regrade (for the grading screens to add to).
   * Return null for none.
   */
  renderExtraActions?: (row: SubmissionTableRow) => ReactNode;
  /** More about a row under the student's name (staff: the answer-group badges). Return null for none. */
  renderStudentExtra?: (row: SubmissionTableRow) => ReactNode;
  /**
   * When `rows` is one page of the list: whether any submission of the whole list is graded (the
   * Grading Report column is the list's, not the page's), and the pager. Without it, `rows` is the list.
   */
  paging?: SubmissionsPaging;
}

export interface SubmissionsPaging {
  total: number;
  anyGraded: boolean;
  /** Zero-based. */
  page: number;
  rowsPerPage: number;
  rowsPerPageOptions: readonly number[];
  onPageChange(page: number): void;
  onRowsPerPageChange(rowsPerPage: number): void;
  /** The next page is on its way: the rows shown are still the previous page's. */
  isLoading?: boolean;
}

export const SUBMISSIONS_PAGER_LABEL = 'Submission pages';

/**
 * Spec section 2, question detail: Student, File (View PDF), Late? (Yes/No), Grade ('Not Graded'
 * in red, else the grade in green), Actions for instructors (Grade, or Regrade with 'Current:
 * {grade} / {points}'), and a Grading Report column once any submission is graded. Under View
 * PDF, where reading the PDF's text stands (queued / reading / done / failed, and why it failed). On phones each
 * submission is a card with the same fields, since six columns do not fit 375 px.
 */
export function SubmissionsTable(props: SubmissionsTableProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('md'));
  const listTop = useRef<HTMLDivElement>(null);
  const total = props.paging ? props.paging.total : props.rows.length;
  if (total === 0) return <EmptyMessage text={NO_SUBMISSIONS_MESSAGE} />;
  const hasReportColumn = props.paging ? props.paging.anyGraded : props.rows.some(isGraded);
  // The pager sits below the list: after turning a page, the new page's first row is what the
  // reader wants, not whatever now lies under the pager (a shorter last page left them below the list).
  const showListTop = () => {
    const top = listTop.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView?.({ block: 'start' });
  };
  return (
    // scroll-margin keeps the list's top clear of the sticky navigation bar.
    <Box ref={listTop} aria-busy={props.paging?.isLoading ?? false} sx={{ scrollMarginTop: 80 }}>
      {isPhone ? (
        <SubmissionCards {...props} hasReportColumn={hasReportColumn} />
      ) : (
        <SubmissionRows {...props} hasReportColumn={hasReportColumn} />
      )}
      {props.paging ? (
        <SubmissionsPager
          {...props.paging}
          onPageChange={(page) => {
            props.paging!.onPageChange(page);
            showListTop();
          }}
          onRowsPerPageChange={(rowsPerPage) => {
            props.paging!.onRowsPerPageChange(rowsPerPage);
            showListTop();
          }}
        />
      ) : null}
    </Box>
  );
}

/**
 * Below the table once the list is longer than the smallest page: MUI's pager (buttons and a
 * rows-per-page select, all reachable by keyboard), named for screen readers.
 */
function SubmissionsPager({ total, page, rowsPerPage, rowsPerPageOptions, ...handlers }: SubmissionsPaging) {
  if (total <= Math.min(...rowsPerPageOptions)) return null;
  return (
    <Box component="nav" aria-label={SUBMISSIONS_PAGER_LABEL}>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={[...rowsPerPageOptions]}
        labelRowsPerPage="Submissions per page:"
        onPageChange={(_event, next) => handlers.onPageChange(next)}
        onRowsPerPageChange={(event) => handlers.onRowsPerPageChange(Number(event.target.value))}
        // On a phone the label, the select, the range and the arrows do not fit one line: they wrap
        // (the arrows were cut off at 390 px).
        sx={{
          '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', rowGap: 0.5, pl: { xs: 0, sm: 2 } },
          '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
        }}
      />
    </Box>
  );
}

type ListProps = SubmissionsTableProps & { hasReportColumn: boolean };

function SubmissionRows({ rows, isStaff, renderStudentExtra, hasReportColumn, ...props }: ListProps) {
  return (
    // At a desk a button's label stays on one line (VIEW PDF, VIEW REPORT wrapped at 1280 px); the
    // columns make room for them, and the student's email breaks only where an address can.
    <TableContainer component={Paper} variant="outlined" sx={{ '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
      <Table aria-label="Submissions">
        <TableHead>
          <TableRow>
            <TableCell>Student</TableCell>
            <TableCell>File</TableCell>
            <TableCell>Late?</TableCell>
            <TableCell>Grade</TableCell>
            {isStaff ? <TableCell>Actions</TableCell> : null}
            {hasReportColumn ? <TableCell>Grading Report</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row._id}>
              <TableCell component="th" scope="row">
                <StudentCell row={row} isStaff={isStaff} extra={renderStudentExtra?.(row)} />
              </TableCell>
              <TableCell>
                <ViewPdf row={row} />
                {isStaff ? <Versions row={row} {...props} /> : null}
                <ExtractionState status={row.extractionStatus} error={row.extractionError} />
              </TableCell>
              <TableCell>
                <Late row={row} />
              </TableCell>
              <TableCell>
                <Grade row={row} points={props.questionPoints} />
                {isStaff ? <ReviewState row={row} points={props.questionPoints} /> : null}
              </TableCell>
              {isStaff ? (
                <TableCell>
                  <Actions row={row} {...props} />
                </TableCell>
              ) : null}
              {hasReportColumn ? (
                <TableCell>
                  <Report row={row} {...props} />
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function SubmissionCards({ rows, isStaff, renderStudentExtra, hasReportColumn, ...props }: ListProps) {
  return (
    <Stack component="ul" spacing={1.5} aria-label="Submissions" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {rows.map((row) => (
        <Paper key={row._id} component="li" variant="outlined" sx={{ p: 2 }}>
          <StudentCell row={row} isStaff={isStaff} extra={renderStudentExtra?.(row)} />
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              columnGap: 2,
              rowGap: 1,
              alignItems: 'center',
              my: 1.5,
              '& dt': { color: 'text.secondary', typography: 'body2' },
              '& dd': { m: 0 },
            }}
          >
            <dt>File</dt>
            <dd>
              <ViewPdf row={row} />
              {isStaff ? <Versions row={row} {...props} /> : null}
              <ExtractionState status={row.extractionStatus} error={row.extractionError} />
            </dd>
            <dt>Late?</dt>
            <dd>
              <Late row={row} />
            </dd>
            <dt>Grade</dt>
            <dd>
              <Grade row={row} points={props.questionPoints} />
              {isStaff ? <ReviewState row={row} points={props.questionPoints} /> : null}
            </dd>
            {isStaff ? (
              <>
                <dt>Actions</dt>
                <dd>
                  <Actions row={row} {...props} />
                </dd>
              </>
            ) : null}
            {hasReportColumn ? (
              <>
                <dt>Grading Report</dt>
                <dd>
                  <Report row={row} {...props} />
                </dd>
              </>
            ) : null}
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}

type CellProps = Omit<SubmissionsTableProps, 'rows' | 'isStaff' | 'renderStudentExtra' | 'paging'> & {
  row: SubmissionTableRow;
};

function StudentCell({ row, isStaff, extra }: { row: SubmissionTableRow; isStaff: boolean; extra?: ReactNode }) {
  const isOnBehalf = row.uploadedBy && row.uploadedBy._id !== row.student._id;
  const details = [
    `Submitted ${formatDateTime(row.submittedAt)}`,
    row.version > 1 ? `version ${row.version}` : null,
    isOnBehalf ? `uploaded by ${row.uploadedBy?.name}` : null,
  ].filter(Boolean);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{row.student.name}</Typography>
      {isStaff && row.student.email ? (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
          {breakableEmail(row.student.email)}
        </Typography>
      ) : null}
      <Typography variant="caption" color="text.secondary">
        {details.join(' · ')}
      </Typography>
      {extra}
    </Box>
  );
}

/**
 * An email that wraps only after its '@' and before a dot of the domain ("sam.student@" /
 * "example.edu"), never in the middle of a word; one longer than the column still breaks (break-word).
 */
export function breakableEmail(email: string): ReactNode {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const domainParts = email.slice(at + 1).split('.');
  return (
    <>
      {email.slice(0, at + 1)}
      {domainParts.map((part, index) => (
        <Fragment key={index}>
          <wbr />
          {index > 0 ? '.' : ''}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function ViewPdf({ row }: { row: SubmissionTableRow }) {
  return (
    <PdfDialogButton
      url={row.file}
      title={`Submission of ${row.student.name}`}
      size="small"
      variant="text"
      aria-label={`View PDF of ${row.student.name}`}
    >
      View PDF
    </PdfDialogButton>
  );
}

function Versions({ row, assignmentId, questionId }: CellProps) {
  if (!row.versions || row.versions < 2) return null;
  return (
    <SubmissionVersionsButton
      assignmentId={assignmentId}
      questionId={questionId}
      submissionId={row._id}
      studentName={row.student.name}
      count={row.versions}
    />
  );
}

function Late({ row }: { row: SubmissionTableRow }) {
  return row.isLate ? (
    <Typography component="span" sx={{ color: 'warning.light', fontWeight: 500 }}>
      Yes
    </Typography>
  ) : (
    <Typography component="span">No</Typography>
  );
}

function Grade({ row, points }: { row: SubmissionTableRow; points: number }) {
  if (!isGraded(row) || row.grade === null) {
    return (
      <Typography component="span" sx={{ color: 'error.light', fontWeight: 500 }}>
        {NOT_GRADED}
      </Typography>
    );
  }
  return (
    <>
      <Typography component="span" sx={{ color: 'success.light', fontWeight: 500 }}>
        {formatPoints(row.grade)} / {formatPoints(points)}
      </Typography>
      {row.isGradeOnEarlierVersion ? (
        // The newest version is not graded yet: the grade shown is the one saved before it came in.
        <Typography variant="caption" color="warning.light" sx={{ display: 'block' }}>
          {earlierVersionText(row)}
        </Typography>
      ) : null}
    </>
  );
}

const TONE_COLOR = { info: 'info.light', progress: 'text.secondary', error: 'error.light', success: 'success.light' };

/**
 * Under the grade, for the instructor: where the AI stands on this answer, updated live while a
 * Grade All runs (the question page re-reads its rows while any is grading).
 */
function ReviewState({ row, points }: { row: SubmissionTableRow; points: number }) {
  const state = reviewStateOf(row, points);
  if (!state) return null;
  // The saved grade is already shown in green just above: 'Graded' names it, without repeating it.
  const detail = state.tone === 'success' ? undefined : state.detail;
  return (
    <Box sx={{ mt: 0.5, display: 'flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap' }}>
      {state.tone === 'progress' ? <CircularProgress size={12} aria-hidden /> : null}
      <Typography variant="body2" component="span" sx={{ color: TONE_COLOR[state.tone], fontWeight: 500 }}>
        {state.label}
      </Typography>
      {detail ? (
        <Typography variant="caption" component="span" color="text.secondary">
          {detail}
        </Typography>
      ) : null}
    </Box>
  );
}

/** 'grade on an earlier version (version 1)' */
export function earlierVersionText(row: Pick<SubmissionTableRow, 'gradedVersion'>): string {
  return row.gradedVersion ? `${EARLIER_VERSION_LABEL} (version ${row.gradedVersion})` : EARLIER_VERSION_LABEL;
}

function Actions({ row, assignmentId, questionId, questionPoints, renderExtraActions }: CellProps) {
  const graded = isGraded(row) && row.grade !== null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      {graded ? (
        <>
          <Button
            component={RouterLink}
            to={gradePagePath(assignmentId, questionId, row._id, { regrade: true })}
            size="small"
            variant="outlined"
            aria-label={`Regrade ${row.student.name}`}
          >
            Regrade
          </Button>
          <Typography variant="body2" color="text.secondary">
            Current: {formatPoints(row.grade ?? 0)} / {formatPoints(questionPoints)}
          </Typography>
        </>
      ) : (
        <Button
          component={RouterLink}
          to={gradePagePath(assignmentId, questionId, row._id)}
          size="small"
          variant="contained"
          aria-label={`Grade ${row.student.name}`}
        >
          Grade
        </Button>
      )}
      {graded ? <ReopenSubmissionButton assignmentId={assignmentId} questionId={questionId} row={row} /> : null}
      {renderExtraActions?.(row)}
    </Stack>
  );
}

function Report({ row, assignmentId, questionId }: CellProps) {
  if (!isGraded(row)) {
    return (
      <Typography component="span" color="text.secondary">
        <span aria-hidden>—</span>
        <Box component="span" sx={visuallyHidden}>
          No report yet
        </Box>
      </Typography>
    );
  }
  return (
    <Button
      component={RouterLink}
      to={gradingReportPath(assignmentId, questionId, row._id)}
      size="small"
      aria-label={`View Report of ${row.student.name}`}
    >
      View Report
    </Button>
  );
}
