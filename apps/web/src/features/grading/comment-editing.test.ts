import { describe, expect, it } from 'vitest';
import type { GradingComment } from '@gradewise/shared/contracts/grading';
import { computeFinalGrade } from '@gradewise/shared/final-grade';
import {
  commentsReducer,
  finalGradeOf,
  initialCommentsState,
  isChangedFrom,
  isEditingAny,
  toSaveGradeComments,
  type CommentsAction,
  type CommentsState,
} from './comment-editing.ts';

const comment = (id: string, pointsDeducted: number, accepted = true, text = `Comment ${id}`): GradingComment => ({
  _id: id,
  id,
  text,
  pointsDeducted,
  accepted,
  rubricItemId: null,
  rubricItem: null,
});

const run = (state: CommentsState, ...actions: CommentsAction[]) => actions.reduce(commentsReducer, state);
const loaded = () => initialCommentsState([comment('a', 2), comment('b', 1.5), comment('c', 3, false)], 10);
const keyOf = (state: CommentsState, id: string) => state.comments.find((item) => item.id === id)!.tempId;

describe('comment editing', () => {
  it('loads comments viewed, each with its own key, and computes the grade from accepted deductions only', () => {
    const state = loaded();
    expect(state.comments.map((item) => [item.id, item.editor])).toEqual([
      ['a', null],
      ['b', null],
      ['c', null],
    ]);
    expect(new Set(state.comments.map((item) => item.tempId)).size).toBe(3);
    // 10 - (2 + 1.5); the declined 3 does not count.
    expect(finalGradeOf(state)).toBe(6.5);
  });

  it('Accept All and Decline All set every accepted flag, and the grade follows', () => {
    const accepted = run(loaded(), { type: 'acceptAll' });
    expect(accepted.comments.every((item) => item.accepted)).toBe(true);
    expect(finalGradeOf(accepted)).toBe(3.5);
    const declined = run(accepted, { type: 'declineAll' });
    expect(declined.comments.some((item) => item.accepted)).toBe(false);
    expect(finalGradeOf(declined)).toBe(10);
  });

  it('accepts or declines one comment', () => {
    const state = loaded();
    const next = run(state, { type: 'setAccepted', tempId: keyOf(state, 'a'), accepted: false });
    expect(next.comments.map((item) => item.accepted)).toEqual([false, true, false]);
    expect(finalGradeOf(next)).toBe(8.5);
  });

  it('Add Comment puts a new, accepted, 0-point, empty comment at the top, open in its editor', () => {
    const state = run(loaded(), { type: 'add' });
    expect(state.comments).toHaveLength(4);
    expect(state.comments[0]).toMatchObject({
      id: null,
      text: '',
      pointsDeducted: 0,
      accepted: true,
      isNew: true,
      editor: { text: '', points: '0' },
    });
    expect(finalGradeOf(state)).toBe(6.5);
  });

  it('Done keeps a new comment with what was typed; Cancel removes it', () => {
    const added = run(loaded(), { type: 'add' });
    const key = added.comments[0]!.tempId;
    const typed = run(added, { type: 'change', tempId: key, text: 'Units missing.', points: '0.5' });
    // Typing does not change the grade until the comment is kept.
    expect(finalGradeOf(typed)).toBe(6.5);
    const kept = run(typed, { type: 'save', tempId: key });
    expect(kept.comments[0]).toMatchObject({
      text: 'Units missing.',
      pointsDeducted: 0.5,
      accepted: true,
      isNew: false,
      editor: null,
    });
    expect(finalGradeOf(kept)).toBe(6);

    const cancelled = run(typed, { type: 'cancel', tempId: key });
    expect(cancelled.comments.map((item) => item.id)).toEqual(['a', 'b', 'c']);
  });

  it('Edit opens the editor with the current values; Save applies them, Cancel leaves the comment as it was', () => {
    const state = loaded();
    const key = keyOf(state, 'b');
    const editing = run(state, { type: 'edit', tempId: key });
    expect(editing.comments[1]!.editor).toEqual({ text: 'Comment b', points: '1.5' });
    expect(isEditingAny(editing)).toBe(true);
    const changed = run(
      editing,
      { type: 'change', tempId: key, text: 'Better wording.' },
      { type: 'change', tempId: key, points: '4' },
    );

    const saved = run(changed, { type: 'save', tempId: key });
    expect(saved.comments[1]).toMatchObject({ text: 'Better wording.', pointsDeducted: 4, editor: null, id: 'b' });
    expect(finalGradeOf(saved)).toBe(4);
    expect(isEditingAny(saved)).toBe(false);

    const cancelled = run(changed, { type: 'cancel', tempId: key });
    expect(cancelled.comments[1]).toMatchObject({ text: 'Comment b', pointsDeducted: 1.5, editor: null });
  });

  it.each([
    ['2.25', 2.25],
    ['1,5', 1.5],
    ['abc', 0],
    ['', 0],
    ['3 points', 3],
    ['-2', 0],
    ['25', 10],
  ])('parses the typed points %j as %s (decimal; non-numeric is 0; within 0..points)', (typed, expected) => {
    const state = loaded();
    const key = keyOf(state, 'a');
    const saved = run(
      state,
      { type: 'edit', tempId: key },
      { type: 'change', tempId: key, points: typed },
      { type: 'save', tempId: key },
    );
    expect(saved.comments[0]!.pointsDeducted).toBe(expected);
  });

  it('counts the comments as changed by outcome: an edit taken back leaves the suggestion kept', () => {
    const suggested = [comment('a', 2), comment('b', 1.5), comment('c', 3, false)];
    const state = initialCommentsState(suggested, 10);
    const a = keyOf(state, 'a');
    expect(isChangedFrom(state, suggested)).toBe(false);
    // An editor open counts: a refreshed suggestion must not replace what is being typed.
    const editing = run(state, { type: 'edit', tempId: a }, { type: 'change', tempId: a, text: 'Other' });
    expect(isChangedFrom(editing, suggested)).toBe(true);
    expect(isChangedFrom(run(editing, { type: 'cancel', tempId: a }), suggested)).toBe(false);
    expect(isChangedFrom(run(editing, { type: 'save', tempId: a }), suggested)).toBe(true);
    const restored = run(editing, { type: 'change', tempId: a, text: 'Comment a' }, { type: 'save', tempId: a });
    expect(isChangedFrom(restored, suggested)).toBe(false);
    const declined = run(state, { type: 'setAccepted', tempId: a, accepted: false });
    expect(isChangedFrom(declined, suggested)).toBe(true);
    expect(isChangedFrom(run(declined, { type: 'setAccepted', tempId: a, accepted: true }), suggested)).toBe(false);
    expect(isChangedFrom(run(state, { type: 'add' }, { type: 'cancel', tempId: 'c4' }), suggested)).toBe(false);
    expect(isChangedFrom(run(state, { type: 'remove', tempId: a }), suggested)).toBe(true);
    // Comments loaded as edits (an Undo's draft) differ from the result they sit on.
    expect(isChangedFrom(initialCommentsState([comment('a', 4)], 10), [comment('a', 2)])).toBe(true);
  });

  it('Delete removes a comment and the grade follows', () => {
    const state = loaded();
    const next = run(state, { type: 'remove', tempId: keyOf(state, 'a') });
    expect(next.comments.map((item) => item.id)).toEqual(['b', 'c']);
    expect(finalGradeOf(next)).toBe(8.5);
  });

  it('sends the kept comments to save-grade with their server ids; an unkept new comment is not sent', () => {
    const state = run(loaded(), { type: 'add' }, { type: 'add' });
    const keep = state.comments[1]!.tempId;
    const next = run(
      state,
      { type: 'change', tempId: keep, text: 'Extra.', points: '1' },
      { type: 'save', tempId: keep },
    );
    expect(toSaveGradeComments(next)).toEqual([
      { text: 'Extra.', pointsDeducted: 1, accepted: true, rubricItemId: null },
      { _id: 'a', text: 'Comment a', pointsDeducted: 2, accepted: true, rubricItemId: null },
      { _id: 'b', text: 'Comment b', pointsDeducted: 1.5, accepted: true, rubricItemId: null },
      { _id: 'c', text: 'Comment c', pointsDeducted: 3, accepted: false, rubricItemId: null },
    ]);
  });

  it('computes the same final grade as the server rule for what it sends', () => {
    const state = run(loaded(), { type: 'acceptAll' });
    expect(finalGradeOf(state)).toBe(computeFinalGrade(10, toSaveGradeComments(state)));
  });

  it('keeps keys unique across reloads (a regrade replaces the list)', () => {
    const state = loaded();
    const reloaded = run(state, { type: 'load', comments: [comment('x', 1)], points: 5 });
    expect(reloaded.points).toBe(5);
    expect(state.comments.map((item) => item.tempId)).not.toContain(reloaded.comments[0]!.tempId);
    expect(finalGradeOf(reloaded)).toBe(4);
  });
});

describe('comment regions (issue 13 item 12)', () => {
  const box = { page: 2, x: 0.1, y: 0.2, width: 0.3, height: 0.1 };

  it('marks a comment on the page and sends the box with the grade, leaving the grade as it was', () => {
    const state = loaded();
    const marked = run(state, { type: 'setRegion', tempId: keyOf(state, 'b'), region: box });
    expect(marked.comments.map((item) => item.region)).toEqual([null, box, null]);
    expect(finalGradeOf(marked)).toBe(finalGradeOf(state));
    expect(toSaveGradeComments(marked)[1]).toEqual({
      _id: 'b',
      text: 'Comment b',
      pointsDeducted: 1.5,
      accepted: true,
      rubricItemId: null,
      region: box,
    });
    expect(toSaveGradeComments(marked)[0]).not.toHaveProperty('region');
  });

  it('keeps a loaded box through accept, decline and an edit; removing it sends none', () => {
    const state = initialCommentsState([{ ...comment('a', 2), region: box }], 10);
    const key = keyOf(state, 'a');
    const edited = run(
      state,
      { type: 'setAccepted', tempId: key, accepted: false },
      { type: 'edit', tempId: key },
      { type: 'change', tempId: key, text: 'Units.' },
      { type: 'save', tempId: key },
    );
    expect(edited.comments[0]?.region).toEqual(box);
    const removed = run(edited, { type: 'setRegion', tempId: key, region: null });
    expect(removed.comments[0]?.region).toBeNull();
    expect(toSaveGradeComments(removed)[0]).not.toHaveProperty('region');
  });
});

describe('final grade (shared rule)', () => {
  it.each([
    [10, [], 10],
    [10, [{ pointsDeducted: 2.5, accepted: true }], 7.5],
    [10, [{ pointsDeducted: 2.5, accepted: false }], 10],
    [
      10,
      [
        { pointsDeducted: 8, accepted: true },
        { pointsDeducted: 5, accepted: true },
      ],
      0,
    ],
    [3, [{ pointsDeducted: 1 / 3, accepted: true }], 2.67],
    [
      7.5,
      [
        { pointsDeducted: 0.1, accepted: true },
        { pointsDeducted: 0.2, accepted: true },
      ],
      7.2,
    ],
  ])(
    'points %s minus accepted deductions of %j is %s (never below 0, rounded to the hundredth)',
    (points, comments, expected) => {
      expect(computeFinalGrade(points, comments)).toBe(expected);
    },
  );
});
