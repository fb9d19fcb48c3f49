import { useEffect, useReducer, useRef, useState } from 'react';
import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import type { GradingComment, GradingOutput } from '@gradewise/shared/contracts/grading';
import {
  commentsReducer,
  finalGradeOf,
  initialCommentsState,
  isChangedFrom,
  type CommentsAction,
  type CommentsState,
} from '../comment-editing.ts';
import { formatPoints } from '../format.ts';
import type { ShortcutCommand } from '../shortcut-keys.ts';

/** What the comment list's buttons and cards call; ReviewComments takes them as props. */
export interface CommentHandlers {
  onActivate(tempId: string): void;
  onAcceptAll(): void;
  onDeclineAll(): void;
  onAdd(): void;
  onAccept(tempId: string): void;
  onDecline(tempId: string): void;
  onEdit(tempId: string): void;
  onDelete(tempId: string): void;
  onChange(tempId: string, change: { text?: string; points?: string }): void;
  onSave(tempId: string): void;
  onCancel(tempId: string): void;
}

/** The keyboard commands that act on the comment list (the rest belong to the dialog). */
export type CommentCommand = Extract<
  ShortcutCommand,
  'nextComment' | 'previousComment' | 'accept' | 'decline' | 'edit' | 'addComment'
>;

/**
 * The grading screen's comment review: the editing state (comment-editing.ts), which card is
 * current, where focus goes after a change, and what screen readers hear. Every change is
 * announced with the final grade it gives, so a keyboard or screen-reader user never has to look.
 */
export function useCommentReview() {
  const [state, dispatch] = useReducer(commentsReducer, undefined, () => initialCommentsState());
  const [activeTempId, setActiveTempId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The comments of the result last loaded: what "edited" is measured against (isChangedFrom).
  const [loaded, setLoaded] = useState<readonly GradingComment[]>([]);
  const cards = useRef(new Map<string, HTMLLIElement>());
  const addButtonRef = useRef<HTMLButtonElement | null>(null);

  // Focus moves after the list has re-rendered: to a card, or to Add Comment when the list is empty.
  const pendingFocus = useRef<{ tempId: string | null } | null>(null);
  const moveFocusAfterRender = (tempId: string | null) => {
    pendingFocus.current = { tempId };
  };
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    const card = target.tempId ? cards.current.get(target.tempId) : undefined;
    (card ?? addButtonRef.current)?.focus();
  });

  const announce = (text: string) => setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text));

  /**
   * Replaces the list with a result's comments (on opening, after a regrade or a reload), or with
   * `draft` (the comments of a save taken back with Undo), which count as edits of the result.
   */
  const load = (output: GradingOutput, draft?: readonly GradingComment[]) => {
    dispatch({ type: 'load', comments: draft ?? output.gradingResult.comments, points: output.questionPoints });
    setActiveTempId(null);
    setLoaded(output.gradingResult.comments);
  };

  /**
   * The comments stay as they are, and count as edits of `output` from now on (what the server has
   * after an Undo, read after the undone comments were put back on screen).
   */
  const rebase = (output: GradingOutput) => setLoaded(output.gradingResult.comments);

  /** Applies a comment action and tells screen readers what changed and the grade it gives. */
  const apply = (action: CommentsAction, describe?: (index: number, total: number) => string): CommentsState => {
    const next = commentsReducer(state, action);
    dispatch(action);
    if (!describe) return next;
    const tempId = 'tempId' in action ? action.tempId : null;
    const index = tempId ? state.comments.findIndex((comment) => comment.tempId === tempId) : -1;
    announce(
      `${describe(index, state.comments.length)} Final grade ${formatPoints(finalGradeOf(next))} of ${formatPoints(next.points)}.`,
    );
    return next;
  };

  const handlers: CommentHandlers = {
    onActivate: setActiveTempId,
    onAcceptAll: () => apply({ type: 'acceptAll' }, () => 'All comments accepted.'),
    onDeclineAll: () => apply({ type: 'declineAll' }, () => 'All comments declined.'),
    onAdd: () => {
      const next = apply({ type: 'add' });
      setActiveTempId(next.comments[0]?.tempId ?? null);
      announce('New comment added at the top. Type its text and points, then Done.');
    },
    onAccept: (tempId) =>
      apply({ type: 'setAccepted', tempId, accepted: true }, (i, n) => `Comment ${i + 1} of ${n} accepted.`),
    onDecline: (tempId) =>
      apply({ type: 'setAccepted', tempId, accepted: false }, (i, n) => `Comment ${i + 1} of ${n} declined.`),
    onEdit: (tempId) => {
      setActiveTempId(tempId);
      apply({ type: 'edit', tempId });
    },
    onDelete: (tempId) => {
      const index = state.comments.findIndex((comment) => comment.tempId === tempId);
      const next = apply({ type: 'remove', tempId }, (i, n) => `Comment ${i + 1} of ${n} deleted.`);
      const neighbour = next.comments[Math.min(index, next.comments.length - 1)];
      setActiveTempId(neighbour?.tempId ?? null);
      moveFocusAfterRender(neighbour?.tempId ?? null);
    },
    onChange: (tempId, change) => {
      dispatch({ type: 'change', tempId, ...change });
    },
    onSave: (tempId) => {
      const wasNew = state.comments.find((comment) => comment.tempId === tempId)?.isNew;
      apply({ type: 'save', tempId }, (i, n) => (wasNew ? 'New comment kept.' : `Comment ${i + 1} of ${n} saved.`));
      moveFocusAfterRender(tempId);
    },
    onCancel: (tempId) => {
      const wasNew = state.comments.find((comment) => comment.tempId === tempId)?.isNew;
      apply({ type: 'cancel', tempId });
      announce(wasNew ? 'New comment removed.' : 'Edit cancelled.');
      moveFocusAfterRender(
        wasNew ? (state.comments.find((comment) => comment.tempId !== tempId)?.tempId ?? null) : tempId,
      );
    },
  };

  /** Runs a comment shortcut on the current card (the first one when none is current). */
  const runCommand = (command: CommentCommand) => {
    const comments = state.comments;
    const activeIndex = comments.findIndex((comment) => comment.tempId === activeTempId);
    const current = comments[activeIndex] ?? comments[0];
    const focusAt = (index: number) => {
      const target = comments[Math.max(0, Math.min(comments.length - 1, index))];
      if (!target) return;
      setActiveTempId(target.tempId);
      cards.current.get(target.tempId)?.focus();
    };
    switch (command) {
      case 'nextComment':
        return focusAt(activeIndex < 0 ? 0 : activeIndex + 1);
      case 'previousComment':
        return focusAt(activeIndex < 0 ? 0 : activeIndex - 1);
      case 'accept':
        return current && handlers.onAccept(current.tempId);
      case 'decline':
        return current && handlers.onDecline(current.tempId);
      case 'edit':
        return current && handlers.onEdit(current.tempId);
      case 'addComment':
        return handlers.onAdd();
    }
  };

  /**
   * A grade is saved only with every editor closed: when one is open, says so, moves focus to it
   * and answers true (the save waits).
   */
  const holdForOpenEditor = (): boolean => {
    const open = state.comments.find((comment) => comment.editor !== null);
    if (!open) return false;
    announce('Finish the comment you are editing first: Save, Done or Cancel.');
    moveFocusAfterRender(open.tempId);
    setActiveTempId(open.tempId);
    return true;
  };

  /** Marks a comment's place on the page (or removes the mark), said with the page it is on. */
  const setRegion = (tempId: string, region: CommentRegion | null) => {
    apply({ type: 'setRegion', tempId, region }, (i, n) =>
      region
        ? `Comment ${i + 1} of ${n} marked on page ${region.page}.`
        : `Mark removed from comment ${i + 1} of ${n}.`,
    );
  };

  /** Makes a comment current and puts focus on its card (choosing its box on the page). */
  const focusComment = (tempId: string) => {
    setActiveTempId(tempId);
    cards.current.get(tempId)?.focus();
  };

  const registerCard = (tempId: string, element: HTMLLIElement | null) => {
    if (element) cards.current.set(tempId, element);
    else cards.current.delete(tempId);
  };

  return {
    state,
    /** Changed since the last load; taken back, it is not (a refreshed suggestion then replaces it). */
    isEdited: isChangedFrom(state, loaded),
    finalGrade: finalGradeOf(state),
    activeTempId,
    announcement,
    announce,
    load,
    rebase,
    handlers,
    runCommand,
    holdForOpenEditor,
    setRegion,
    focusComment,
    registerCard,
    addButtonRef,
  };
}

export type CommentReview = ReturnType<typeof useCommentReview>;
