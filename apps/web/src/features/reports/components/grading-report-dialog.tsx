import { useId } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  IconButton,
  Paper,
  Stack,
  Toolbar,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import LocationSearchingIcon from '@mui/icons-material/LocationSearching';
import type { GradingComment } from '@gradewise/shared/contracts/grading';
import type { GradingReport } from '@gradewise/shared/contracts/review';
import { EARLIER_VERSION_LABEL } from '@gradewise/shared/resubmission';
import { LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { SubmissionViewer } from '../../../components/submission-viewer.tsx';
import { describeRegion } from '../../../components/comment-regions/region-geometry.ts';
import { RegionNumber, RegionOverlay } from '../../../components/comment-regions/region-overlay.tsx';
import { isNotFound, messageOf } from '../../../lib/api-client.ts';
import { questionPagePath } from '../../../lib/paths.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { REPORT_MESSAGES, useGradingReport } from '../api/reports-api.ts';
import { RegradeRequestPanel } from './regrade-request-panel.tsx';
import { useReportRegions, type ReportRegions } from './use-report-regions.ts';
import { formatPoints } from '@gradewise/shared/points';

export const REPORT_DIALOG_TITLE = 'Grading Report';

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface GradingReportDialogProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

/**
 * The grading report (spec section 2): a full-screen dialog with the answer (Original PDF by
 * default, or Converted Text) and the comments of the saved grade, each with 'Points Deducted:'
 * tinted red when it takes points and green when it does not, then the final grade. A student
 * gets only the accepted comments from the server; the instructor also sees the declined ones,
 * set apart, since those are what the student does not see.
 */
export function GradingReportDialog({ assignmentId, questionId, submissionId }: GradingReportDialogProps) {
  const { goBack } = useGoBack(questionPagePath(assignmentId, questionId));
  const report = useGradingReport(assignmentId, questionId, submissionId);
  useErrorToast(report.error, isNotFound(report.error) ? REPORT_MESSAGES.notFound : REPORT_MESSAGES.fetchFailed);
  const titleId = useId();

  return (
    <Dialog fullScreen open onClose={goBack} aria-labelledby={titleId}>
      <Toolbar sx={{ gap: 1, flexShrink: 0, borderBottom: 1, borderColor: 'divider', py: 1 }}>
        <IconButton edge="start" color="inherit" aria-label="Close report" onClick={goBack}>
          <CloseIcon />
        </IconButton>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={titleId} variant="h6" component="h1">
            {REPORT_DIALOG_TITLE}
          </Typography>
          {report.data ? (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {report.data.submission.student.name} · {report.data.question.title ?? 'Question'}
            </Typography>
          ) : null}
        </Box>
      </Toolbar>
      <DialogContent sx={{ px: { xs: 1.5, sm: 3 } }}>
        {report.isPending ? <LoadingMessage text={REPORT_MESSAGES.loading} /> : null}
        {report.isError ? (
          <LoadFailedMessage
            error={report.error}
            notFoundText={messageOf(report.error, REPORT_MESSAGES.notFound)}
            failedText={REPORT_MESSAGES.fetchFailed}
            onRetry={() => void report.refetch()}
          />
        ) : null}
        {report.data ? <ReportBody report={report.data} assignmentId={assignmentId} /> : null}
      </DialogContent>
      <DialogActions sx={{ borderTop: 1, borderColor: 'divider', px: { xs: 1.5, sm: 3 } }}>
        <Button variant="contained" onClick={goBack}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The note a student sees on a released grade that started from an AI suggestion (issue 12 item 5). */
export const AI_USE_NOTE = 'Suggested with AI, reviewed by your instructor.';
export const GRADE_WITHHELD_TEXT =
  'Your answer has been graded, but the grade is not released yet. Your instructor will release it.';

function ReportBody({ report, assignmentId }: { report: GradingReport; assignmentId: string }) {
  const accepted = report.comments.filter((comment) => comment.accepted);
  const declined = report.viewer === 'staff' ? report.comments.filter((comment) => !comment.accepted) : [];
  const points = report.question.points;
  const regions = useReportRegions(accepted);
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 7fr) minmax(0, 5fr)' },
        gap: 3,
        alignItems: 'start',
      }}
    >
      {/* The grade and comments come first: on a phone above the PDF (they were below the whole
          answer), at a desk in the right-hand column beside it. */}
      <Box
        component="section"
        aria-labelledby="report-comments-heading"
        sx={{ minWidth: 0, gridColumn: { md: 2 }, gridRow: { md: 1 } }}
      >
        <Typography id="report-comments-heading" variant="h6" component="h2" gutterBottom>
          Review Comments
        </Typography>
        {report.viewer === 'student' && report.gradeWithheld ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            <strong>Not released yet.</strong> {GRADE_WITHHELD_TEXT}
          </Alert>
        ) : !report.isAlreadyGraded ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            This submission has not been graded yet.
          </Alert>
        ) : null}
        {report.viewer === 'student' && report.isAlreadyGraded && report.isAiAssisted ? (
          <Alert severity="success" icon={false} sx={{ mb: 2 }}>
            {AI_USE_NOTE}
          </Alert>
        ) : null}
        {report.isAlreadyGraded && report.isGradeOnEarlierVersion ? (
          // A newer version came in after the grade was saved: the grade and comments are the earlier
          // version's, and count until this version is graded.
          <Alert severity="info" sx={{ mb: 2 }}>
            {capitalise(EARLIER_VERSION_LABEL)}
            {report.gradedVersion ? ` (version ${report.gradedVersion})` : ''}: the grade and comments below were saved
            before this version was submitted, and count until it is graded.
          </Alert>
        ) : null}
        {accepted.length === 0 ? (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            No comments yet.
          </Typography>
        ) : (
          <CommentList comments={accepted} label="Review comments" regions={regions} />
        )}
        {declined.length > 0 ? (
          <Box component="details" sx={{ mb: 2 }}>
            <Box component="summary" sx={{ cursor: 'pointer', color: 'text.secondary', mb: 1 }}>
              Declined comments ({declined.length}): not counted, not shown to the student
            </Box>
            <CommentList comments={declined} label="Declined comments" isDeclined />
          </Box>
        ) : null}
        <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}>
          <Typography variant="h6" component="p">
            Final Grade: {report.grade === null ? '—' : formatPoints(report.grade)} / {formatPoints(points)}
          </Typography>
          {report.viewer === 'staff' && report.confidenceLevel !== null ? (
            <Typography color="text.secondary">Confidence: {report.confidenceLevel}%</Typography>
          ) : null}
        </Box>
        {report.viewer === 'student' &&
        report.regrade &&
        (report.isAlreadyGraded || report.regrade.requests.length > 0) ? (
          <RegradeRequestPanel report={{ ...report, regrade: report.regrade }} assignmentId={assignmentId} />
        ) : null}
      </Box>
      <Box sx={{ minWidth: 0, gridColumn: { md: 1 }, gridRow: { md: 1 } }}>
        <SubmissionViewer
          fileUrl={report.submission.file}
          text={report.extractedText}
          title={`Answer of ${report.submission.student.name}`}
          view={regions.view}
          onViewChange={regions.setView}
          pdf={{
            pageNumber: regions.page,
            onPageNumberChange: regions.setPage,
            renderPageOverlay: (page) => (
              <RegionOverlay
                page={page}
                marks={regions.marks}
                highlightedKey={regions.highlightedId}
                scrollTarget={regions.scrollTarget}
                onSelect={regions.select}
              />
            ),
          }}
        />
      </Box>
    </Box>
  );
}

/**
 * The report's comments. With `regions` (the comments the student is shown) each is numbered as
 * its box on the PDF is, and one with a box offers Show on page; declined ones get neither.
 */
function CommentList({
  comments,
  label,
  isDeclined = false,
  regions,
}: {
  comments: GradingComment[];
  label: string;
  isDeclined?: boolean;
  regions?: ReportRegions;
}) {
  return (
    <Stack component="ul" spacing={1.5} aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
      {comments.map((comment, index) => {
        const takesPoints = comment.pointsDeducted > 0;
        const isHighlighted = regions?.highlightedId === comment._id;
        return (
          <Paper
            key={comment._id}
            component="li"
            variant="outlined"
            tabIndex={regions ? -1 : undefined}
            ref={(element: HTMLLIElement | null) => regions?.registerItem(comment._id, element)}
            aria-label={regions ? `Comment ${index + 1} of ${comments.length}` : undefined}
            onMouseEnter={comment.region ? () => regions?.hover(comment._id) : undefined}
            onMouseLeave={comment.region ? () => regions?.hover(null) : undefined}
            sx={{
              outline: isHighlighted ? '2px solid' : 'none',
              outlineColor: 'primary.main',
              outlineOffset: 2,
              p: 1.5,
              borderLeftWidth: 4,
              borderLeftColor: isDeclined ? 'text.disabled' : takesPoints ? 'error.main' : 'success.main',
              bgcolor: isDeclined
                ? 'transparent'
                : takesPoints
                  ? 'rgba(244, 67, 54, 0.08)'
                  : 'rgba(102, 187, 106, 0.08)',
            }}
          >
            {isDeclined ? <Chip size="small" label="Declined" variant="outlined" sx={{ mb: 1 }} /> : null}
            {regions ? (
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
                <RegionNumber number={index + 1} placement="inline" isHighlighted={isHighlighted} />
                {comment.region ? (
                  <Button
                    size="small"
                    startIcon={<LocationSearchingIcon />}
                    onClick={() => regions.show(comment._id)}
                    aria-label={`Show comment ${index + 1} on the PDF: ${describeRegion(comment.region)}`}
                  >
                    Show on page {comment.region.page}
                  </Button>
                ) : null}
              </Stack>
            ) : null}
            {comment.rubricItem ? (
              <Typography variant="caption" color="text.secondary" component="p">
                Rubric: {comment.rubricItem.criterion}
              </Typography>
            ) : null}
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {comment.text || '(no text)'}
            </Typography>
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              Points Deducted:{' '}
              <Box component="span" sx={{ fontWeight: 700, color: takesPoints ? 'error.light' : 'success.light' }}>
                {formatPoints(comment.pointsDeducted)}
              </Box>
            </Typography>
          </Paper>
        );
      })}
    </Stack>
  );
}
