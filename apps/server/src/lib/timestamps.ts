/** A timestamp aggregate (max(created_at)) as a Date: some drivers answer aggregates as strings. */
export function toDate(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value);
}

/** A moment as people read it in a message, unambiguous across time zones: "2026-11-23 06:58:12 UTC". */
export function describeMoment(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
