/**
 * The Porter (1980) stemmer, so "denatures", "denatured" and "denaturation" meet on one stem.
 * Written out here rather than pulled from npm: it is small, stable and must never change under the
 * grader (a new stemmer version would silently move every stored judgement).
 */

const VOWELS = 'aeiou';

function isConsonant(word: string, index: number): boolean {
  const letter = word[index]!;
  if (VOWELS.includes(letter)) return false;
  if (letter === 'y') return index === 0 ? true : !isConsonant(word, index - 1);
  return true;
}

/** m in Porter's [C](VC)^m[V]: how many vowel-consonant runs the stem has. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  while (index < stem.length && isConsonant(stem, index)) index++;
  while (index < stem.length) {
    while (index < stem.length && !isConsonant(stem, index)) index++;
    if (index >= stem.length) break;
    while (index < stem.length && isConsonant(stem, index)) index++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const last = word.length - 1;
  return last >= 1 && word[last] === word[last - 1] && isConsonant(word, last);
}

/** *o: the stem ends consonant-vowel-consonant and the last is not w, x or y (hop, not hoy). */
function endsCvc(word: string): boolean {
  const last = word.length - 1;
  if (last < 2) return false;
  return (
    isConsonant(word, last - 2) &&
    !isConsonant(word, last - 1) &&
    isConsonant(word, last) &&
    !'wxy'.includes(word[last]!)
  );
}

function replaceSuffix(
  word: string,
  rules: readonly (readonly [string, string])[],
  condition: (stem: string) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      return condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

const STEP_2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP_3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP_4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
].sort((left, right) => right.length - left.length);

export function stemWord(input: string): string {
  let word = input.toLowerCase();
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;

  // Step 1a: plurals.
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (!word.endsWith('ss') && word.endsWith('s')) word = word.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  if (word.endsWith('eed')) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
  } else {
    const suffix = word.endsWith('ed') ? 'ed' : word.endsWith('ing') ? 'ing' : null;
    if (suffix && hasVowel(word.slice(0, -suffix.length))) {
      word = word.slice(0, -suffix.length);
      if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
      else if (endsWithDoubleConsonant(word) && !/[lsz]$/.test(word)) word = word.slice(0, -1);
      else if (measure(word) === 1 && endsCvc(word)) word += 'e';
    }
  }

  // Step 1c: y -> i after a vowel-bearing stem.
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = word.slice(0, -1) + 'i';

  word = replaceSuffix(word, STEP_2, (stem) => measure(stem) > 0);
  word = replaceSuffix(word, STEP_3, (stem) => measure(stem) > 0);

  // Step 4: drop derivational suffixes from long stems.
  for (const suffix of STEP_4) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      if (measure(stem) > 1 && (suffix !== 'ion' || /[st]$/.test(stem))) word = stem;
      break;
    }
  }

  // Step 5: a final -e and a double l.
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const stemMeasure = measure(stem);
    if (stemMeasure > 1 || (stemMeasure === 1 && !endsCvc(stem))) word = stem;
  }
  if (measure(word) > 1 && endsWithDoubleConsonant(word) && word.endsWith('l')) word = word.slice(0, -1);
  return word;
}
