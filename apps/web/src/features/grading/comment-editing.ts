import type { GradingComment } from '@gradewise/shared/contracts/grading';
import { computeFinalGrade, parsePointsDeducted } from '@gradewise/shared/final-grade';

/**
 * The state rules of the grading screen's comment list (spec section 4, "Comment editing"), as a
 * pure reducer so they are tested without a browser:
 * - each comment is viewed or edited; Edit opens the editor, Save or Cancel closes it;
 * - Add Comment puts a new comment at the top: accepted, 0 points, empty text, in the editor,
 *   with Done (keep it) and Cancel (remove it);
 * - Delete removes a comment; Accept All and Decline All set every accepted flag;
 * - points typed are parsed as a decimal, anything non-numeric becomes 0 (spec section 5);
 * - a comment may be marked on the page (a region) or unmarked, which leaves its points alone;
 * - the final grade is recomputed from the committed comments with the shared rule
 *   (computeFinalGrade): what is still being typed in an editor does not count until saved.
 */

export interface DraftComment {
  /** Client-only unique key (spec: tempId). */
  tempId: string;
  /** The server's id, kept on save so the comment stays linked to the AI run; null for new ones. */
  id: string | null;
  text: string;
  pointsDeducted: number;
  accepted: boolean;
  rubricItemId: string | null;
  rubricItem: GradingComment['rubricItem'];
  /** The place on the answer the comment points at (kept as loaded, sent back on save). */
  region: GradingComment['region'];
  /** Added by the instructor and not yet kept with Done. */
  isNew: boolean;
  /** The open editor's values, as typed; null while the comment is viewed. */
  editor: { text: string; points: string } | null;
}

export interface CommentsState {
  comments: DraftComment[];
  /** Question points: deductions are kept within 0..points. */
  points: number;
  nextKey: number;
}

export type CommentsAction =
  | { type: 'load'; comments: readonly GradingComment[]; points: number }
  | { type: 'acceptAll' }
  | { type: 'declineAll' }
  | { type: 'setAccepted'; tempId: string; accepted: boolean }
  | { type: 'add' }
  | { type: 'edit'; tempId: string }
  | { type: 'change'; tempId: string; text?: string; points?: string }
  | { type: 'save'; tempId: string }
  | { type: 'cancel'; tempId: string }
  | { type: 'remove'; tempId: string }
  | { type: 'setRegion'; tempId: string; region: GradingComment['region'] };

export function initialCommentsState(comments: readonly GradingComment[] = [], points = 0): CommentsState {
  return commentsReducer({ comments: [], points, nextKey: 1 }, { type: 'load', comments, points });
}

export function commentsReducer(state: CommentsState, action: CommentsAction): CommentsState {
  switch (action.type) {
    case 'load': {
      let nextKey = state.nextKey;
      const comments = action.comments.map((comment): DraftComment => ({
        tempId: `c${nextKey++}`,
        id: comment._id,
        text: comment.text,
        pointsDeducted: comment.pointsDeducted,
        accepted: comment.accepted,
        rubricItemId: comment.rubricItemId,
        rubricItem: comment.rubricItem ?? null,
        region: comment.region ?? null,
        isNew: false,
        editor: null,
      }));
      return { comments, points: action.points, nextKey };
    }
    case 'acceptAll':
      return mapComments(state, (comment) => ({ ...comment, accepted: true }));
    case 'declineAll':
      return mapComments(state, (comment) => ({ ...comment, accepted: false }));
    case 'setAccepted':
      return updateOne(state, action.tempId, (comment) => ({ ...comment, accepted: action.accepted }));
    case 'add': {
      const added: DraftComment = {
        tempId: `c${state.nextKey}`,
        id: null,
        text: '',
        pointsDeducted: 0,
        accepted: true,
        rubricItemId: null,
        rubricItem: null,
        region: null,
        isNew: true,
        editor: { text: '', points: '0' },
      };
      return { ...state, comments: [added, ...state.comments], nextKey: state.nextKey + 1 };
    }
    case 'edit':
      return updateOne(state, action.tempId, (comment) =>
        comment.editor
          ? comment
          : { ...comment, editor: { text: comment.text, points: String(comment.pointsDeducted) } },
      );
    case 'change':
      return updateOne(state, action.tempId, (comment) =>
        comment.editor
          ? {
              ...comment,
              editor: { text: action.text ?? comment.editor.text, points: action.points ?? comment.editor.points },
            }
          : comment,
      );
    case 'save':
      return updateOne(state, action.tempId, (comment) =>
        comment.editor
          ? {
              ...comment,
              text: comment.editor.text,
              pointsDeducted: clampDeduction(parsePointsDeducted(comment.editor.points), state.points),
              isNew: false,
              editor: null,
            }
          : comment,
      );
    case 'cancel': {
      const target = state.comments.find((comment) => comment.tempId === action.tempId);
      if (target?.isNew) return removeOne(state, action.tempId);
      return updateOne(state, action.tempId, (comment) => ({ ...comment, editor: null }));
    }
    case 'remove':
      return removeOne(state, action.tempId);
    case 'setRegion':
      // Marking a place never changes the grade: only where the comment points.
      return updateOne(state, action.tempId, (comment) => ({ ...comment, region: action.region ?? null }));
  }
}

/** A deduction cannot take more than the question is worth, nor add points. */
export function clampDeduction(points: number, questionPoints: number): number {
  return Math.min(Math.max(points, 0), Math.max(questionPoints, 0));
}

export function finalGradeOf(state: CommentsState): number {
  return computeFinalGrade(state.points, state.comments);
}

export function isEditingAny(state: CommentsState): boolean {
  return state.comments.some((comment) => comment.editor !== null);
}

/**
 * Whether the instructor has changed the comments loaded (`loaded`: the suggestion or saved grade as
 * read): an editor open, or what Save Grade would send differs from what loading them would send.
 * Compared by outcome, not by the actions taken, so an edit taken back (Cancel, a comment declined
 * then accepted again, a text typed and restored) leaves the suggestion counted as kept.
 */
export function isChangedFrom(state: CommentsState, loaded: readonly GradingComment[]): boolean {
  if (isEditingAny(state)) return true;
  const asLoaded = toSaveGradeComments(initialCommentsState(loaded, state.points));
  return JSON.stringify(toSaveGradeComments(state)) !== JSON.stringify(asLoaded);
}

/** The comments as save-grade takes them; comments still open in an editor are sent as last saved. */
export function toSaveGradeComments(state: CommentsState) {
  return state.comments
    .filter((comment) => !comment.isNew)
    .map((comment) => ({
      ...(comment.id ? { _id: comment.id } : {}),
      text: comment.text,
      pointsDeducted: comment.pointsDeducted,
      accepted: comment.accepted,
      rubricItemId: comment.rubricItemId,
      ...(comment.region ? { region: comment.region } : {}),
    }));
}

function mapComments(state: CommentsState, change: (comment: DraftComment) => DraftComment): CommentsState {
  return { ...state, comments: state.comments.map(change) };
}

function updateOne(
  state: CommentsState,
  tempId: string,
  change: (comment: DraftComment) => DraftComment,
): CommentsState {
  return mapComments(state, (comment) => (comment.tempId === tempId ? change(comment) : comment));
}

function removeOne(state: CommentsState, tempId: string): CommentsState {
  return { ...state, comments: state.comments.filter((comment) => comment.tempId !== tempId) };
}
