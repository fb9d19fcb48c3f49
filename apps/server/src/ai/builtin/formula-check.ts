import { parseQuantities } from './quantities.ts';
import { normaliseText } from './text-analysis.ts';

/**
 * Symbolic results judged by value, the way PrairieLearn's symbolic questions are: an answer's
 * "T = 2 pi sqrt(L/g)" is the solution's "T = 2π √(L / g)" when both sides agree at several
 * assignments of the symbols, however they are written ((L/g)^(1/2), 2π·sqrt(L)/sqrt(g)), and
 * "T = 2 pi sqrt(g/L)" is not. Anything this small grammar cannot read is "unknown", never wrong:
 * the word and meaning evidence then judges it as before (decision 0080).
 */

type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'symbol'; name: string }
  | { kind: 'negate'; operand: Expr }
  | { kind: 'binary'; operator: '+' | '-' | '*' | '/' | '^'; left: Expr; right: Expr }
  | { kind: 'call'; name: FunctionName; argument: Expr };

const FUNCTIONS = {
  sqrt: Math.sqrt,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log10,
} as const;
type FunctionName = keyof typeof FUNCTIONS;

/** Symbol names written as words (Greek letters): one symbol each, not a product of letters. */
const GREEK = new Set([
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'theta',
  'lambda',
  'mu',
  'omega',
  'phi',
  'rho',
  'sigma',
  'tau',
  'pi',
]);
const GREEK_LETTERS: Record<string, string> = {
  π: 'pi',
  θ: 'theta',
  ω: 'omega',
  τ: 'tau',
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  λ: 'lambda',
  μ: 'mu',
  ρ: 'rho',
  σ: 'sigma',
  φ: 'phi',
};

/** Short words that end a formula in a sentence ("T = 2 pi sqrt(L/g) so ..."), never symbols. */
const STOP_WORDS = new Set([
  'and',
  'so',
  'is',
  'of',
  'the',
  'as',
  'at',
  'in',
  'for',
  'to',
  'or',
  'by',
  'if',
  'we',
  'it',
]);

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'name'; name: string }
  | { kind: 'operator'; operator: '+' | '-' | '*' | '/' | '^' | '(' | ')' };

/** The formula's tokens, up to the first thing that is not formula (a word, a unit of text). */
function tokenize(text: string): Token[] {
  const source = normaliseText(text)
    .replace(/[πθωταβγδλμρσφ]/g, (letter) => ` ${GREEK_LETTERS[letter]} `)
    .replace(/√/g, ' sqrt ')
    .replace(/[×·⋅∙]/g, '*');
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const space = /^\s+/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    const number = /^(?:\d+(?:\.\d+)?|\.\d+)/.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]) });
      index += number[0].length;
      continue;
    }
    const operator = /^[-+*/^()]/.exec(rest);
    if (operator) {
      tokens.push({ kind: 'operator', operator: operator[0] as '+' });
      index += 1;
      continue;
    }
    const word = /^[A-Za-z]+(?:_[A-Za-z0-9]+)?'*/.exec(rest);
    if (!word) break;
    const name = word[0];
    const plain = name.replace(/'+$/, '');
    if (STOP_WORDS.has(plain.toLowerCase())) break;
    if (
      plain.toLowerCase() in FUNCTIONS ||
      GREEK.has(plain.toLowerCase()) ||
      plain.includes('_') ||
      plain.length === 1
    ) {
      const isFunction = plain.toLowerCase() in FUNCTIONS && !name.endsWith("'");
      tokens.push({ kind: 'name', name: isFunction || GREEK.has(plain.toLowerCase()) ? name.toLowerCase() : name });
    } else if (plain.length <= 3 && name === plain) {
      // "mgL", "gL": letters side by side are a product of one-letter symbols.
      for (const letter of plain) tokens.push({ kind: 'name', name: letter });
    } else {
      break;
    }
    index += name.length;
  }
  return tokens;
}

/** Recursive descent: sums, products (written or implied by juxtaposition), powers, calls. */
class Parser {
  private position = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Expr | null {
    const expression = this.sum();
    return expression && this.position === this.tokens.length ? expression : null;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isOperator(operator: string): boolean {
    const token = this.peek();
    return token?.kind === 'operator' && token.operator === operator;
  }

  private sum(): Expr | null {
    let left = this.product();
    while (left && (this.isOperator('+') || this.isOperator('-'))) {
      const operator = (this.tokens[this.position++] as { operator: '+' | '-' }).operator;
      const right = this.product();
      if (!right) return null;
      left = { kind: 'binary', operator, left, right };
    }
    return left;
  }

  private startsFactor(): boolean {
    const token = this.peek();
    return token !== undefined && (token.kind !== 'operator' || token.operator === '(');
  }

  private product(): Expr | null {
    let left = this.unary();
    while (left) {
      if (this.isOperator('*') || this.isOperator('/')) {
        const operator = (this.tokens[this.position++] as { operator: '*' | '/' }).operator;
        const right = this.unary();
        if (!right) return null;
        left = { kind: 'binary', operator, left, right };
      } else if (this.startsFactor()) {
        const right = this.power();
        if (!right) return null;
        left = { kind: 'binary', operator: '*', left, right };
      } else {
        break;
      }
    }
    return left;
  }

  private unary(): Expr | null {
    if (this.isOperator('-')) {
      this.position++;
      const operand = this.unary();
      return operand ? { kind: 'negate', operand } : null;
    }
    if (this.isOperator('+')) {
      this.position++;
      return this.unary();
    }
    return this.power();
  }

  private power(): Expr | null {
    const base = this.atom();
    if (!base || !this.isOperator('^')) return base;
    this.position++;
    const exponent = this.unary();
    return exponent ? { kind: 'binary', operator: '^', left: base, right: exponent } : null;
  }

  private atom(): Expr | null {
    const token = this.tokens[this.position++];
    if (!token) return null;
    if (token.kind === 'number') return { kind: 'number', value: token.value };
    if (token.kind === 'operator') {
      if (token.operator !== '(') return null;
      const inner = this.sum();
      if (!inner || !this.isOperator(')')) return null;
      this.position++;
      return inner;
    }
    if (token.name in FUNCTIONS) {
      const argument = this.isOperator('(') ? this.atom() : this.power();
      return argument ? { kind: 'call', name: token.name as FunctionName, argument } : null;
    }
    if (token.name === 'pi') return { kind: 'number', value: Math.PI };
    return { kind: 'symbol', name: token.name };
  }
}

export function parseFormula(text: string): Expr | null {
  const tokens = tokenize(text);
  return tokens.length > 0 ? new Parser(tokens).parse() : null;
}

/**
 * A side that is a formula, not a value: "3.0 m/s^2" and "96 m" are quantities (quantities.ts
 * judges them), whose units this grammar would take for symbols.
 */
function readFormula(side: string): Expr | null {
  if (parseQuantities(side).some((quantity) => quantity.dimension !== null)) return null;
  return parseFormula(side);
}

function symbolsOf(expression: Expr, into = new Set<string>()): Set<string> {
  if (expression.kind === 'symbol') into.add(expression.name);
  else if (expression.kind === 'negate') symbolsOf(expression.operand, into);
  else if (expression.kind === 'call') symbolsOf(expression.argument, into);
  else if (expression.kind === 'binary') {
    symbolsOf(expression.left, into);
    symbolsOf(expression.right, into);
  }
  return into;
}

function evaluate(expression: Expr, values: ReadonlyMap<string, number>): number {
  switch (expression.kind) {
    case 'number':
      return expression.value;
    case 'symbol':
      return values.get(expression.name) ?? Number.NaN;
    case 'negate':
      return -evaluate(expression.operand, values);
    case 'call':
      return FUNCTIONS[expression.name](evaluate(expression.argument, values));
    case 'binary': {
      const left = evaluate(expression.left, values);
      const right = evaluate(expression.right, values);
      if (expression.operator === '+') return left + right;
      if (expression.operator === '-') return left - right;
      if (expression.operator === '*') return left * right;
      if (expression.operator === '/') return left / right;
      return left ** right;
    }
  }
}

/** Fixed points, so grading stays deterministic: positive, unequal, away from 0, 1 and each other. */
const ASSIGNMENTS = [
  [1.37, 2.11, 0.73, 1.91, 2.63, 0.59, 1.17, 3.07],
  [2.41, 0.83, 1.63, 0.67, 1.29, 2.87, 0.97, 1.53],
  [0.61, 1.79, 2.33, 1.07, 0.89, 1.43, 2.71, 0.79],
];

/**
 * Whether two formulas have the same value wherever both are defined: true, false, or null when
 * it cannot be told (nothing evaluates).
 */
export function sameFormula(left: Expr, right: Expr): boolean | null {
  const symbols = [...new Set([...symbolsOf(left), ...symbolsOf(right)])].sort();
  let compared = 0;
  for (const assignment of ASSIGNMENTS) {
    const values = new Map(
      symbols.map((symbol, index) => [symbol, assignment[index % assignment.length]! + index * 0.01]),
    );
    const a = evaluate(left, values);
    const b = evaluate(right, values);
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    compared++;
    if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b))) return false;
  }
  return compared > 0 ? true : null;
}

/** A symbolic result the item asks for: "T = 2 pi sqrt(L / g)" — the symbol and its formula. */
export interface FormulaTarget {
  symbol: string;
  formula: Expr;
}

const withGreekNames = (text: string) =>
  normaliseText(text).replace(/[πθωταβγδλμρσφ]/g, (letter) => ` ${GREEK_LETTERS[letter]} `);

const isSymbolName = (name: string) => {
  const plain = name.replace(/'+$/, '');
  return (
    (plain.length === 1 || GREEK.has(plain.toLowerCase()) || /^[A-Za-z]+_[A-Za-z0-9]+$/.test(plain)) && plain !== 'pi'
  );
};

/**
 * The symbol an equation's left side names: one symbol at its end ("the period is T", "(c) T",
 * "tau", "theta''", "v_0"), after words or nothing — never a product such as "I theta''".
 */
function symbolOf(side: string): string | null {
  const text = withGreekNames(side).trimEnd();
  const last = /([A-Za-z]+(?:_[A-Za-z0-9]+)?'*)$/.exec(text);
  if (!last || !isSymbolName(last[1]!)) return null;
  const before = text
    .slice(0, last.index)
    .replace(/^\s*\(?[a-h]\)\s*/i, '')
    .trim();
  const previous = /(\S+)$/.exec(before)?.[1] ?? '';
  const isAfterWords =
    before === '' ||
    /[:(]$/.test(before) ||
    (/^[A-Za-z]{2,}$/.test(previous) && !isSymbolName(previous) && !(previous.toLowerCase() in FUNCTIONS));
  if (!isAfterWords) return null;
  const name = last[1]!;
  return GREEK.has(name.replace(/'+$/, '').toLowerCase()) ? name.toLowerCase() : name;
}

/** Equations of a text, cut into clauses: each as its sides, the last side being the result. */
function equations(text: string): string[][] {
  return normaliseText(text)
    .split(/[;,\n]|\.(?!\d)|\s(?:so|hence|thus|then|where|with|and|gives)\s|\s(?=\(?[a-h]\)\s)/i)
    .filter((clause) => clause.includes('='))
    .map((clause) => clause.split('='));
}

/**
 * The symbolic results an item asks for: the last side of each equation whose left side is one
 * symbol, when it has symbols in it (a number is for quantities.ts) and reads as a formula.
 */
export function formulaTargets(itemText: string): FormulaTarget[] {
  const targets: FormulaTarget[] = [];
  for (const sides of equations(itemText)) {
    const symbol = symbolOf(sides[0]!);
    const formula = readFormula(sides.at(-1)!);
    if (!symbol || !formula || symbolsOf(formula).size === 0) continue;
    if (!targets.some((target) => target.symbol === symbol)) targets.push({ symbol, formula });
  }
  return targets;
}

export type FormulaOutcome = 'right' | 'wrong' | 'unknown';

/**
 * What the answer writes for the symbol: right when any side of its equations for that symbol
 * agrees with the target's formula, wrong when it writes a readable formula for it and none
 * agrees, unknown when it writes none (said in words, or not at all).
 */
export function judgeFormula(target: FormulaTarget, answerText: string): FormulaOutcome {
  let isWrong = false;
  for (const sides of equations(answerText)) {
    if (symbolOf(sides[0]!) !== target.symbol) continue;
    for (const side of sides.slice(1)) {
      const formula = readFormula(side);
      if (!formula) continue;
      const same = sameFormula(formula, target.formula);
      if (same === true) return 'right';
      if (same === false && side === sides.at(-1)) isWrong = true;
    }
  }
  return isWrong ? 'wrong' : 'unknown';
}
