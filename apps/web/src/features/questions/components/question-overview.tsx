import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Stack, Tooltip } from '@mui/material';
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import { PageHeader } from '../../../components/page-header.tsx';
import { PdfDialogButton } from '../../../components/pdf-dialog-button.tsx';
import type { QuestionPageData } from '../api/questions-api.ts';
import { questionListPath, rubricWizardPath } from '../../../lib/paths.ts';

export const QUESTION_DETAILS_FALLBACK_TITLE = 'Question Details';

export interface QuestionOverviewProps {
  question: QuestionPageData;
  /**
   * Extra instructor actions, shown after the PDF and rubric buttons, only to the course's
   * instructor. This is where the grading screens plug in 'Generate Rubric' (shown when the
   * question has no AI rubric: see `hasAutoRubric`).
   */
  instructorActions?: ReactNode;
}

export const hasAutoRubric = (question: QuestionPageData) =>
  question.viewer === 'staff' && question.autoRubric.length > 0;

/**
 * Top of the question page: title (or 'Question Details'), points, the assignment it belongs to,
 * View Question PDF for everyone; View Solution PDF (when there is one) and View Rubric Wizard
 * (when an AI rubric exists) for the instructor.
 */
export function QuestionOverview({ question, instructorActions }: QuestionOverviewProps) {
  const isStaff = question.viewer === 'staff';
  return (
    <>
      <PageHeader
        back={{
          to: questionListPath(question.assignment._id),
          label: `Questions for ${question.assignment.title}`,
        }}
        title={question.title ?? QUESTION_DETAILS_FALLBACK_TITLE}
        subtitle={`Points: ${question.points} · ${question.assignment.title} · ${question.course.title}`}
      />
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', mb: 4 }}
        aria-label="Question files and actions"
        role="group"
      >
        <PdfDialogButton url={question.questionFile} title="Question PDF" variant="contained">
          View Question PDF
        </PdfDialogButton>
        {question.viewer === 'staff' && question.solutionFile ? (
          <PdfDialogButton url={question.solutionFile} title="Solution PDF">
            View Solution PDF
          </PdfDialogButton>
        ) : null}
        {hasAutoRubric(question) ? (
          <Tooltip describeChild title="Draft the rubric step by step and try it on answers before saving">
            <Button
              component={RouterLink}
              to={rubricWizardPath(question.assignment._id, question._id)}
              variant="outlined"
              startIcon={<AutoFixHighIcon />}
            >
              View Rubric Wizard
            </Button>
          </Tooltip>
        ) : null}
        {isStaff ? instructorActions : null}
      </Stack>
    </>
  );
}
