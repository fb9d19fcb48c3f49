/**
 * The one rule for a final grade, shared by the grading screen and the server:
 * question points minus the deductions of accepted comments, kept within 0..points.
 */
export interface DeductingComment {
  pointsDeducted: number;
  accepted: boolean;
}

export function computeFinalGrade(questionPoints: number, comments: readonly DeductingComment[]): number {
  const deducted = comments
    .filter((comment) => comment.accepted)
    .reduce((sum, comment) => sum + (Number.isFinite(comment.pointsDeducted) ? comment.pointsDeducted : 0), 0);
  const grade = questionPoints - deducted;
  return roundToHundredths(Math.min(questionPoints, Math.max(0, grade)));
}

/** Points typed by a person: decimal, anything non-numeric is 0 (spec section 5). */
export function parsePointsDeducted(raw: string | number): number {
  const value = typeof raw === 'number' ? raw : Number.parseFloat(String(raw).replace(',', '.'));
  return Number.isFinite(value) ? value : 0;
}

export function roundToHundredths(value: number): number {
  return Math.round(value * 100) / 100;
}
