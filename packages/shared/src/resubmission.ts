/**
 * The life of a graded answer, shared by the server (which enforces it) and the web (which explains
 * it). A saved grade belongs to the version it graded. Once a grade is saved on any version of a
 * student's answer to a question, a new version is refused unless
 * - the assignment allows resubmission (the earlier grade keeps counting until the new version is
 *   graded), or
 * - the instructor reopened the question for that student after the newest saved grade (saving a
 *   grade again closes it).
 */
export interface ResubmissionFacts {
  allowsResubmission: boolean;
  /** When the newest grade on any version of this answer was saved; null when none was. */
  newestGradeAt: Date | null;
  /** When the instructor last reopened the question for this student; null when never. */
  newestReopeningAt: Date | null;
}

export function canResubmit(facts: ResubmissionFacts): boolean {
  if (facts.newestGradeAt === null || facts.allowsResubmission) return true;
  return facts.newestReopeningAt !== null && facts.newestReopeningAt.getTime() > facts.newestGradeAt.getTime();
}

/** Whether the instructor's reopening is still in force (reopened, and no grade saved since). */
export function isReopened(facts: Omit<ResubmissionFacts, 'allowsResubmission'>): boolean {
  return (
    facts.newestGradeAt !== null &&
    facts.newestReopeningAt !== null &&
    facts.newestReopeningAt.getTime() > facts.newestGradeAt.getTime()
  );
}

export const RESUBMISSION_REFUSED_MESSAGE =
  'Your answer to this question has been graded, so a new version cannot be submitted. ' +
  'If you need to resubmit, ask your instructor to reopen the question for you.';

/** What the staff table and reports say next to a grade saved on an earlier version. */
export const EARLIER_VERSION_LABEL = 'grade on an earlier version';
