/**
 * Shortens text to at most `max` UTF-16 code units (what zod's `.max()` counts), ending with "…"
 * when something was cut, and never splitting a surrogate pair. For text the product did not write
 * itself — AI replies above all — so that what is shown can always be saved again under the
 * limits of the contracts (contracts/grading.ts), which use the same constants.
 */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const marker = '…';
  let end = Math.max(0, max - marker.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}${marker}`;
}
