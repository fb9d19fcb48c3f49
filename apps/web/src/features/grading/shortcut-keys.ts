/*
 * The grading screen's keyboard shortcuts and how a key press is read, without any component: the
 * grading route reads U with them between two answers of the queue (undo-after-save.ts), and the
 * route's module must not bring the help popover's MUI files (decision 0105).
 */

export type ShortcutCommand =
  | 'nextComment'
  | 'previousComment'
  | 'accept'
  | 'decline'
  | 'edit'
  | 'addComment'
  | 'saveGrade'
  | 'undoSave'
  | 'nextSubmission'
  | 'previousSubmission'
  | 'help';

interface Shortcut {
  command: ShortcutCommand;
  keys: string[];
  /** What the help popover shows for the keys. */
  label: string;
  description: string;
  /** Only in the review queue. */
  queueOnly?: boolean;
}

/** The grading screen's shortcuts. Single keys work outside text fields; a field keeps its typing. */
export const SHORTCUTS: readonly Shortcut[] = [
  { command: 'nextComment', keys: ['j', 'ArrowDown'], label: 'J or ↓', description: 'Next comment' },
  { command: 'previousComment', keys: ['k', 'ArrowUp'], label: 'K or ↑', description: 'Previous comment' },
  { command: 'accept', keys: ['a'], label: 'A', description: 'Accept the current comment' },
  { command: 'decline', keys: ['d'], label: 'D', description: 'Decline the current comment' },
  { command: 'edit', keys: ['e'], label: 'E', description: 'Edit the current comment' },
  { command: 'addComment', keys: ['c'], label: 'C', description: 'Add a comment' },
  { command: 'saveGrade', keys: ['s'], label: 'S', description: 'Save grade' },
  { command: 'undoSave', keys: ['u'], label: 'U', description: 'Undo the grade just saved (while its message shows)' },
  {
    command: 'nextSubmission',
    keys: [']'],
    label: ']',
    description: 'Next submission in the review queue',
    queueOnly: true,
  },
  {
    command: 'previousSubmission',
    keys: ['['],
    label: '[',
    description: 'Previous submission in the review queue',
    queueOnly: true,
  },
  { command: 'help', keys: ['?'], label: '?', description: 'Show these shortcuts' },
];

/** Which command a key press means, or null (typing in a field, a modifier held, an unknown key). */
export function commandForKey(
  event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; target: EventTarget | null },
  inQueue: boolean,
): ShortcutCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target as HTMLElement | null;
  if (target?.closest?.('input, textarea, select, [contenteditable="true"], [role="textbox"]')) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const shortcut = SHORTCUTS.find((item) => item.keys.includes(key) && (inQueue || !item.queueOnly));
  if (!shortcut) return null;
  // Arrow keys move between comments only from a comment, so they still scroll the page elsewhere.
  if ((key === 'ArrowDown' || key === 'ArrowUp') && !target?.closest?.('[data-comment-card]')) return null;
  return shortcut.command;
}
