import { normaliseText } from './text-analysis.ts';

/**
 * Numbers with units, as students write them: 3.03 s, 1.204e24, 6.02 × 10^23, 12.04 x 10^23,
 * -1/3, 41 860 J, 0.072 kW, 36 km/h, 25 °C, 20%. Values are converted to SI so 6000 mA meets 6 A,
 * and answers are compared with a relative tolerance, with partial outcomes for the mistakes a
 * human marker forgives in part (missing or wrong unit, sign, power of ten, over-rounding).
 */

/** Exponents of m, kg, s, A, K, mol; plus percent, which is its own "dimension". */
type Dimension = readonly [number, number, number, number, number, number, number];

const NONE: Dimension = [0, 0, 0, 0, 0, 0, 0];

interface UnitDefinition {
  factor: number;
  dimension: Dimension;
  /** Celsius: si = value + offset (only for a bare °C, never inside a compound unit). */
  offset?: number;
  isPrefixable?: boolean;
}

const dim = (m = 0, kg = 0, s = 0, a = 0, k = 0, mol = 0, percent = 0): Dimension => [m, kg, s, a, k, mol, percent];

const SYMBOLS: Record<string, UnitDefinition> = {
  m: { factor: 1, dimension: dim(1), isPrefixable: true },
  g: { factor: 1e-3, dimension: dim(0, 1), isPrefixable: true },
  s: { factor: 1, dimension: dim(0, 0, 1), isPrefixable: true },
  min: { factor: 60, dimension: dim(0, 0, 1) },
  h: { factor: 3600, dimension: dim(0, 0, 1) },
  hr: { factor: 3600, dimension: dim(0, 0, 1) },
  A: { factor: 1, dimension: dim(0, 0, 0, 1), isPrefixable: true },
  K: { factor: 1, dimension: dim(0, 0, 0, 0, 1) },
  '°C': { factor: 1, dimension: dim(0, 0, 0, 0, 1), offset: 273.15 },
  mol: { factor: 1, dimension: dim(0, 0, 0, 0, 0, 1), isPrefixable: true },
  N: { factor: 1, dimension: dim(1, 1, -2), isPrefixable: true },
  J: { factor: 1, dimension: dim(2, 1, -2), isPrefixable: true },
  W: { factor: 1, dimension: dim(2, 1, -3), isPrefixable: true },
  Pa: { factor: 1, dimension: dim(-1, 1, -2), isPrefixable: true },
  V: { factor: 1, dimension: dim(2, 1, -3, -1), isPrefixable: true },
  Ω: { factor: 1, dimension: dim(2, 1, -3, -2), isPrefixable: true },
  Hz: { factor: 1, dimension: dim(0, 0, -1), isPrefixable: true },
  C: { factor: 1, dimension: dim(0, 0, 1, 1), isPrefixable: true },
  L: { factor: 1e-3, dimension: dim(3), isPrefixable: true },
  '%': { factor: 1, dimension: dim(0, 0, 0, 0, 0, 0, 1) },
};

const PREFIXES: Record<string, number> = {
  G: 1e9,
  M: 1e6,
  k: 1e3,
  c: 1e-2,
  m: 1e-3,
  µ: 1e-6,
  μ: 1e-6,
  u: 1e-6,
  n: 1e-9,
};

/** Written-out units (case-insensitive), mapped to symbols. */
const WORDS: Record<string, string> = {
  metre: 'm',
  metres: 'm',
  meter: 'm',
  meters: 'm',
  kilometre: 'km',
  kilometres: 'km',
  kilometer: 'km',
  kilometers: 'km',
  centimetre: 'cm',
  centimetres: 'cm',
  centimeter: 'cm',
  centimeters: 'cm',
  millimetre: 'mm',
  millimetres: 'mm',
  millimeter: 'mm',
  millimeters: 'mm',
  second: 's',
  seconds: 's',
  sec: 's',
  secs: 's',
  millisecond: 'ms',
  milliseconds: 'ms',
  minute: 'min',
  minutes: 'min',
  mins: 'min',
  hour: 'h',
  hours: 'h',
  hrs: 'h',
  gram: 'g',
  grams: 'g',
  kilogram: 'kg',
  kilograms: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  newton: 'N',
  newtons: 'N',
  joule: 'J',
  joules: 'J',
  kilojoule: 'kJ',
  kilojoules: 'kJ',
  watt: 'W',
  watts: 'W',
  kilowatt: 'kW',
  kilowatts: 'kW',
  pascal: 'Pa',
  pascals: 'Pa',
  volt: 'V',
  volts: 'V',
  amp: 'A',
  amps: 'A',
  ampere: 'A',
  amperes: 'A',
  milliamp: 'mA',
  milliamps: 'mA',
  milliampere: 'mA',
  milliamperes: 'mA',
  ohm: 'Ω',
  ohms: 'Ω',
  kelvin: 'K',
  kelvins: 'K',
  celsius: '°C',
  moles: 'mol',
  mole: 'mol',
  hertz: 'Hz',
  coulomb: 'C',
  coulombs: 'C',
  litre: 'L',
  litres: 'L',
  liter: 'L',
  liters: 'L',
  percent: '%',
  'per cent': '%',
  kph: 'km/h',
  mph: 'mi/h',
  kmh: 'km/h',
  kmph: 'km/h',
};

const EXTRA_SYMBOLS: Record<string, UnitDefinition> = {
  mi: { factor: 1609.344, dimension: dim(1) },
};

interface ParsedUnit {
  factor: number;
  dimension: Dimension;
  offset: number;
}

function lookupSymbol(symbol: string): UnitDefinition | null {
  const direct = SYMBOLS[symbol] ?? EXTRA_SYMBOLS[symbol];
  if (direct) return direct;
  for (const [prefix, multiplier] of Object.entries(PREFIXES)) {
    if (symbol.length > prefix.length && symbol.startsWith(prefix)) {
      const base = SYMBOLS[symbol.slice(prefix.length)];
      if (base?.isPrefixable && (prefix !== 'c' || symbol === 'cm')) {
        return { factor: base.factor * multiplier, dimension: base.dimension };
      }
    }
  }
  const word = WORDS[symbol.toLowerCase()];
  if (word) return parseUnit(word) && { ...parseUnit(word)!, isPrefixable: false };
  // Students write KG, Kg, KM, MS: accept a case-insensitive match when it is unambiguous.
  const lower = symbol.toLowerCase();
  if (['kg', 'km', 'cm', 'mm', 'kj', 'kw', 'ma', 'kpa', 'ms'].includes(lower) && symbol !== lower) {
    const canonical = { kg: 'kg', km: 'km', cm: 'cm', mm: 'mm', kj: 'kJ', kw: 'kW', ma: 'mA', kpa: 'kPa', ms: 'ms' }[
      lower
    ]!;
    return lookupSymbol(canonical);
  }
  return null;
}

/**
 * Parses "m/s^2", "J/(kg·K)", "m s^-1", "km/h", "g/mol", "°C", "kilometres per hour".
 * Returns null for anything that is not entirely a unit (so "80 apples" has no unit).
 */
export function parseUnit(text: string): ParsedUnit | null {
  const source = text
    .trim()
    .replace(/\s+per\s+/gi, '/')
    .replace(/°\s*c\b/gi, '°C')
    .replace(/\bdegrees?\s+c(elsius)?\b/gi, '°C')
    .replace(/\bohm\b/gi, 'Ω');
  if (!source) return null;
  const wordUnit = WORDS[source.toLowerCase()];
  if (wordUnit && wordUnit !== source) return parseUnit(wordUnit);
  let factor = 1;
  const dimension = [...NONE];
  let offset = 0;
  let unitCount = 0;
  // Tokens: symbols with optional ^exponent, separated by / · * space, and a parenthesised denominator.
  const pattern = /\s*([/·*]?)\s*(\(?)\s*([A-Za-zµμΩ°%]+)(?:\^?(-?\d+))?\s*(\)?)/y;
  let inDenominatorGroup = false;
  let position = 0;
  while (position < source.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(source);
    if (!match || match[0].length === 0) return null;
    const [, separator, openParen, symbol, exponentText, closeParen] = match;
    position = pattern.lastIndex;
    if (separator === '/' && openParen) inDenominatorGroup = true;
    const isDenominator = separator === '/' || inDenominatorGroup;
    const definition = lookupSymbol(symbol!);
    if (!definition) return null;
    const exponent = (exponentText ? Number(exponentText) : 1) * (isDenominator ? -1 : 1);
    factor *= definition.factor ** exponent;
    for (let axis = 0; axis < dimension.length; axis++) dimension[axis]! += definition.dimension[axis]! * exponent;
    if (definition.offset) offset = definition.offset;
    unitCount++;
    if (closeParen) inDenominatorGroup = false;
  }
  // An offset unit (°C) only converts as a bare absolute temperature.
  if (unitCount > 1) offset = 0;
  return { factor, dimension: dimension as unknown as Dimension, offset };
}

export interface Quantity {
  /** The number as written (with its sign), before unit conversion. */
  value: number;
  /** SI value (absolute temperature for °C); equal to value when there is no unit. */
  si: number;
  unitText: string | null;
  dimension: Dimension | null;
  /** Written with °C or K: such values also compare as differences (20 °C of change = 20 K). */
  isTemperature: boolean;
  significantFigures: number;
  /** Where it was found, so callers can tell results (after the last "=") from intermediate values. */
  start: number;
  end: number;
  /** The text it came from, normalised. */
  text: string;
  /** Directly followed by letters that are not a unit ("6x", "6CO2"): a coefficient, not a result. */
  isCoefficient: boolean;
  /** Written as a whole number (no decimal point, exponent or fraction): counts and years match exactly. */
  isWholeNumber: boolean;
}

// mantissa (with optional thousands separators) + optional scientific part + optional fraction.
// A comma before one or two digits is a decimal comma ("3,0 m/s^2", "9,81"), as much of the world
// writes it; before three it separates thousands ("1,500").
const NUMBER_PATTERN =
  /(?<![\w.^'])([-+]?)((?:\d{1,3}(?:(?:,\d{3})+|(?: \d{3})+)(?!\d)|\d+)(?:\.\d+|,\d{1,2}(?![\d,]))?|\.\d+)(?:\s*(?:e|E)([-+]?\d+)|\s*[x×*·]\s*10\s*\^\s*\(?([-+]?\d+)\)?)?(?:\s*\/\s*(\d+)(?!\.?\d))?(?![\d'])/g;

const POWER_OF_TEN_PATTERN = /(?<![\w.^])([-+]?)10\s*\^\s*\(?([-+]?\d+)\)?/g;

const UNIT_CANDIDATE =
  /^[ \t]*((?:°\s*[CcFf]|[A-Za-zµμΩ%][A-Za-zµμΩ]*(?:\^-?\d+)?)(?:(?:\s*[/·*]\s*\(?|\s+per\s+|\s+)(?:[A-Za-zµμΩ°]+(?:\^-?\d+)?)\)?)*)/;

/** The mantissa as JavaScript reads numbers: thousands separators out, a decimal comma a point. */
function plainDigits(mantissa: string): string {
  return (/^\d+,\d{1,2}$/.test(mantissa) ? mantissa.replace(',', '.') : mantissa).replace(/[ ,]/g, '');
}

function countSignificantFigures(digits: string): number {
  const compact = plainDigits(digits).replace(/^[-+]/, '');
  const [whole = '', fraction = ''] = compact.split('.');
  const all = (whole + fraction).replace(/^0+/, '');
  return Math.max(1, fraction ? all.length : all.replace(/0+$/, '').length || 1);
}

/** Longest prefix of the text after a number that is a real unit ("m/s then ..." -> "m/s"). */
function readUnit(after: string): { unitText: string; unit: ParsedUnit; length: number } | null {
  const candidate = UNIT_CANDIDATE.exec(after);
  if (!candidate) return null;
  const words = candidate[1]!.split(/(?=\s+(?!per\b)[A-Za-z°])/);
  for (let count = words.length; count > 0; count--) {
    const unitText = words.slice(0, count).join('').trim();
    const unit = parseUnit(unitText);
    if (unit) {
      const leading = candidate[0].length - candidate[0].trimStart().length;
      return { unitText, unit, length: leading + words.slice(0, count).join('').length };
    }
  }
  return null;
}

/** Numbers written as words, zero to nineteen (also what a marking scheme counts with). */
export const SMALL_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1e6 };
const FRACTIONS: Record<string, number> = { half: 2, halves: 2, third: 3, thirds: 3, quarter: 4, quarters: 4 };
const NUMBER_WORD = new RegExp(
  `\\b(?:${[...Object.keys(SMALL_NUMBERS), ...Object.keys(TENS), ...Object.keys(SCALES), ...Object.keys(FRACTIONS), 'twice'].join('|')})\\b`,
  'i',
);

/**
 * "thirty-six" -> 36, "one hundred" -> 100, "minus one third" -> -1/3, "twice" -> 2, "half" -> 1/2.
 * A lone "one" stays a word ("one body", "one old strand") unless a unit or a scale follows.
 */
export function writeNumberWordsAsDigits(text: string): string {
  return text.replace(/\b(?:(?:minus|negative)\s+)?(?:[a-z]+(?:[-\s]+(?:and\s+)?[a-z]+)*)\b/gi, (phrase) => {
    if (!NUMBER_WORD.test(phrase)) return phrase;
    const originals = phrase.split(/[-\s]+/);
    const words = originals.map((word) => word.toLowerCase());
    const out: string[] = [];
    let index = 0;
    while (index < words.length) {
      let sign = '';
      let cursor = index;
      if ((words[cursor] === 'minus' || words[cursor] === 'negative') && cursor + 1 < words.length) {
        sign = '-';
        cursor++;
      }
      let total = 0;
      let current = 0;
      let used = 0;
      while (cursor < words.length) {
        const word = words[cursor]!;
        if (word in SMALL_NUMBERS) current += SMALL_NUMBERS[word]!;
        else if (word in TENS) current += TENS[word]!;
        else if (word in SCALES && (current > 0 || used === 0)) {
          total += Math.max(current, 1) * SCALES[word]!;
          current = 0;
        } else if (
          word === 'and' &&
          used > 0 &&
          cursor + 1 < words.length &&
          /^(?:[a-z]+)$/.test(words[cursor + 1]!) &&
          (words[cursor + 1]! in SMALL_NUMBERS || words[cursor + 1]! in TENS)
        ) {
          // "one hundred and six"
        } else break;
        used++;
        cursor++;
      }
      const value = total + current;
      const next = words[cursor];
      if (used > 0 && next && next in FRACTIONS) {
        out.push(`${sign}${value}/${FRACTIONS[next]}`);
        index = cursor + 1;
        continue;
      }
      if (used === 0 && (words[cursor] === 'half' || words[cursor] === 'twice')) {
        out.push(words[cursor] === 'half' ? `${sign}1/2` : `${sign}2`);
        index = cursor + 1;
        continue;
      }
      // A lone "one" (or "a") is an article far more often than a number.
      const isLoneOne = used === 1 && words[index + (sign ? 1 : 0)] === 'one';
      if (used > 0 && !isLoneOne) {
        out.push(`${sign}${value}`);
        index = cursor;
        continue;
      }
      out.push(originals[index]!);
      index++;
    }
    // Keep the original spelling (and hyphens) when nothing was a number.
    return out.join(' ') === originals.join(' ') ? phrase : out.join(' ');
  });
}

/**
 * `readNumberWords` is for answers ("ten metres per second"); reference texts keep words as words,
 * so "the pair acts on two objects" in a rubric does not become an expected value of 2.
 */
export function parseQuantities(input: string, options: { readNumberWords?: boolean } = {}): Quantity[] {
  const normalised = normaliseText(input);
  const text = (options.readNumberWords === false ? normalised : writeNumberWordsAsDigits(normalised))
    // "(a)" labels and list numbers are not quantities.
    // Tried only at the first line start of a run of blank lines (the lookbehind): from every one, each
    // try re-read the rest of the run, and 20,000 empty lines took seconds (decision 0128).
    .replace(
      /^(?<!\n[^\S\n]*\n)\s*(?:\(?[a-h]\)|\(?[ivx]+\)|\d+[.)](?!\d)|part\s+\w+[:.)]?|step\s+\d+[:.)]?)\s*/gim,
      (label) => ' '.repeat(label.length),
    )
    // Big-O notation names a growth rate, not a value: O(1) is not the number 1.
    .replace(/\bO\s*\([^()]*\)/g, (notation) => ' '.repeat(notation.length));
  const quantities: Quantity[] = [];
  const taken: [number, number][] = [];
  const overlaps = (start: number, end: number) => taken.some(([from, to]) => start < to && end > from);

  for (const match of text.matchAll(NUMBER_PATTERN)) {
    const [whole, sign = '', mantissa = '', exponentE, exponentTen, denominator] = match;
    const start = match.index;
    // "x^2", "t^2": exponents are notation, not quantities.
    if (text[start - 1] === '^' || /\^\s*$/.test(text.slice(Math.max(0, start - 3), start))) continue;
    const exponent = exponentE ?? exponentTen;
    // Through a string, so 6.02 x 10^23 is exactly 6.02e23 rather than 6.019999999999999e23.
    let value = Number(plainDigits(mantissa) + (exponent !== undefined ? `e${exponent}` : ''));
    // "10^23", "8.0^2": a power written out is its value.
    const power =
      exponent === undefined && denominator === undefined
        ? /^\s*\^\s*\(?([-+]?\d+)\)?/.exec(text.slice(start + whole.length))
        : null;
    if (power) value = value ** Number(power[1]);
    if (denominator !== undefined) {
      const divisor = Number(denominator);
      if (divisor === 0 || !/^\d+$/.test(mantissa) || !/^\d+$/.test(denominator)) continue;
      value /= divisor;
    }
    // "45 - 25": a minus after a value or a name is subtraction, not the sign of 25.
    const isBinaryMinus =
      sign === '-' && /(?:[\d)]|(?<![A-Za-z])[A-Za-z])\s*$/.test(text.slice(Math.max(0, start - 4), start));
    if (sign === '-' && !isBinaryMinus) value = -value;
    const end = start + whole.length + (power?.[0].length ?? 0);
    const after = text.slice(end);
    const unit = denominator === undefined ? readUnit(after) : null;
    const isCoefficient = !unit && /^[A-Za-z(]/.test(after);
    const si = unit ? value * unit.unit.factor + unit.unit.offset : value;
    quantities.push({
      value,
      si,
      unitText: unit?.unitText ?? null,
      dimension: unit?.unit.dimension ?? null,
      isTemperature: unit
        ? unit.unit.dimension[4] === 1 && unit.unit.dimension.every((d, i) => i === 4 || d === 0)
        : false,
      significantFigures: countSignificantFigures(mantissa),
      start,
      end: end + (unit?.length ?? 0),
      text,
      isCoefficient,
      isWholeNumber:
        /^\d[\d ,]*$/.test(plainDigits(mantissa)) && exponent === undefined && denominator === undefined && !power,
    });
    taken.push([start, end + (unit?.length ?? 0)]);
  }
  // A bare "10^23" (no mantissa) is also a number.
  for (const match of text.matchAll(POWER_OF_TEN_PATTERN)) {
    const start = match.index;
    const end = start + match[0].length;
    if (overlaps(start, end)) continue;
    const value = (match[1] === '-' ? -1 : 1) * 10 ** Number(match[2]);
    quantities.push({
      value,
      si: value,
      unitText: null,
      dimension: null,
      isTemperature: false,
      significantFigures: 1,
      start,
      end,
      text,
      isCoefficient: false,
      isWholeNumber: false,
    });
  }
  return quantities.sort((left, right) => left.start - right.start);
}

export type QuantityMatch =
  'exact' | 'rounded' | 'missing-unit' | 'wrong-unit' | 'sign-error' | 'power-of-ten' | 'none';

/** Credit for each outcome: what a careful marker usually keeps of an item's numeric result. */
export const MATCH_CREDIT: Record<QuantityMatch, number> = {
  exact: 1,
  rounded: 0.75,
  'missing-unit': 0.75,
  'wrong-unit': 0.5,
  'sign-error': 0.5,
  'power-of-ten': 0.4,
  none: 0,
};

export const RELATIVE_TOLERANCE = 0.02;

function isClose(actual: number, expected: number, tolerance = RELATIVE_TOLERANCE): boolean {
  if (expected === 0) return Math.abs(actual) < 1e-9;
  return Math.abs(actual - expected) <= tolerance * Math.abs(expected);
}

function sameDimension(left: Dimension, right: Dimension): boolean {
  return left.every((exponent, axis) => exponent === right[axis]);
}

/** Rounds to n significant figures: 22.7 -> 20 with one figure, 3.03 -> 3.0 with two. */
function roundToFigures(value: number, figures: number): number {
  if (value === 0) return 0;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const scale = 10 ** (magnitude - figures + 1);
  return Math.round(value / scale) * scale;
}

/** How an answer's quantity relates to an expected one (best outcome first). */
export function compareQuantity(actual: Quantity, expected: Quantity): QuantityMatch {
  const hasUnits = actual.dimension !== null && expected.dimension !== null;
  const unitsAgree = hasUnits && sameDimension(actual.dimension!, expected.dimension!);
  const bothTemperatures = actual.isTemperature && expected.isTemperature;

  // Whole numbers without units (counts, years, exact answers like 14) must match exactly: 1939 is
  // not "within 2%" of 1914. Absolute temperatures get an absolute tolerance (298 K vs 293 K is wrong).
  const isCountLike = actual.isWholeNumber && expected.isWholeNumber && !actual.dimension && !expected.dimension;
  const valueMatches = (candidate: number, target: number) =>
    isCountLike ? candidate === target : isClose(candidate, target);
  // 2% of an absolute temperature is 6 K: far too loose. The tolerance is 2% of the smaller of
  // the value and its distance from 0 °C, and at least 0.6 K (298 K for 298.15 K is right).
  const temperatureTolerance = Math.max(
    0.6,
    RELATIVE_TOLERANCE * Math.min(Math.abs(expected.si), Math.abs(expected.si - 273.15)),
  );
  const temperatureMatches = (candidate: number, target: number) =>
    Math.abs(candidate - target) <= temperatureTolerance;
  const siMatch = bothTemperatures
    ? temperatureMatches(actual.si, expected.si) || temperatureMatches(actual.value, expected.value)
    : valueMatches(actual.si, expected.si);

  if (unitsAgree && siMatch) return 'exact';
  if (expected.dimension === null && (valueMatches(actual.value, expected.si) || valueMatches(actual.si, expected.si)))
    return 'exact';
  if (actual.dimension === null && expected.dimension !== null) {
    if (valueMatches(actual.value, expected.si) || valueMatches(actual.value, expected.value)) return 'missing-unit';
  }
  if (
    hasUnits &&
    !unitsAgree &&
    (valueMatches(actual.value, expected.value) || valueMatches(actual.value, expected.si))
  )
    return 'wrong-unit';
  // Same kind of unit, same digits, different prefix: 22.7 A for 22.7 mA.
  if (hasUnits && unitsAgree && !bothTemperatures && valueMatches(actual.value, expected.value)) return 'wrong-unit';

  const comparableActual = unitsAgree ? actual.si : actual.value;
  const comparableExpected = unitsAgree ? expected.si : actual.dimension === null ? expected.si : expected.value;
  if (comparableExpected !== 0 && actual.significantFigures <= 3) {
    const rounded = roundToFigures(comparableExpected, actual.significantFigures);
    if (
      actual.significantFigures >= 1 &&
      isClose(comparableActual, rounded, 1e-6) &&
      !isClose(comparableActual, comparableExpected)
    ) {
      const relativeGap = Math.abs(comparableActual - comparableExpected) / Math.abs(comparableExpected);
      if (relativeGap <= 0.15)
        return actual.dimension === null && expected.dimension !== null ? 'missing-unit' : 'rounded';
    }
  }
  if (valueMatches(-comparableActual, comparableExpected) && comparableExpected !== 0) return 'sign-error';
  if (comparableActual !== 0 && comparableExpected !== 0) {
    const ratio = Math.log10(Math.abs(comparableActual / comparableExpected));
    const nearest = Math.round(ratio);
    if (nearest !== 0 && Math.abs(nearest) <= 6 && Math.abs(ratio - nearest) < 0.009) return 'power-of-ten';
  }
  return 'none';
}

/** Same value in SI (or same temperature difference): used to group "22.7 mA" with "0.0227 A". */
export function isEquivalentQuantity(left: Quantity, right: Quantity): boolean {
  return compareQuantity(left, right) === 'exact' || compareQuantity(right, left) === 'exact';
}

export function formatQuantity(quantity: Quantity): string {
  const magnitude = quantity.value === 0 ? 0 : Math.floor(Math.log10(Math.abs(quantity.value)));
  const figures = Math.max(4, quantity.significantFigures);
  const value =
    magnitude >= 6 || magnitude <= -5
      ? `${Number((quantity.value / 10 ** magnitude).toPrecision(figures))} × 10^${magnitude}`
      : String(Number(quantity.value.toPrecision(figures)));
  return quantity.unitText ? `${value} ${quantity.unitText}` : value;
}
