import { useId, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Box, Button, Container, Typography } from '@mui/material';
import BarChartIcon from '@mui/icons-material/BarChart';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import {
  DEFAULT_SUBMISSIONS_PAGE_SIZE,
  QUESTION_MESSAGES,
  SUBMISSIONS_PAGE_SIZES,
  useQuestionPage,
} from '../../features/questions/api/questions-api.ts';
import { ExpectedAnswerSetting } from '../../features/questions/components/expected-answer-setting.tsx';
import { hasAutoRubric, QuestionOverview } from '../../features/questions/components/question-overview.tsx';
import { SubmissionsTable } from '../../features/submissions/components/submissions-table.tsx';
import { SubmitAnswerForm } from '../../features/submissions/components/submit-answer-form.tsx';
import { submissionsSummaryOf } from '../../features/submissions/submissions-summary.ts';
import { UploadOnBehalfForm } from '../../features/submissions/components/upload-on-behalf-form.tsx';
import { AiQuotaReadout } from '../../features/grading/components/ai-quota-readout.tsx';
import { AnswerGroupsPanel } from '../../features/grading/components/answer-groups-panel.tsx';
import { GradeAllPanel } from '../../features/grading/components/grade-all-panel.tsx';
import { SuggestionsPanel } from '../../features/grading/components/suggestions-panel.tsx';
import { useSubmissionGroupBadges } from '../../features/grading/components/submission-group-badges.tsx';
import { ReviewSharePanel } from '../../features/grading/components/review-share-panel.tsx';
import { GradingWorkBadges } from '../../features/staff/components/grading-work-badges.tsx';
import { GradesCsvButton } from '../../features/reports/components/grades-csv-button.tsx';
import { GradeReleaseControl } from '../../features/regrades/components/grade-release-control.tsx';
import { RubricActions } from '../../features/rubrics/components/rubric-actions.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useSession } from '../../lib/session.tsx';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { questionListPath, statisticsPath } from '../../lib/paths.ts';

/**
 * Question detail (spec section 2). Everyone: title, points, View Question PDF, the submissions
 * they may see (a student only their own latest). The course's instructor: View Solution PDF,
 * View Rubric Wizard (when an AI rubric exists), Upload on Behalf of a Student, and the Actions
 * column (Grade / Regrade) and Grading Report column of the table. A student: Submit Your Answer.
 *
 * Grading screens plug in here:
 * - `instructorActions` of <QuestionOverview>: 'Generate Rubric' belongs there, shown when
 *   `!hasAutoRubric(question)` (see features/questions/components/question-overview.tsx);
 * - `renderExtraActions` of <SubmissionsTable>: more per-row instructor actions;
 * - `renderStudentExtra` of <SubmissionsTable>: the answer-group badges under each student, and
 *   whose share the answer is and who has it open (decision 0031).
 */
export function QuestionDetailRoute() {
  const { assignmentId = '', questionId = '' } = useParams();
  const submissionsHeadingId = useId();
  // The table shows one page of the submissions (decision 0042): a class of hundreds is read a page at a time.
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(DEFAULT_SUBMISSIONS_PAGE_SIZE);
  const question = useQuestionPage(assignmentId, questionId, { offset: page * rowsPerPage, limit: rowsPerPage });
  const isStaffView = question.data?.viewer === 'staff';
  const renderGroupBadges = useSubmissionGroupBadges(assignmentId, questionId, isStaffView);
  const viewerId = useSession().user?._id ?? null;
  useDocumentTitle(question.data?.title ?? 'Question Details');
  useErrorToast(question.error, QUESTION_MESSAGES.fetchFailed);

  if (question.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <LoadingMessage text="Loading question…" />
      </Container>
    );
  }
  if (question.isError) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Question Details
        </Typography>
        <LoadFailedMessage
          error={question.error}
          notFoundText={QUESTION_MESSAGES.notFound}
          failedText={QUESTION_MESSAGES.fetchFailed}
          onRetry={() => void question.refetch()}
        />
        <Button component={RouterLink} to={questionListPath(assignmentId)}>
          Back to Questions
        </Button>
      </Container>
    );
  }

  const detail = question.data;
  const isStaff = detail.viewer === 'staff';
  // A TA grades but does not manage: no rubric editing, grade all, grades CSV or uploads (decision 0021).
  const canManage = detail.viewer === 'staff' && detail.staffRole !== 'ta';
  const submissions = detail.submissions ?? [];
  const summary = submissionsSummaryOf(detail);
  // Fewer submissions than before (a page emptied from under us): show the last page there is.
  const lastPage = Math.max(0, Math.ceil(summary.total / rowsPerPage) - 1);
  if (page > lastPage) setPage(lastPage);
  const workOf = new Map(detail.viewer === 'staff' ? (detail.submissions ?? []).map((row) => [row._id, row]) : []);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <QuestionOverview
        question={detail}
        instructorActions={
          canManage ? (
            <RubricActions assignmentId={assignmentId} questionId={questionId} hasRubric={hasAutoRubric(detail)} />
          ) : null
        }
      />
      {/* Staff see Grade with AI and the submissions first; the rarely used upload on behalf of a
          student, and the panels that refine grading, come after the table (issue 13 item 3). */}
      {isStaff ? null : (
        <SubmitAnswerForm
          assignmentId={assignmentId}
          questionId={questionId}
          hasSubmitted={summary.total > 0}
          canResubmit={detail.viewer === 'student' ? (detail.submissions?.[0]?.canResubmit ?? true) : true}
        />
      )}
      {canManage ? (
        <GradeAllPanel
          assignmentId={assignmentId}
          questionId={questionId}
          leftToGrade={summary.leftForGradeAll}
          submissionCount={summary.total}
          extraActions={
            <>
              <GradesCsvButton
                assignmentId={assignmentId}
                questionId={questionId}
                name={`${detail.assignment.title} ${detail.title ?? 'question'}`}
              />
              <GradesCsvButton assignmentId={assignmentId} name={detail.assignment.title} />
              <Button
                component={RouterLink}
                to={statisticsPath(assignmentId, questionId)}
                variant="outlined"
                startIcon={<BarChartIcon />}
              >
                Statistics
              </Button>
            </>
          }
        />
      ) : null}
      {isStaff ? (
        <ReviewSharePanel assignmentId={assignmentId} questionId={questionId} showReview={!canManage} />
      ) : null}
      <Box component="section" aria-labelledby={submissionsHeadingId}>
        <Typography id={submissionsHeadingId} variant="h5" component="h2" sx={{ mb: 2 }}>
          {isStaff ? 'Submissions' : 'Your Submission'}
        </Typography>
        <SubmissionsTable
          assignmentId={assignmentId}
          questionId={questionId}
          questionPoints={detail.points}
          rows={submissions}
          isStaff={isStaff}
          paging={{
            total: summary.total,
            anyGraded: summary.anyGraded,
            page,
            rowsPerPage,
            rowsPerPageOptions: SUBMISSIONS_PAGE_SIZES,
            onPageChange: setPage,
            onRowsPerPageChange: (size) => {
              setRowsPerPage(size);
              setPage(0);
            },
            isLoading: question.isPlaceholderData,
          }}
          renderStudentExtra={
            isStaff
              ? (row) => (
                  <>
                    {renderGroupBadges(row._id)}
                    <GradingWorkBadges work={workOf.get(row._id) ?? {}} viewerId={viewerId} />
                  </>
                )
              : undefined
          }
        />
      </Box>
      {isStaff ? (
        <Box sx={{ mt: 4 }}>
          {/* Holding and releasing grades is the owner's ("may manage"); a TA does not get the control. */}
          {detail.viewer === 'staff' && detail.staffRole !== 'ta' && detail.gradeRelease ? (
            <GradeReleaseControl
              assignmentId={assignmentId}
              questionId={questionId}
              isHeld={detail.gradeRelease.question.isHeld}
              releasedAt={detail.gradeRelease.question.releasedAt}
              isHeldByAssignment={detail.gradeRelease.assignment.isHeld}
            />
          ) : null}
          {/* What the AI's comments may say of the expected answer: the owner's switch, read by a TA (decision 0088). */}
          {detail.viewer === 'staff' ? (
            <ExpectedAnswerSetting
              assignmentId={assignmentId}
              questionId={questionId}
              isOn={detail.showExpectedAnswer ?? false}
              canChange={canManage}
            />
          ) : null}
          <AiQuotaReadout assignmentId={assignmentId} questionId={questionId} />
          <SuggestionsPanel assignmentId={assignmentId} questionId={questionId} />
          <AnswerGroupsPanel assignmentId={assignmentId} questionId={questionId} />
          {canManage ? <UploadOnBehalfForm assignmentId={assignmentId} questionId={questionId} /> : null}
        </Box>
      ) : null}
    </Container>
  );
}
