/**
 * Synonyms and abbreviations for common school and first-year STEM, economics and history words.
 * Each group becomes one concept term, so "CO2" meets "carbon dioxide" and "LIFO" meets "last in,
 * first out" without embeddings. Groups are deliberately narrow: a group that is too broad (e.g.
 * "push" = "force", which breaks stacks) rewards answers for words that mean something else.
 * The first phrase is how the concept is named in comments.
 */
export interface ConceptGroup {
  id: string;
  phrases: readonly string[];
}

export const CONCEPT_GROUPS: readonly ConceptGroup[] = [
  // Chemistry and biology
  { id: 'carbon-dioxide', phrases: ['carbon dioxide', 'co2'] },
  { id: 'water', phrases: ['water', 'h2o'] },
  { id: 'oxygen', phrases: ['oxygen', 'o2', 'oxygen gas'] },
  { id: 'glucose', phrases: ['glucose', 'sugar', 'sugars', 'c6h12o6'] },
  { id: 'dna', phrases: ['dna', 'deoxyribonucleic acid'] },
  { id: 'rna', phrases: ['rna', 'ribonucleic acid'] },
  { id: 'atp', phrases: ['atp', 'adenosine triphosphate'] },
  { id: 'chlorophyll', phrases: ['chlorophyll', 'green pigment', 'pigment'] },
  { id: 'light', phrases: ['light energy', 'sunlight', 'light', 'solar energy', 'energy from the sun'] },
  { id: 'hydrogen-bond', phrases: ['hydrogen bond', 'h bond', 'h-bond', 'hydrogen bonding'] },
  { id: 'enzyme', phrases: ['enzyme'] },
  { id: 'substrate', phrases: ['substrate'] },
  { id: 'active-site', phrases: ['active site'] },
  { id: 'denature', phrases: ['denature', 'denatured', 'denaturation'] },
  {
    id: 'unwind',
    phrases: ['unwind', 'unwinds', 'unzip', 'unzips', 'separate the strands', 'separates the two strands'],
  },
  { id: 'helicase', phrases: ['helicase', 'unwinding enzyme'] },
  { id: 'polymerase', phrases: ['dna polymerase', 'polymerase', 'copying enzyme'] },
  { id: 'primer', phrases: ['rna primer', 'primer', 'starter sequence'] },
  { id: 'okazaki', phrases: ['okazaki fragments', 'okazaki fragment', 'short segments', 'fragments'] },
  {
    id: 'semi-conservative',
    phrases: [
      'semi-conservative',
      'semiconservative',
      'one old and one new',
      'one original and one new',
      'one parent strand',
    ],
  },
  { id: 'complementary', phrases: ['complementary', 'pair up', 'pairs with', 'matching'] },
  { id: 'nucleotide', phrases: ['nucleotide', 'nucleotides'] },
  { id: 'mitochondria', phrases: ['mitochondria', 'mitochondrion'] },
  { id: 'molecule', phrases: ['molecule', 'molecules', 'particles'] },
  { id: 'mole', phrases: ['mole', 'moles', 'mol', 'amount of substance'] },
  {
    id: 'avogadro',
    phrases: ["avogadro's number", 'avogadro constant', "avogadro's constant", 'avogadro number', 'n_a'],
  },
  { id: 'molar-mass', phrases: ['molar mass', 'relative molecular mass', 'formula mass'] },
  // Physics
  { id: 'speed', phrases: ['speed', 'velocity'] },
  { id: 'acceleration', phrases: ['acceleration', 'accelerate', 'accelerates'] },
  { id: 'kinetic-energy', phrases: ['kinetic energy', 'ke', 'e_k'] },
  { id: 'potential-energy', phrases: ['potential energy', 'gravitational potential energy', 'gpe'] },
  { id: 'voltage', phrases: ['voltage', 'potential difference', 'p.d.', 'pd', 'emf', 'electromotive force'] },
  { id: 'current', phrases: ['current', 'electric current', 'amperage'] },
  {
    id: 'equivalent-resistance',
    phrases: ['equivalent resistance', 'total resistance', 'combined resistance', 'r_eq', 'req', 'r_total'],
  },
  { id: 'ohms-law', phrases: ["ohm's law", 'ohms law'] },
  { id: 'specific-heat', phrases: ['specific heat capacity', 'specific heat', 'shc'] },
  {
    id: 'temperature-change',
    phrases: ['temperature change', 'change in temperature', 'temperature difference', 'delta t', 'δt'],
  },
  { id: 'equal-magnitude', phrases: ['equal in magnitude', 'same magnitude', 'same size', 'same strength', 'equal'] },
  { id: 'opposite', phrases: ['opposite direction', 'opposite', 'reverse direction', 'reverse'] },
  { id: 'body', phrases: ['body', 'bodies', 'object', 'objects'] },
  { id: 'gravity', phrases: ['gravity', 'gravitational acceleration', 'acceleration due to gravity', 'free fall'] },
  { id: 'square-root', phrases: ['square root', 'sqrt'] },
  { id: 'half', phrases: ['half', 'one half'] },
  { id: 'squared', phrases: ['squared', 'square'] },
  // Mathematics
  { id: 'derivative', phrases: ['derivative', 'differentiate', 'differentiation', 'differentiating', 'derive'] },
  { id: 'gradient', phrases: ['gradient', 'slope'] },
  { id: 'stationary-point', phrases: ['stationary point', 'turning point', 'critical point'] },
  { id: 'power-rule', phrases: ['power rule'] },
  // Computer science
  {
    id: 'lifo',
    phrases: ['lifo', 'last in first out', 'last-in first-out', 'last in, first out', 'last-in, first-out'],
  },
  {
    id: 'fifo',
    phrases: ['fifo', 'first in first out', 'first-in first-out', 'first in, first out', 'first-in, first-out'],
  },
  { id: 'bfs', phrases: ['breadth-first search', 'breadth first search', 'bfs', 'breadth-first'] },
  { id: 'dfs', phrases: ['depth-first search', 'depth first search', 'dfs', 'depth-first'] },
  { id: 'constant-time', phrases: ['constant time', 'o(1)', 'o 1'] },
  { id: 'linear-time', phrases: ['linear time', 'o(n)'] },
  { id: 'log-time', phrases: ['logarithmic time', 'o(log n)'] },
  { id: 'hash-table', phrases: ['hash table', 'hash map', 'hashmap', 'hashtable', 'associative array', 'dictionary'] },
  { id: 'hash-function', phrases: ['hash function', 'hashing function', 'hashing'] },
  { id: 'bucket', phrases: ['bucket', 'buckets', 'slot', 'slots'] },
  { id: 'collision', phrases: ['collision', 'collisions', 'clash', 'same index', 'same slot', 'same bucket'] },
  {
    id: 'chaining',
    phrases: ['separate chaining', 'chaining', 'chain', 'linked list', 'list per slot', 'list per bucket'],
  },
  {
    id: 'open-addressing',
    phrases: ['open addressing', 'linear probing', 'probing', 'probe', 'next free slot', 'next empty slot'],
  },
  { id: 'key-value', phrases: ['key-value', 'key/value', 'key value', 'keys to values', 'key value pairs'] },
  { id: 'function', phrases: ['function', 'procedure', 'subroutine', 'method call'] },
  { id: 'calls-itself', phrases: ['calls itself', 'invokes itself', 'call itself', 'invoke itself', 'calling itself'] },
  {
    id: 'base-case',
    phrases: [
      'base case',
      'terminating condition',
      'stopping condition',
      'stopping case',
      'termination condition',
      'stop condition',
    ],
  },
  { id: 'cpu', phrases: ['cpu', 'central processing unit', 'processor'] },
  { id: 'ram', phrases: ['ram', 'random access memory', 'main memory'] },
  { id: 'undo', phrases: ['undo'] },
  { id: 'call-stack', phrases: ['call stack', 'function call stack', 'recursion stack'] },
  // Economics
  {
    id: 'choice',
    phrases: ['choice', 'choices', 'choose', 'chooses', 'choosing', 'chose', 'decision', 'decide', 'decides'],
  },
  { id: 'opportunity-cost', phrases: ['opportunity cost'] },
  {
    id: 'next-best-alternative',
    phrases: ['next best alternative', 'best alternative', 'next best option', 'best option', 'next best'],
  },
  {
    id: 'forgone',
    phrases: [
      'forgone',
      'foregone',
      'forgo',
      'forego',
      'given up',
      'give up',
      'gives up',
      'sacrificed',
      'pass up',
      'passed up',
      'missing out',
      'miss out',
    ],
  },
  { id: 'price-elasticity', phrases: ['price elasticity of demand', 'ped', 'price elasticity'] },
  { id: 'responsiveness', phrases: ['responsiveness', 'responsive', 'sensitivity'] },
  { id: 'percentage-change', phrases: ['percentage change', 'percent change', '% change', 'per cent change'] },
  { id: 'quantity-demanded', phrases: ['quantity demanded', 'qd', 'demand'] },
  { id: 'inelastic', phrases: ['inelastic', 'price inelastic', 'relatively inelastic'] },
  { id: 'scarcity', phrases: ['scarcity', 'scarce', 'limited resources'] },
  // History
  { id: 'ww1', phrases: ['first world war', 'world war one', 'world war i', 'world war 1', 'ww1', 'wwi', 'great war'] },
  {
    id: 'militarism',
    phrases: ['militarism', 'arms race', 'arms build-up', 'arms buildup', 'military build-up', 'naval race'],
  },
  {
    id: 'alliance',
    phrases: ['alliance', 'alliances', 'alliance system', 'treaty', 'treaties', 'bloc', 'blocs', 'entente'],
  },
  { id: 'imperialism', phrases: ['imperialism', 'empire', 'empires', 'colonies', 'colonial', 'colonialism', 'colony'] },
  {
    id: 'nationalism',
    phrases: ['nationalism', 'nationalist', 'nationalists', 'patriotic', 'patriotism', 'national pride'],
  },
  { id: 'assassination', phrases: ['assassination', 'assassinated', 'murdered', 'murder', 'shot', 'killed'] },
  {
    id: 'franz-ferdinand',
    phrases: ['archduke franz ferdinand', 'franz ferdinand', 'archduke', 'heir to the austro-hungarian throne'],
  },
  // General process verbs that students paraphrase freely
  {
    id: 'produce',
    phrases: ['produce', 'produces', 'form', 'forms', 'formed', 'create', 'creates', 'synthesise', 'synthesize'],
  },
  {
    id: 'release',
    phrases: [
      'release',
      'released',
      'give off',
      'given off',
      'gives off',
      'giving off',
      'emit',
      'by-product',
      'waste product',
    ],
  },
  { id: 'absorb', phrases: ['absorb', 'absorbs', 'capture', 'captures', 'trap', 'traps'] },
  { id: 'convert', phrases: ['convert', 'converts', 'turn into', 'turned into', 'turns into', 'transform', 'combine'] },
  {
    id: 'decrease',
    phrases: [
      'decrease',
      'decreases',
      'fall',
      'falls',
      'drop',
      'drops',
      'reduce',
      'reduces',
      'reducing',
      'decline',
      'slows',
      'slow down',
      'slows down',
    ],
  },
  { id: 'increase', phrases: ['increase', 'increases', 'rise', 'rises', 'goes up'] },
  { id: 'break', phrases: ['break', 'breaks', 'broken', 'breaking', 'disrupt'] },
  { id: 'shape', phrases: ['shape', 'three-dimensional shape', '3d shape', 'conformation'] },
  { id: 'bind', phrases: ['bind', 'binds', 'fit', 'fits'] },
];
