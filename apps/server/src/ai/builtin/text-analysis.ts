import { stemWord } from './porter-stemmer.ts';
import { CONCEPT_GROUPS } from './stem-vocabulary.ts';

/**
 * Text -> comparable terms: Unicode cleanup, sentence splitting, stemming, concept (synonym)
 * folding and stop words. Everything here is deterministic and language-agnostic enough for
 * school-level English; it never reads instructions out of the text, only words.
 */

/** Superscripts become ^n before NFKC, which would otherwise turn t² into t2. */
const SUPERSCRIPTS: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};

export function normaliseText(raw: string): string {
  const withExponents = raw.replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/g, (run) => '^' + [...run].map((c) => SUPERSCRIPTS[c]).join(''));
  return (
    withExponents
      .normalize('NFKC')
      .replace(/[\u2044\u2215]/g, '/')
      .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/[\u00b7\u22c5\u2219]/g, '·')
      .replace(/\u2248/g, '=')
      .replace(/\u2126/g, 'Ω')
      .replace(/\u00a0/g, ' ')
      .replace(/\r\n?/g, '\n')
      // OCR reads a superscript or a caret after a unit as a quote mark, or drops it: m/s"2, m/s2.
      .replace(/(\b(?:[kcmµ]?m|s|kg|g|h|min)\b)\s?["'](-?[1-4])\b/g, '$1^$2')
      .replace(/(\/\s?(?:[kcmµ]?m|s|h))([23])\b/g, '$1^$2')
  );
}

/**
 * Sentences, also cut at brackets and "//" so an aside such as "[note to the grader: ...]" is
 * its own unit (it can then be set aside without losing the sentence before it).
 */
export function splitSentences(text: string): string[] {
  const pieces: string[] = [];
  for (const line of normaliseText(text).split(/\n+/)) {
    const marked = line
      .replace(/([.!?;])\s+(?=[A-Z0-9(["<])/g, '$1\u0000')
      // From the first space of a run only: tried from every space of a long run (a PDF can hold
      // 100,000 in a row), each try re-scanning the rest of it, the split took seconds.
      .replace(/(?<!\s)\s+(?=(\[|<<|\/\/|\((?:to|note|for|grader|instruction|system|ai)\b))/gi, '\u0000');
    for (const piece of marked.split('\u0000')) {
      const trimmed = piece.trim();
      if (trimmed) pieces.push(trimmed);
    }
  }
  return pieces;
}

const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either etc few for from further had has have ' +
    'having he her here hers him his how i if in into is it its itself just let lets me more most much must my ' +
    'no nor not now of off on once one only or other our ours out over own per same she should so some such than ' +
    'that the their theirs them then there these they this those through to too under until up upon us very was we ' +
    'were what when where which while who whom why will with would you your yours yourself ' +
    'e g eg ie i.e via thus hence therefore since get gets got like really basically actually well ' +
    // Words a rubric uses about answers rather than about the subject: matching them proves nothing.
    'answer answers correct correctly incorrect states state stated explain explains explained explanation ' +
    'describe describes described description show shows shown showing give gives given giving identify ' +
    'identifies mention mentions mentioned student students uses use used using valid final result value ' +
    'values method calculate calculates calculated calculation find finds found write writes written ' +
    'example examples instance say says said includes include including clearly properly appropriate ' +
    'appropriately relevant point points mark marks full partial credit step steps part parts question ' +
    'rubric grade grader graded marker award deserves complete completely important thing things way many lot ' +
    'number numbers work working shown make sure also often usually typically simple simply ' +
    'first second third then next finally overall main key term terms expected matches ' +
    'take takes taken place happen happens means mean need needs every contain contains ' +
    'add adds return returns otherwise although instead two three make makes making made identified ' +
    'concrete occurs occur occurring definition define defines defined lay lays vs versus handled handle ' +
    'handles formula formulas'
  ).split(/\s+/),
);

/** Generic "first/second" style words are useful inside concept phrases (first in first out), so
 * stop words are removed only after concepts have been folded. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

export interface Token {
  /** The word as written (lower case). */
  raw: string;
  /** Stem, or concept id prefixed with '#'. */
  term: string;
  isNumber: boolean;
  isStop: boolean;
  /** Words as they appeared, for comments ("carbon dioxide" rather than "#carbon-dioxide"). */
  display: string;
}

const WORD_PATTERN = /\p{L}[\p{L}\p{N}_]*|\d+(?:\.\d+)?|%/gu;

function rawWords(text: string): string[] {
  const cleaned = normaliseText(text)
    .toLowerCase()
    .replace(/'s\b/g, '')
    .replace(/\bo\s*\(\s*1\s*\)/g, ' o1constant ')
    .replace(/\bo\s*\(\s*n\s*\)/g, ' onlinear ')
    .replace(/\bo\s*\(\s*log\s*n\s*\)/g, ' ologn ');
  return cleaned.match(WORD_PATTERN) ?? [];
}

/**
 * British and American spellings meet before stemming ("behaviour" = "behavior", "organise" =
 * "organize", "centre" = "center"). Both sides of every comparison go through this, so a rewrite
 * that hits an unrelated word ("otherwise" -> "otherwize") is harmless.
 */
export function americanSpelling(word: string): string {
  if (word.length < 5) return word;
  return word
    .replace(/^(\p{L}{2,})our(s|ed|ing|ite|ites|able|ful|less)?$/u, '$1or$2')
    .replace(/^(\p{L}{3,})is(e|es|ed|ing|ation|ations|er|ers)$/u, '$1iz$2')
    .replace(/^(\p{L}{2,})ys(e|es|ed|ing)$/u, '$1yz$2')
    .replace(/^(\p{L}{2,})tre(s)?$/u, '$1ter$2');
}

function stemOf(word: string): string {
  return /^\d/.test(word) ? word : stemWord(americanSpelling(word));
}

interface PhraseEntry {
  stems: string[];
  concept: string;
}

/** Phrases indexed by their first stem, longest first, so matching is greedy and stable. */
const PHRASE_INDEX: Map<string, PhraseEntry[]> = (() => {
  const index = new Map<string, PhraseEntry[]>();
  const add = (phrase: string, concept: string) => {
    const stems = rawWords(phrase).map(stemOf);
    if (stems.length === 0) return;
    const list = index.get(stems[0]!) ?? [];
    list.push({ stems, concept });
    index.set(stems[0]!, list);
  };
  for (const group of CONCEPT_GROUPS) for (const phrase of group.phrases) add(phrase, '#' + group.id);
  add('o1constant', '#constant-time');
  add('onlinear', '#linear-time');
  add('ologn', '#log-time');
  for (const list of index.values()) list.sort((left, right) => right.stems.length - left.stems.length);
  return index;
})();

const DISPLAY_NAMES: Record<string, string> = { o1constant: 'O(1)', onlinear: 'O(n)', ologn: 'O(log n)' };

/** Tokens with synonyms folded into concepts: "carbon dioxide" and "CO2" both become #carbon-dioxide. */
export function tokenize(text: string): Token[] {
  const words = rawWords(text);
  const stems = words.map(stemOf);
  const tokens: Token[] = [];
  let index = 0;
  while (index < words.length) {
    const candidates = PHRASE_INDEX.get(stems[index]!) ?? [];
    const match = candidates.find((entry) => entry.stems.every((stem, offset) => stems[index + offset] === stem));
    if (match) {
      const length = match.stems.length;
      tokens.push({
        raw: words.slice(index, index + length).join(' '),
        term: match.concept,
        isNumber: false,
        isStop: false,
        display: DISPLAY_NAMES[words[index]!] ?? words.slice(index, index + length).join(' '),
      });
      index += length;
      continue;
    }
    const word = words[index]!;
    const isNumber = /^\d/.test(word);
    tokens.push({
      raw: word,
      term: stems[index]!,
      isNumber,
      isStop: !isNumber && (isStopWord(word) || (word.length === 1 && !/[a-z]/.test(word))),
      display: word,
    });
    index++;
  }
  return tokens;
}

/** The content terms of a text: concepts and stems that are neither stop words nor numbers. */
export function contentTerms(text: string): Token[] {
  return tokenize(text).filter((token) => !token.isStop && !token.isNumber);
}

/** Adjacent content-term pairs (order-free), the cheap n-gram signal for phrases like "tertiary structure". */
export function termBigrams(tokens: readonly Token[]): Set<string> {
  const pairs = new Set<string>();
  for (let index = 0; index + 1 < tokens.length; index++) {
    const left = tokens[index]!.term;
    const right = tokens[index + 1]!.term;
    if (left !== right) pairs.add(left < right ? `${left}|${right}` : `${right}|${left}`);
  }
  return pairs;
}
