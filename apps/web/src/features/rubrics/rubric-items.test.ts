import { describe, expect, it } from 'vitest';
import { checkDrafts, emptyDraft, moveDraft, parseItemPoints, toDrafts, toItemInputs } from './rubric-items.ts';

const items = [
  { id: 'item-1', criterion: 'States the sum', points: 6, guidance: 'It is 4.' },
  { id: 'item-2', criterion: 'Explains', points: 4, guidance: '' },
];

describe('rubric items in the wizard', () => {
  it('accepts items that add up to the question points and sends them with their ids', () => {
    const drafts = toDrafts(items);
    expect(checkDrafts(drafts, 10)).toEqual({ total: 10, isValid: true, problems: [] });
    expect(toItemInputs(drafts)).toEqual(items);
  });

  it('adds to the hundredth, as the server does: 3.33 + 3.33 + 3.34 is 10', () => {
    const drafts = ['3.33', '3.33', '3.34'].map((points, index) => ({
      ...emptyDraft(),
      criterion: `C${index}`,
      points,
    }));
    expect(checkDrafts(drafts, 10).isValid).toBe(true);
  });

  it('names every problem: a missing criterion, points that are not a number, a total that does not match', () => {
    const drafts = [...toDrafts(items), { ...emptyDraft(), criterion: ' ', points: 'two' }];
    drafts[0]!.points = '7';
    expect(checkDrafts(drafts, 10)).toEqual({
      total: 11,
      isValid: false,
      problems: [
        'Item 3 needs a criterion.',
        'Item 3: points must be a number of 0 or more.',
        'The items add up to 11 points, but the question is worth 10 points.',
      ],
    });
    expect(checkDrafts([], 10).problems).toEqual(['A rubric needs at least one item.']);
  });

  it.each([
    ['4', 4],
    ['2.5', 2.5],
    ['2,5', 2.5],
    ['.5', 0.5],
    ['3.', 3],
    [' 1 ', 1],
    ['', null],
    ['-1', null],
    ['1e3', null],
    ['abc', null],
  ])('reads the points %j as %s', (raw, expected) => {
    expect(parseItemPoints(raw)).toBe(expected);
  });

  it('moves an item up or down, and leaves the list alone at its ends', () => {
    const drafts = toDrafts(items);
    expect(moveDraft(drafts, 1, -1).map((draft) => draft.id)).toEqual(['item-2', 'item-1']);
    expect(moveDraft(drafts, 0, -1).map((draft) => draft.id)).toEqual(['item-1', 'item-2']);
    expect(moveDraft(drafts, 1, 1).map((draft) => draft.id)).toEqual(['item-1', 'item-2']);
  });

  it('gives new items no id (the server numbers them) and a key of their own', () => {
    const [a, b] = [emptyDraft(), emptyDraft()];
    expect(a.key).not.toBe(b.key);
    expect(toItemInputs([{ ...a, criterion: 'New', points: '10' }])).toEqual([
      { criterion: 'New', points: 10, guidance: '' },
    ]);
  });
});
