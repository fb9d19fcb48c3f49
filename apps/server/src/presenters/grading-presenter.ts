import {
  DEFAULT_CONFIDENCE,
  type AutoRubric,
  type GraderInfo,
  type GradeLifecycleFields,
  type GradingComment,
  type GradingOutput,
  type GradingProgressOutput,
  type HiddenTextFinding,
  type ReviewStatus,
  type RubricItem,
  type SavedGrade,
  type SubmissionGradingFields,
} from '@gradewise/shared/contracts/grading';
import type { FileExtractionListRow, FileExtractionRow } from '../models/file-extractions.ts';
import { presentExtractionState } from './submission-presenter.ts';
import type { CountingGrade, GradeRow, GradeStanding } from '../models/grades.ts';
import type {
  GradingRunListRow,
  GradingRunRow,
  GradingRunStanding,
  GradingRunSummary,
  StoredComment,
} from '../models/grading-runs.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { GradingAnswer } from '../services/grade-submission.ts';

/**
 * Grading rows -> contract outputs, staff only (the student side gets its own narrow fields from
 * presentSubmissionGradeForStudent). The spec's default confidence is 50 when none is known.
 */

export function presentAutoRubric(rubric: RubricRow | undefined): AutoRubric {
  if (!rubric) return [];
  return [
    {
      questionText: rubric.questionText,
      solutionText: rubric.solutionText,
      items: rubric.items,
      source: rubric.source,
      updatedAt: rubric.updatedAt.toISOString(),
      version: rubric.version,
    },
  ];
}

export function presentGrader(
  run: Pick<GradingRunRow, 'graderKind' | 'provider' | 'model'> | undefined,
): GraderInfo | null {
  return run ? { kind: run.graderKind, provider: run.provider, model: run.model } : null;
}

export function presentComments(
  comments: readonly StoredComment[],
  rubricItems: readonly RubricItem[],
): GradingComment[] {
  const itemsById = new Map(rubricItems.map((item) => [item.id, item]));
  return comments.map((comment) => {
    const item = comment.rubricItemId ? itemsById.get(comment.rubricItemId) : undefined;
    return {
      _id: comment.id,
      id: comment.id,
      text: comment.text,
      pointsDeducted: comment.pointsDeducted,
      accepted: comment.accepted,
      rubricItemId: comment.rubricItemId,
      rubricItem: item ? { id: item.id, criterion: item.criterion, points: item.points } : null,
      region: comment.region ?? null,
    };
  });
}

export function presentHiddenText(extraction: FileExtractionListRow | undefined): HiddenTextFinding[] {
  return extraction?.hiddenText ?? [];
}

/** The pages whose text OCR read (scanned, no text layer), so the screen can say so. */
export function presentOcrPages(extraction: Pick<FileExtractionRow, 'pages'> | undefined): number[] {
  return (extraction?.pages ?? []).filter((page) => page.method === 'ocr').map((page) => page.page);
}

/**
 * The grade and regrade calls' answer: a saved grade (with the rubric version it was written under
 * and the rubric change that wrote it), else the AI run, with the saved grade current now.
 */
export function presentGradingAnswer(answer: GradingAnswer): GradingOutput {
  const ocrPages = presentOcrPages(answer.extraction);
  if (answer.kind === 'run') return { ...presentRunResult(answer), ocrPages, currentGradeId: answer.currentGradeId };
  const { grade } = answer;
  return {
    ...presentSavedGradeResult(answer),
    ocrPages,
    currentGradeId: grade.id,
    rubricVersion: grade.rubricVersion,
    rubricChange:
      grade.reason === 'rubric-change'
        ? {
            version: grade.rubricVersion,
            at: grade.createdAt.toISOString(),
            by: answer.rubricEditor?.name ?? 'Someone',
          }
        : null,
  };
}

/** A finished AI run as the grade/regrade calls answer it. */
function presentRunResult(input: {
  run: GradingRunRow;
  points: number;
  rubric: RubricRow | undefined;
  extraction: FileExtractionRow | undefined;
}): GradingOutput {
  const { run } = input;
  return {
    submissionText: input.extraction?.text ?? '',
    gradingResult: {
      comments: presentComments(run.comments ?? [], input.rubric?.items ?? []),
      totalScore: run.totalScore ?? 0,
    },
    questionPoints: input.points,
    confidenceLevel: run.confidence ?? DEFAULT_CONFIDENCE,
    grader: presentGrader(run),
    hiddenText: presentHiddenText(input.extraction),
    gradingRunId: run.id,
    isAlreadyGraded: false,
    examplesUsed: run.examplesUsed,
  };
}

/** The instructor's saved grade as the grade call answers it for an already graded submission. */
function presentSavedGradeResult(input: {
  grade: GradeRow;
  run: GradingRunListRow | undefined;
  points: number;
  rubric: RubricRow | undefined;
  extraction: FileExtractionListRow | undefined;
}): GradingOutput {
  return {
    submissionText: input.extraction?.text ?? '',
    gradingResult: {
      comments: presentComments(input.grade.comments, input.rubric?.items ?? []),
      totalScore: input.grade.grade,
    },
    questionPoints: input.points,
    confidenceLevel: input.grade.confidence ?? DEFAULT_CONFIDENCE,
    grader: presentGrader(input.run),
    hiddenText: presentHiddenText(input.extraction),
    gradingRunId: input.grade.gradingRunId,
    isAlreadyGraded: true,
    ...(input.run ? { examplesUsed: input.run.examplesUsed } : {}),
  };
}

export function presentSavedGrade(
  grade: GradeRow,
  savedBy: { id: string; name: string },
  rubric: RubricRow | undefined,
): SavedGrade {
  return {
    _id: grade.id,
    id: grade.id,
    submissionId: grade.submissionId,
    grade: grade.grade,
    feedback: grade.feedback,
    comments: presentComments(grade.comments, rubric?.items ?? []),
    confidenceLevel: grade.confidence,
    gradingRunId: grade.gradingRunId,
    savedBy: { _id: savedBy.id, name: savedBy.name },
    createdAt: grade.createdAt.toISOString(),
  };
}

/** The grading fields of a row of the staff table. */
type TableRowGradingFields = Omit<SubmissionGradingFields, 'comments' | 'extractedText' | 'hiddenText'>;

/**
 * What a staff row's grading fields are made from, as a row of the staff table reads it
 * (services/read-staff-rows.ts, decision 0057); a row in full reads more of the same rows.
 */
interface TableRowGradingInput {
  /** The grade that counts for the row (its own, else an earlier version's) and the run it started from. */
  counting: (CountingGrade<GradeStanding> & { gradeRun: GradingRunStanding | undefined }) | undefined;
  latestRun: GradingRunStanding | undefined;
  latestSucceededRun: GradingRunStanding | undefined;
  extraction: Pick<FileExtractionRow, 'status' | 'error'> | undefined;
  /** Text a reader cannot see was kept out of grading. */
  hasHiddenText: boolean;
}

/**
 * A staff row's grading fields as the staff table shows them (decision 0057): the saved grade when
 * there is one, else the newest finished AI suggestion's confidence and grader; the status of the
 * newest run. No text, comments or findings.
 */
export function presentTableRowGrading(input: TableRowGradingInput): TableRowGradingFields {
  const { counting, latestSucceededRun } = input;
  const grade = counting?.grade;
  const source = grade ? (counting.gradeRun ?? latestSucceededRun) : latestSucceededRun;
  return {
    grade: grade ? grade.grade : null,
    isAlreadyGraded: Boolean(grade),
    confidenceLevel: grade ? grade.confidence : (latestSucceededRun?.confidence ?? null),
    grader: presentGrader(source),
    gradingStatus: input.latestRun?.status ?? 'none',
    reviewStatus: reviewStatusOf({
      // A grade saved on an earlier version counts, but this version is not reviewed yet.
      grade: counting?.isEarlierVersion ? undefined : grade,
      latestRun: input.latestRun,
      latestSucceededRun,
    }),
    suggestedScore: latestSucceededRun?.totalScore ?? null,
    hasHiddenText: input.hasHiddenText,
    ...presentExtractionState(input.extraction),
  };
}

/** A staff row's grading fields in full: the table's, with the answer's text, comments and hidden-text findings. */
export function presentSubmissionGrading(
  input: Omit<TableRowGradingInput, 'counting' | 'latestSucceededRun' | 'extraction' | 'hasHiddenText'> & {
    counting: (CountingGrade & { gradeRun: GradingRunSummary | undefined }) | undefined;
    latestSucceededRun: GradingRunSummary | undefined;
    extraction: FileExtractionListRow | undefined;
  },
  rubricItems: readonly RubricItem[],
): SubmissionGradingFields {
  const grade = input.counting?.grade;
  const hiddenText = presentHiddenText(input.extraction);
  return {
    ...presentTableRowGrading({ ...input, hasHiddenText: hiddenText.length > 0 }),
    comments: grade
      ? presentComments(grade.comments, rubricItems)
      : presentComments(input.latestSucceededRun?.comments ?? [], rubricItems),
    extractedText: input.extraction?.text ?? '',
    hiddenText,
  };
}

/** Which version the counting grade was saved on, for a row that shows it. */
export function presentGradeLifecycle(
  counting: CountingGrade<GradeStanding> | undefined,
): Required<GradeLifecycleFields> {
  return {
    isGradeOnEarlierVersion: counting?.isEarlierVersion ?? false,
    gradedVersion: counting?.gradedVersion ?? null,
  };
}

/**
 * Where a latest version stands for the reviewer: one rule for the review queue, the answer groups
 * and the submissions table. `grade` is a grade saved on this very version.
 */
export function reviewStatusOf({
  grade,
  latestRun,
  latestSucceededRun,
}: {
  grade: GradeStanding | undefined;
  latestRun: Pick<GradingRunSummary, 'status'> | undefined;
  latestSucceededRun: GradingRunStanding | undefined;
}): ReviewStatus {
  if (grade) return 'graded';
  if (latestRun && (latestRun.status === 'queued' || latestRun.status === 'running')) return 'grading';
  if (latestSucceededRun) return 'needs-review';
  if (latestRun?.status === 'failed') return 'failed';
  return 'not-graded';
}

export function presentProgress(
  batchId: string | null,
  total: number,
  counts: { succeeded: number; failed: number; running: number; queued: number },
): GradingProgressOutput {
  const remaining = counts.queued + counts.running;
  return {
    batchId,
    total,
    done: counts.succeeded,
    failed: counts.failed,
    running: counts.running,
    remaining,
    isFinished: remaining === 0,
  };
}
