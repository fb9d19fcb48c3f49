import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import { formatPoints } from '../format.ts';
import type { CommentCardProps } from './comment-card.tsx';

/** A comment's editor: its text and points, with Save / Cancel (Done / Cancel for a new one). */
export function CommentEditor({ comment, index, questionPoints, onChange, onSave, onCancel }: CommentCardProps) {
  const editor = comment.editor!;
  const number = index + 1;
  // The editor opens with the caret after the text, ready to continue it: before it is painted, also
  // when it mounts as its code arrives (a Suspense retry, whose effects may run after the paint).
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  useLayoutEffect(() => {
    const field = textRef.current;
    if (!field) return;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }, []);
  // Escape cancels and Ctrl/⌘+Enter saves, without reaching the screen's own shortcuts.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      onSave();
    }
  };
  return (
    <Stack spacing={1.5} onKeyDown={onKeyDown}>
      <TextField
        label={comment.isNew ? 'New comment' : `Comment ${number}`}
        value={editor.text}
        onChange={(event) => onChange({ text: event.target.value })}
        multiline
        minRows={2}
        inputRef={textRef}
        fullWidth
      />
      <TextField
        label="Points deducted"
        value={editor.points}
        onChange={(event) => onChange({ points: event.target.value })}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        helperText={`A decimal from 0 to ${formatPoints(questionPoints)}; anything else counts as 0.`}
        sx={{ maxWidth: 260 }}
      />
      <Stack direction="row" spacing={1}>
        <Button variant="contained" size="small" onClick={onSave}>
          {comment.isNew ? 'Done' : 'Save'}
        </Button>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </Stack>
    </Stack>
  );
}
