/**
 * Mean and standard error over independent draws (each draw of saved grades is one sample): what a
 * statistical test compares an offset with, "within three standard errors of zero".
 */
export function meanAndError(values: readonly number[]): { mean: number; error: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, error: Math.sqrt(variance / values.length) };
}
