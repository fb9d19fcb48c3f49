import { describe, expect, it } from 'vitest';
import {
  analyseAnswers,
  findScoreOutliers,
  groupAnswers,
  pickRepresentatives,
  type AnswerText,
} from '../src/grouping/group-answers.ts';

/** Unit tests of the pure grouping: which answers are alike, representatives, outliers. */

const answersOf = (texts: Record<string, string>): AnswerText[] =>
  Object.entries(texts).map(([id, text]) => ({ id, text }));

const groupsOf = (texts: Record<string, string>) => groupAnswers(analyseAnswers(answersOf(texts)));

/** Member ids of each group, sorted, for order-free comparisons. */
const memberSets = (groups: ReturnType<typeof groupAnswers>) =>
  groups.map((group) => group.members.map((member) => member.id).sort());

const PHOTOSYNTHESIS = 'Photosynthesis turns carbon dioxide and water into glucose and oxygen using light energy.';

describe('groupAnswers', () => {
  it('groups identical and near-identical answers (case, spacing, punctuation, small words)', () => {
    const groups = groupsOf({
      ann: PHOTOSYNTHESIS,
      ben: 'photosynthesis turns carbon dioxide and water into glucose and oxygen, using light energy',
      cat: 'Photosynthesis   turns carbon dioxide and water into glucose and oxygen using light energy!!',
      dan: 'Photosynthesis turns the carbon dioxide and the water into glucose and oxygen by using light energy.',
      eve: 'Plants eat soil to grow bigger.',
    });
    expect(memberSets(groups)).toEqual([['ann', 'ben', 'cat', 'dan']]);
    const [group] = groups;
    expect(group!.members).toHaveLength(4);
    expect(group!.members[0]).toEqual({ id: group!.representativeId, similarity: 1, isLessAlike: false });
    expect(group!.keyTerms).toEqual(expect.arrayContaining(['glucose', 'oxygen']));
    expect(group!.finalValue).toBeNull();
  });

  it('never puts answers the saved grades disagree on in one group; ungraded copies join one of them', () => {
    const groups = groupAnswers(
      analyseAnswers([
        { id: 'ann', text: PHOTOSYNTHESIS, savedShare: 1 },
        { id: 'ben', text: PHOTOSYNTHESIS, savedShare: 0.5 },
        { id: 'cat', text: PHOTOSYNTHESIS },
        { id: 'dan', text: PHOTOSYNTHESIS, savedShare: 0.95 },
      ]),
    );
    const sets = memberSets(groups);
    const withAnn = sets.find((set) => set.includes('ann'))!;
    expect(withAnn).not.toContain('ben');
    // Within a tenth of the points: the same decision.
    expect(withAnn).toContain('dan');
    expect(sets.flat().filter((id) => id === 'cat')).toHaveLength(1);
    // Without grades the same four answers are one group.
    expect(
      memberSets(groupsOf({ ann: PHOTOSYNTHESIS, ben: PHOTOSYNTHESIS, cat: PHOTOSYNTHESIS, dan: PHOTOSYNTHESIS })),
    ).toEqual([['ann', 'ben', 'cat', 'dan']]);
  });

  it('never groups answers whose final values differ, however alike their words', () => {
    const groups = groupsOf({
      ann: 'F = m a = 2 kg x 10 m/s^2, so the force is 20 N.',
      ben: 'F = m a = 2 kg x 10 m/s^2, so the force is 25 N.',
      cat: 'The answer is 4 because 2 + 2 = 4.',
      dan: 'The answer is 5 because 2 + 2 = 5.',
    });
    expect(groups).toEqual([]);
  });

  it('groups the same final value with the same key points, but not a bare value with a different unit', () => {
    const groups = groupsOf({
      ann: 'v = u + a t = 0 + 9.8 x 2 = 19.6 m/s, so the velocity after 2 s is 19.6 m/s.',
      ben: 'velocity = 9.8 x 2 = 19.6 m/s',
      cat: 'velocity = 9.8 x 2 = 19.6',
      dan: 'I think the velocity is 20 m/s after 2 s.',
    });
    expect(memberSets(groups)).toEqual([['ann', 'ben']]);
    expect(groups[0]!.finalValue).toBe('19.6 m/s');
  });

  it('groups short answers that are the same value ("4", "It is 4.", "four"), flagging one that says more', () => {
    const groups = groupsOf({ ann: '4', ben: 'It is 4.', cat: '4, since 2 doubled is 4', dan: '5', eve: 'four' });
    expect(memberSets(groups)).toEqual([['ann', 'ben', 'cat', 'eve']]);
    // The representative is the member most alike to the others; the one with working is less alike.
    expect(groups[0]!.representativeId).not.toBe('cat');
    const cat = groups[0]!.members.find((member) => member.id === 'cat')!;
    expect(cat.similarity).toBeLessThan(0.8);
    expect(cat.isLessAlike).toBe(true);
    expect(groups[0]!.members.filter((member) => member.isLessAlike).map((member) => member.id)).toEqual(['cat']);
  });

  it('leaves out answers without text and keeps only groups of two or more', () => {
    const groups = groupsOf({ ann: '', ben: '   \n ', cat: PHOTOSYNTHESIS, dan: 'Plants eat soil.' });
    expect(groups).toEqual([]);
    const space = analyseAnswers(answersOf({ ann: '', ben: PHOTOSYNTHESIS, cat: PHOTOSYNTHESIS }));
    expect(space.answers.map((answer) => answer.id)).toEqual(['ben', 'cat']);
    expect(memberSets(groupAnswers(space))).toEqual([['ben', 'cat']]);
  });

  it('orders groups by size, then input order, and is deterministic: same input, same output; any input order, same groups', () => {
    const texts = {
      ann: 'It is 4.',
      ben: PHOTOSYNTHESIS,
      cat: '4',
      dan: PHOTOSYNTHESIS.toLowerCase(),
      eve: 'four',
      fay: PHOTOSYNTHESIS + ' ',
      gus: 'Something else entirely about mitochondria.',
      hal: 'Another answer about ribosomes.',
    };
    const first = groupsOf(texts);
    // Equal sizes: the group whose representative comes first in the input goes first.
    expect(memberSets(first)).toEqual([
      ['ann', 'cat', 'eve'],
      ['ben', 'dan', 'fay'],
    ]);
    expect(first.map((group) => group.representativeId)).toEqual(['ann', 'ben']);
    expect(groupsOf(texts)).toEqual(first);
    const reversed = groupAnswers(analyseAnswers(answersOf(texts).reverse()));
    expect(memberSets(reversed).sort()).toEqual(memberSets(first).sort());
    // Ties between equally good representatives follow the input order.
    expect(reversed.map((group) => group.representativeId)).toEqual(['fay', 'eve']);
    // A bigger group goes first whatever the input order.
    const bigger = groupsOf({ ...texts, ivy: PHOTOSYNTHESIS + '!' });
    expect(bigger.map((group) => [group.representativeId, group.members.length])).toEqual([
      ['ben', 4],
      ['ann', 3],
    ]);
  });

  it('does not chain: a run of answers each alike to the next does not become one group', () => {
    // Each answer adds a point to the one before: neighbours are alike, the ends are not.
    const core = 'enzymes lower the activation energy of reactions by binding substrates at the active site';
    const extras = ['quickly', 'inside cells', 'with cofactors', 'near body temperature', 'without being used up'];
    const texts = Object.fromEntries(
      [0, 1, 2, 3, 4, 5, 6].map((count) => [`a${count}`, [core, ...extras.slice(0, count)].join(' ')]),
    );
    texts.a6 = `${texts.a5} in both directions`;
    const groups = groupsOf(texts);
    // Single link would put a0..a3 together (a0~a1~a2~a3) although a0 and a3 share far less.
    expect(memberSets(groups)).toEqual([
      ['a0', 'a1', 'a2'],
      ['a4', 'a5', 'a6'],
    ]);
  });
});

describe('pickRepresentatives', () => {
  const texts = {
    ann: PHOTOSYNTHESIS,
    ben: PHOTOSYNTHESIS.toLowerCase(),
    cat: PHOTOSYNTHESIS + ' ',
    dan: PHOTOSYNTHESIS.replace('.', '!'),
    eve: 'It is 4.',
    fay: '4',
    gus: 'Plants eat soil to grow bigger.',
  };

  it('starts with the medoid of the biggest cluster, then covers the next cluster before singletons', () => {
    const picks = pickRepresentatives(analyseAnswers(answersOf(texts)), 3);
    expect(picks).toEqual([
      { id: 'ann', represents: 4 },
      { id: 'eve', represents: 2 },
      { id: 'gus', represents: 1 },
    ]);
  });

  it('never picks more than asked, nor a near copy of an answer already picked, and is the same every time', () => {
    const space = analyseAnswers(answersOf({ ...texts, hal: '' }));
    expect(pickRepresentatives(space, 2).map((pick) => pick.id)).toEqual(['ann', 'eve']);
    // Seven answers with text but three kinds of answer: the copies of Ann's and Eve's add nothing.
    expect(pickRepresentatives(space, 50).map((pick) => pick.id)).toEqual(['ann', 'eve', 'gus']);
    expect(pickRepresentatives(space, 0)).toEqual([]);
    expect(pickRepresentatives(space, 5)).toEqual(pickRepresentatives(analyseAnswers(answersOf(texts)), 5));
  });

  it('picks every answer of a class where all differ, up to the number asked', () => {
    const space = analyseAnswers(
      answersOf({
        ann: 'Mitochondria make ATP.',
        ben: 'Ribosomes build proteins.',
        cat: 'The nucleus stores DNA.',
        dan: 'Chloroplasts capture light.',
      }),
    );
    expect(pickRepresentatives(space, 3)).toHaveLength(3);
    expect(pickRepresentatives(space, 10).map((pick) => pick.represents)).toEqual([1, 1, 1, 1]);
  });
});

describe('own words', () => {
  it("leaves the author's name and email out, so copies with a name in the header still group", () => {
    const answers = [
      {
        id: 'ann',
        text: `Answer of Ann Archer ann.archer@example.edu\n${PHOTOSYNTHESIS}`,
        ownWords: ['Ann Archer', 'ann.archer@example.edu'],
      },
      { id: 'ben', text: `Answer of Ben Baker\n${PHOTOSYNTHESIS}`, ownWords: ['Ben Baker', 'ben@example.edu'] },
    ];
    const groups = groupAnswers(analyseAnswers(answers));
    expect(memberSets(groups)).toEqual([['ann', 'ben']]);
    expect(groups[0]!.members.map((member) => member.similarity)).toEqual([1, 1]);
    expect(groups[0]!.keyTerms).not.toContain('archer');
    // Without them, the names alone set the two short answers apart.
    const named = groupAnswers(analyseAnswers(answers.map(({ id, text }) => ({ id, text }))));
    expect(named[0]?.members.every((member) => member.similarity === 1) ?? false).toBe(false);
  });
});

describe('findScoreOutliers', () => {
  const ids = ['ann', 'ben', 'cat', 'dan'];

  it('flags a suggestion more than 20% of the points from the median suggestion of the group', () => {
    const scores = new Map([
      ['ann', { suggestedScore: 8, isGraded: false }],
      ['ben', { suggestedScore: 8.5, isGraded: false }],
      ['cat', { suggestedScore: 7.5, isGraded: false }],
      ['dan', { suggestedScore: 3, isGraded: false }],
    ]);
    expect([...findScoreOutliers(ids, scores, 10)]).toEqual(['dan']);
    // Relative to the points: on a 40-point question the same gap is small.
    expect([...findScoreOutliers(ids, scores, 40)]).toEqual([]);
  });

  it('never flags a graded member, and exactly 20% away is not far', () => {
    const scores = new Map([
      ['ann', { suggestedScore: 8, isGraded: false }],
      ['ben', { suggestedScore: 8, isGraded: false }],
      ['cat', { suggestedScore: 2, isGraded: true }],
      ['dan', { suggestedScore: 6, isGraded: false }],
    ]);
    // Median of all suggestions (graded members' too) is 7: dan is 1 away, cat 5 but graded.
    expect([...findScoreOutliers(ids, scores, 10)]).toEqual([]);
    const atTheEdge = new Map([
      ['ann', { suggestedScore: 9, isGraded: false }],
      ['ben', { suggestedScore: 9, isGraded: false }],
      ['cat', { suggestedScore: 7, isGraded: false }],
    ]);
    expect([...findScoreOutliers(['ann', 'ben', 'cat'], atTheEdge, 10)]).toEqual([]);
    expect([...findScoreOutliers(['ann', 'ben', 'cat'], atTheEdge, 9.9)]).toEqual(['cat']);
  });

  it('flags nobody without suggestions', () => {
    const scores = new Map(ids.map((id) => [id, { suggestedScore: null, isGraded: false }]));
    expect(findScoreOutliers(ids, scores, 10).size).toBe(0);
  });
});
