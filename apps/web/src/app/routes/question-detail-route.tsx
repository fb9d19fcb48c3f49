import { useId } from 'react';
import { isLeftForGradeAll, type SubmissionGradingFields } from '@gradewise/shared/contracts/grading';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Box, Button, Container, Typography } from '@mui/material';
import BarChartIcon from '@mui/icons-material/BarChart';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { QUESTION_MESSAGES, useQuestion } from '../../features/questions/api/questions-api.ts';
import { hasAutoRubric, QuestionOverview } from '../../features/questions/components/question-overview.tsx';
import { SubmissionsTable } from '../../features/submissions/components/submissions-table.tsx';
import { SubmitAnswerForm } from '../../features/submissions/components/submit-answer-form.tsx';
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
  const question = useQuestion(assignmentId, questionId);
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
          hasSubmitted={submissions.length > 0}
          canResubmit={detail.viewer === 'student' ? (detail.submissions?.[0]?.canResubmit ?? true) : true}
        />
      )}
      {canManage ? (
        <GradeAllPanel
          assignmentId={assignmentId}
          questionId={questionId}
          leftToGrade={detail.viewer === 'staff' ? leftForGradeAll(detail.submissions ?? []) : 0}
          submissionCount={submissions.length}
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
          <AiQuotaReadout assignmentId={assignmentId} questionId={questionId} />
          <SuggestionsPanel assignmentId={assignmentId} questionId={questionId} />
          <AnswerGroupsPanel assignmentId={assignmentId} questionId={questionId} />
          {canManage ? <UploadOnBehalfForm assignmentId={assignmentId} questionId={questionId} /> : null}
        </Box>
      ) : null}
    </Container>
  );
}

/** How many answers Grade All would ask the AI about now (the rule lives with the contract). */
function leftForGradeAll(rows: readonly Pick<SubmissionGradingFields, 'reviewStatus'>[]): number {
  return rows.filter((row) => isLeftForGradeAll(row.reviewStatus)).length;
}
