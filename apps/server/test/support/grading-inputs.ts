import type { GradingInput } from '../../src/ai/grader-types.ts';

/** A three-item question with a prose solution, shared by the built-in grader's tests. */
export const PHOTOSYNTHESIS: GradingInput = {
  questionText: 'Describe the process of photosynthesis, including its inputs and products.',
  solutionText:
    'Photosynthesis takes place in the chloroplasts. Chlorophyll absorbs light energy, which is used to convert carbon dioxide and water into glucose. Oxygen is released as a by-product.',
  points: 6,
  rubricItems: [
    {
      id: 'item-1',
      criterion: 'Location and light absorption',
      points: 2,
      guidance: 'Occurs in chloroplasts; chlorophyll absorbs light energy.',
    },
    { id: 'item-2', criterion: 'Inputs', points: 2, guidance: 'Carbon dioxide and water.' },
    { id: 'item-3', criterion: 'Products', points: 2, guidance: 'Glucose is produced and oxygen is released.' },
  ],
  answerText: '',
};

/** A one-item question with a prose solution and no answer yet. */
export const MIGRATION: GradingInput = {
  questionText: 'Why do animals migrate?',
  solutionText:
    'Migration is an inherited behaviour that lets animals reach food and breeding grounds when the seasons change.',
  points: 4,
  rubricItems: [
    {
      id: 'item-1',
      criterion: 'Explains migration',
      points: 4,
      guidance: 'inherited behaviour; food; breeding; seasons',
    },
  ],
  answerText: '',
};
