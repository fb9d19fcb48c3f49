import { parseQuantities, formatQuantity, type Quantity } from './quantities.ts';
import {
  statedAllocation,
  statedPointsIn,
  withNotesOnTheirLines,
  withoutSchemeFrames,
  withoutStatedPoints,
} from './stated-points.ts';
import { contentTerms, normaliseText, splitSentences } from './text-analysis.ts';

/**
 * Drafts rubric items from the structure of a worked solution: explicit parts ((a), Part 1, i)),
 * numbered or ordered steps, and the final answer. Points always add up exactly to the question's
 * points (to the hundredth; quarter-point grids are exact in binary floating point). Points the
 * instructor wrote beside a part or step ("[2 marks]", in the solution or the question) are the
 * split (stated-points.ts); otherwise parts weigh the same and steps by how much they say.
 */

export interface DraftedItem {
  criterion: string;
  guidance: string;
  points: number;
}

interface Segment {
  label: string | null;
  text: string;
  isFinalAnswer: boolean;
  /** From a numbered or "Step n" list: steps of one method rather than separate parts. */
  isOrderedStep?: boolean;
}

type MarkerFamily = 'letter' | 'roman' | 'number' | 'part' | 'step';

interface Marker {
  family: MarkerFamily;
  ordinal: number;
  label: string;
  start: number;
  end: number;
}

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x'];

function ordinalOf(family: MarkerFamily, key: string): number {
  const lower = key.toLowerCase();
  if (family === 'roman') return ROMAN.indexOf(lower) + 1;
  if (/^\d+$/.test(lower)) return Number(lower);
  if (/^[a-z]$/.test(lower)) return lower.charCodeAt(0) - 96;
  return ROMAN.indexOf(lower) + 1;
}

/** Every place that looks like a part or step label; families are told apart by their shape. */
function findMarkers(text: string): Marker[] {
  const markers: Marker[] = [];
  const patterns: [MarkerFamily, RegExp][] = [
    ['part', /(?:^|(?<=[\s.;:]))part\s+(\d+|[a-h]|[ivx]+)\b\s*[:.)-]?/gim],
    ['step', /(?:^|(?<=[\s.;:]))step\s+(\d+)\b\s*[:.)-]?/gim],
    ['roman', /(?:^|(?<=[\s.;:]))\(?((?:i{1,3}|iv|vi{0,3}|ix|x))\)\s*/gm],
    ['letter', /(?:^|(?<=[\s.;:]))\(?([a-h])\)\s*/gm],
    // Not from a line start inside a run of blank lines: each would re-read the rest of the run
    // (quadratic); the run's first line start finds the same marker (decision 0128).
    ['number', /(?:^|(?<=\n))(?<!\n[^\S\n]*\n)\s*\(?(\d{1,2})[.)]\s+/gm],
    ['number', /(?:^|(?<=\n))(?<!\n[^\S\n]*\n)\s*(?:q|question)\s*(\d{1,2})[.):]?\s+/gim],
  ];
  for (const [family, pattern] of patterns) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      if (markers.some((marker) => start < marker.end && start + match[0].length > marker.start)) continue;
      markers.push({
        family,
        ordinal: ordinalOf(family, match[1]!),
        label: match[0].trim(),
        start,
        end: start + match[0].length,
      });
    }
  }
  return markers.sort((left, right) => left.start - right.start);
}

/**
 * The top-level family: the one whose labels run 1, 2, 3... (or a, b, c...) at least twice. "(i)"
 * alone is ambiguous with the letter i, so a roman run must start at i and continue with ii.
 */
function splitIntoParts(text: string, includePreamble = true): Segment[] | null {
  const markers = findMarkers(text);
  const families: MarkerFamily[] = ['part', 'letter', 'number', 'step', 'roman'];
  const byFirstUse = [...families].sort((left, right) => {
    const leftStart = markers.find((marker) => marker.family === left)?.start ?? Infinity;
    const rightStart = markers.find((marker) => marker.family === right)?.start ?? Infinity;
    return leftStart - rightStart;
  });
  for (const family of byFirstUse) {
    const sequence: Marker[] = [];
    for (const marker of markers) {
      if (marker.family !== family) continue;
      if (marker.ordinal === sequence.length + 1) sequence.push(marker);
    }
    if (sequence.length < 2) continue;
    const segments: Segment[] = [];
    const preamble = text.slice(0, sequence[0]!.start).trim();
    sequence.forEach((marker, index) => {
      const end = index + 1 < sequence.length ? sequence[index + 1]!.start : text.length;
      let body = text.slice(marker.end, end).trim();
      if (index === 0 && includePreamble && preamble && contentTerms(preamble).length >= 3)
        body = `${preamble} ${body}`;
      segments.push({
        label: labelFor(family, marker),
        text: body,
        isFinalAnswer: false,
        isOrderedStep: family === 'number' || family === 'step',
      });
    });
    if (!segments.every((segment) => segment.text.length > 0)) continue;
    if (family === 'number' || family === 'step') separateFinalAnswer(segments);
    return segments;
  }
  return null;
}

/**
 * A numbered method often ends with "Therefore s = 50 m." after the last number: that line is the
 * final answer, not part of the last step. A last step that is itself a conclusion is one too.
 */
function separateFinalAnswer(segments: Segment[]): void {
  const last = segments.at(-1)!;
  const lines = last.text
    .split(/\n+/)
    .map((line) => line.trim())
    .filter(Boolean);
  const tail = lines.at(-1) ?? '';
  if (lines.length >= 2 && (isFinalAnswerText(tail) || statesResult(tail))) {
    last.text = lines.slice(0, -1).join('\n');
    segments.push({ label: null, text: tail, isFinalAnswer: true });
  } else if (isFinalAnswerText(last.text)) {
    last.isFinalAnswer = true;
  }
}

function labelFor(family: MarkerFamily, marker: Marker): string {
  switch (family) {
    case 'letter':
      return `(${String.fromCharCode(96 + marker.ordinal)})`;
    case 'roman':
      return `(${ROMAN[marker.ordinal - 1]})`;
    case 'part':
      return marker.label.replace(/[:.)-]+$/, '').replace(/^part/i, 'Part');
    case 'step':
      return `Step ${marker.ordinal}`;
    case 'number':
      return `${marker.ordinal}.`;
  }
}

const CONCLUSION =
  /^(?:answer\s*[:=-]|final answer|therefore|thus|hence|so\b|so,|overall|in conclusion|the answer is|result\s*:|∴)/i;

/** "= 20 m/s." at the end, or a \boxed{} value: the line states a result. */
function statesResult(stated: string): boolean {
  // "= 6 m/s. [2 marks]" states a result: the note after it is the instructor's, not the answer's.
  const text = withoutStatedPoints(stated).trim();
  if (/\\boxed\{/.test(text)) return true;
  return /=\s*[-+]?[\d.]+(?:\s*(?:[x×]\s*10\^?[-+]?\d+|e[-+]?\d+))?\s*[^\s=]{0,12}\s*(?:\([^)]*\))?\s*[.;]?\s*$/i.test(
    text,
  );
}

function isFinalAnswerText(text: string): boolean {
  return CONCLUSION.test(withoutStatedPoints(text).trim()) || /\\boxed\{/.test(text);
}

/** Lines, or sentences when the solution is one paragraph. */
function splitIntoSteps(text: string): Segment[] {
  const lines = text
    .split(/\n+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const pieces = lines.length >= 2 ? lines : splitSentences(text);
  const steps = pieces
    .filter((piece) => contentTerms(piece).length > 0 || parseQuantities(piece).length > 0)
    .map((piece) => ({ label: null, text: piece, isFinalAnswer: false }));
  if (steps.length === 0) return [];
  // The final answer: the last conclusion line, else the last line that states a numeric result.
  let finalIndex = -1;
  for (let index = steps.length - 1; index >= 0 && finalIndex < 0; index--)
    if (isFinalAnswerText(steps[index]!.text)) finalIndex = index;
  if (finalIndex < 0 && statesResult(steps[steps.length - 1]!.text)) finalIndex = steps.length - 1;
  if (finalIndex >= 0 && steps.length > 1) {
    const [finalStep] = steps.splice(finalIndex, 1);
    // Steps after the conclusion (remarks) belong to the method.
    steps.push({ ...finalStep!, isFinalAnswer: true });
  }
  return steps;
}

/** Adjacent method steps merge until at most `limit` remain; the final answer stays its own item. */
function mergeSteps(segments: Segment[], limit: number): Segment[] {
  const result = [...segments];
  while (result.length > limit) {
    const mergeable = result.filter((segment) => !segment.isFinalAnswer);
    if (mergeable.length < 2) {
      // Only the final answer is left to merge into the method.
      const [first, second] = result;
      result.splice(0, 2, { label: first!.label, text: `${first!.text} ${second!.text}`, isFinalAnswer: false });
      continue;
    }
    // Merge the shortest adjacent pair of method steps.
    let bestIndex = -1;
    let bestLength = Infinity;
    for (let index = 0; index + 1 < result.length; index++) {
      const left = result[index]!;
      const right = result[index + 1]!;
      if (left.isFinalAnswer || right.isFinalAnswer) continue;
      const length = left.text.length + right.text.length;
      if (length < bestLength) {
        bestLength = length;
        bestIndex = index;
      }
    }
    if (bestIndex < 0) {
      const [first, second] = result;
      result.splice(0, 2, { label: first!.label, text: `${first!.text} ${second!.text}`, isFinalAnswer: false });
      continue;
    }
    const left = result[bestIndex]!;
    const right = result[bestIndex + 1]!;
    const label = left.label && right.label ? `${left.label}–${right.label}` : (left.label ?? right.label);
    result.splice(bestIndex, 2, { label, text: `${left.text} ${right.text}`, isFinalAnswer: false });
  }
  return result;
}

const MAX_ITEMS = 6;

/**
 * Splits `points` over items in proportion to `weights` on the coarsest grid that gives every item
 * at least one grid step: whole points, then halves, then quarters, then hundredths. Largest
 * remainders win ties in order, so the result is deterministic.
 */
export function allocatePoints(points: number, weights: readonly number[]): number[] {
  const count = weights.length;
  if (count === 0) return [];
  if (count === 1) return [points];
  const grids = [1, 0.5, 0.25, 0.01];
  const isMultiple = (grid: number) => Math.abs(Math.round(points / grid) * grid - points) < 1e-9;
  const grid =
    grids.find((candidate) => isMultiple(candidate) && points / candidate >= count * (candidate === 1 ? 2 : 1)) ??
    grids.find((candidate) => isMultiple(candidate) && points / candidate >= count) ??
    0.01;
  const totalUnits = Math.max(count, Math.floor(points / grid + 1e-9));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const spare = totalUnits - count;
  const ideal = weights.map((weight) => (spare * weight) / weightSum);
  const units = ideal.map((share) => 1 + Math.floor(share + 1e-9));
  let remaining = totalUnits - units.reduce((sum, unit) => sum + unit, 0);
  const order = ideal
    .map((share, index) => ({ index, remainder: share - Math.floor(share + 1e-9) }))
    .sort((left, right) => right.remainder - left.remainder || left.index - right.index);
  for (const { index } of order) {
    if (remaining <= 0) break;
    units[index]!++;
    remaining--;
  }
  const allocation = units.map((unit) => unit * grid);
  // Points that are not on the hundredth grid (or too small for one step each): the biggest item
  // absorbs the exact difference so the total is the question's points.
  const difference = points - allocation.reduce((sum, value) => sum + value, 0);
  if (Math.abs(difference) > 1e-12) {
    const biggest = allocation.indexOf(Math.max(...allocation));
    allocation[biggest] = allocation[biggest]! + difference;
  }
  return allocation.map((value) =>
    Math.abs(value - Math.round(value * 100) / 100) < 1e-9 ? Math.round(value * 100) / 100 : value,
  );
}

function shorten(text: string, limit: number): string {
  const compact = text.replace(/\s+/g, ' ').trim();
  if (compact.length <= limit) return compact;
  const cut = compact.slice(0, limit - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > limit * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[,;:.\s]+$/, '')}…`;
}

/** Key terms: the segment's distinctive words (those not already in the question come first). */
function keyTermsOf(segmentText: string, questionText: string): string[] {
  const questionTerms = new Set(contentTerms(questionText).map((token) => token.term));
  const seen = new Set<string>();
  const candidates: { display: string; score: number }[] = [];
  contentTerms(segmentText).forEach((token, position) => {
    if (seen.has(token.term) || !/^[a-z][a-z' -]{2,}$/i.test(token.display)) return;
    seen.add(token.term);
    // Concepts and long words say more than short ones; words the question already uses say less.
    const score =
      (token.term.startsWith('#') ? 3 : 0) +
      Math.min(token.display.length, 12) / 4 -
      (questionTerms.has(token.term) ? 2 : 0);
    candidates.push({ display: token.display, score: score - position * 0.01 });
  });
  return candidates
    .sort((left, right) => right.score - left.score)
    .slice(0, 6)
    .map((candidate) => candidate.display);
}

/** The results a segment states: values right after its last "=" in each clause (or boxed). */
export function resultQuantities(text: string): Quantity[] {
  const quantities = parseQuantities(text, { readNumberWords: false });
  return quantities.filter((quantity) => {
    if (quantity.isCoefficient) return false;
    const after = quantity.text.slice(quantity.end);
    const afterEquals = followsEquals(quantity.text, quantity.start);
    // A trailing noun is allowed: "= 1.204 × 10^24 molecules."
    const endsClause = /^\s*(?:[a-z]+\s*)?(?:$|[.,;)}\n]|\(|and\b|or\b|so\b|which\b|giving\b|in\b)/i.test(after);
    return afterEquals && endsClause && quantity.value !== 0;
  });
}

/**
 * The text before `start` ends with "=", "is", "are", "of", ":" or "\\boxed{", then spaces and at
 * most one "(". Read back from `start`: a pattern ending in `$` tried on everything before each
 * value re-read the whole text once per value, and an answer of 20,000 "= 5" took seconds (0128).
 */
function followsEquals(text: string, start: number): boolean {
  let index = start;
  while (index > 0 && /\s/.test(text[index - 1]!)) index--;
  if (index > 0 && text[index - 1] === '(') index--;
  while (index > 0 && /\s/.test(text[index - 1]!)) index--;
  return /(?:=|\bis|\bare|\bof|:|\\boxed\{)$/i.test(text.slice(Math.max(0, index - 8), index));
}

/**
 * What an item is about, in the question's own words that the step also uses ("the bulb, the
 * battery"): never words only the solution has. Comments start with the criterion and go to the
 * student, so a criterion made of the solution's words would hand them the answer (decision 0068).
 */
function topicOf(segment: Segment, questionText: string): string {
  const questionTerms = new Set(contentTerms(questionText).map((token) => token.term));
  // One word per stem, as first written: "wavelengths, wavelength" is one topic.
  const byStem = new Map<string, string>();
  for (const token of contentTerms(segment.text)) {
    if (!questionTerms.has(token.term) || !/^[a-z][a-z' -]{2,}$/i.test(token.display)) continue;
    if (!byStem.has(token.term)) byStem.set(token.term, token.display);
  }
  const shared = [...byStem.values()].slice(0, 3);
  return shared.length > 0 ? `reasoning about ${shared.join(', ')}` : 'a step of the reasoning';
}

function partCriterion(segment: Segment, questionText: string): string {
  const label = segment.label ?? '';
  // Prefer the question's own wording of the same part: "(b) Find the gradient at x = 2".
  const questionParts = splitIntoParts(normaliseText(questionText), false) ?? [];
  const found = questionParts.find((part) => part.label === segment.label)?.text;
  const wording = found === undefined ? undefined : withoutStatedPoints(found).trim();
  if (wording && contentTerms(wording).length > 0) return `${label} ${shorten(wording, 90)}`.trim();
  return `${label} ${topicOf(segment, questionText)}`.trim();
}

/** The final answer, without its value: the value is the guidance's, which students never see. */
function finalAnswerCriterion(segment: Segment): string {
  const last = resultQuantities(segment.text).at(-1);
  return last && last.unitText ? 'Final answer, with its unit' : 'Final answer';
}

function guidanceFor(segment: Segment, questionText: string): string {
  const terms = keyTermsOf(segment.text, questionText);
  const results = resultQuantities(segment.text).map(formatQuantity);
  const parts = [`A correct answer shows: ${shorten(segment.text, 320)}`];
  if (terms.length > 0) parts.push(`Key terms: ${terms.join(', ')}.`);
  if (results.length > 0)
    parts.push(`Expected value${results.length > 1 ? 's' : ''}: ${[...new Set(results)].join(', ')}.`);
  return parts.join(' ');
}

function weightedAllocation(points: number, weights: readonly number[], segments: readonly Segment[]): number[] {
  const allocation = allocatePoints(points, weights);
  giveFinalAnswerTheMost(allocation, segments);
  return allocation;
}

/**
 * Rounding can leave the final answer level with a step: move one grid step from the biggest step
 * to it, as long as that step keeps at least one grid step itself.
 */
function giveFinalAnswerTheMost(allocation: number[], segments: readonly Segment[]): void {
  const finalIndex = segments.findIndex((segment) => segment.isFinalAnswer);
  if (finalIndex < 0) return;
  const grid = allocation.every((value) => Number.isInteger(value))
    ? 1
    : allocation.every((value) => Number.isInteger(value * 2))
      ? 0.5
      : 0.25;
  for (let guard = 0; guard < allocation.length; guard++) {
    let donor = -1;
    allocation.forEach((value, index) => {
      if (index !== finalIndex && (donor < 0 || value > allocation[donor]!)) donor = index;
    });
    if (donor < 0 || allocation[finalIndex]! > allocation[donor]! || allocation[donor]! - grid < grid - 1e-9) return;
    allocation[donor] = allocation[donor]! - grid;
    allocation[finalIndex] = allocation[finalIndex]! + grid;
  }
}

/**
 * A solution document usually opens with a heading ("Solution", "Model answer to Question 2"): it
 * says nothing a student must show, so it is neither a step nor part of one.
 */
const SOLUTION_HEADING =
  /^(?:q(?:uestion)?\s*\d+[a-z]?\s*[-–—:.]?\s*)?(?:(?:worked|model|sample|reference|suggested|official)\s+)?(?:solutions?|answers?|answer key|marking (?:scheme|guide)|mark scheme|memo(?:randum)?)(?:\s+(?:to|for)?\s*(?:question|q)?\s*\d+[a-z]?)?(?:\s*\(\d+\s*(?:points?|marks?)\))?/i;

export function withoutSolutionHeading(text: string): string {
  const lines = text.split('\n');
  const firstIndex = lines.findIndex((line) => line.trim().length > 0);
  if (firstIndex < 0) return text;
  const first = lines[firstIndex]!.trim();
  const heading = SOLUTION_HEADING.exec(first)?.[0];
  if (!heading) return text;
  const rest = first.slice(heading.length);
  // The heading alone on its line, or "Solution: the first step…"; "Answers vary…" is a sentence.
  if (/^\s*[:.]?\s*$/.test(rest)) lines[firstIndex] = '';
  else if (/^\s*[:–—-]\s*/.test(rest) && !/^answers?$/i.test(heading.trim()))
    lines[firstIndex] = rest.replace(/^\s*[:–—-]\s*/, '');
  else return text;
  return lines.slice(firstIndex).join('\n').trim();
}

export function draftRubricItems(input: { questionText: string; solutionText: string; points: number }): DraftedItem[] {
  const solution = withoutSchemeFrames(
    withNotesOnTheirLines(withoutSolutionHeading(normaliseText(input.solutionText).trim())),
  ).trim();
  if (!solution) {
    return [
      {
        criterion: 'Correct and complete answer',
        guidance: `No solution was provided: judge the answer against the question. ${shorten(input.questionText, 200)}`,
        points: input.points,
      },
    ];
  }
  const parts = splitIntoParts(solution);
  let segments = parts ?? splitIntoSteps(solution);
  if (segments.length === 0) segments = [{ label: null, text: solution, isFinalAnswer: false }];
  segments = mergeSteps(segments, MAX_ITEMS);
  // Tiny point values cannot give every item a quarter point: merge until they can.
  const maxItems = Math.max(1, Math.floor(input.points / 0.25 + 1e-9));
  if (segments.length > maxItems) segments = mergeSteps(segments, maxItems);
  const questionParts = splitIntoParts(normaliseText(input.questionText), false) ?? [];
  // What the instructor wrote beside each part or step, in the solution or beside the same part of
  // the question; then the notes leave the text, which is what an answer must show.
  const stated = segments.map(
    (segment) =>
      statedPointsIn(segment.text) ??
      (segment.label === null
        ? null
        : statedPointsIn(questionParts.find((part) => part.label === segment.label)?.text ?? '')),
  );
  // The whole question's points beside one line among others is the question's total, not that
  // line's share: "Question 3 (10 marks)" above the scheme.
  if (segments.length > 1)
    stated.forEach((value, index) => {
      if (value !== null && Math.abs(value - input.points) < 1e-6) stated[index] = null;
    });
  segments = segments.map((segment) => ({ ...segment, text: withoutStatedPoints(segment.text) }));
  if (segments.length === 1) {
    return [
      {
        criterion: parts ? partCriterion(segments[0]!, input.questionText) : 'Correct and complete answer',
        guidance: guidanceFor({ ...segments[0]!, text: withoutStatedPoints(solution) }, input.questionText),
        points: input.points,
      },
    ];
  }

  // Separate parts weigh the same; steps of one method weigh by how much they say.
  const isPartOfQuestion = (segment: Segment) => parts !== null && !segment.isOrderedStep;
  const baseWeights = segments.map((segment) =>
    isPartOfQuestion(segment) ? 1 : Math.min(1.6, Math.max(0.6, contentTerms(segment.text).length / 8)),
  );
  const methodIndexes = segments.flatMap((segment, index) => (segment.isFinalAnswer ? [] : [index]));
  const averageMethodWeight =
    methodIndexes.reduce((sum, index) => sum + baseWeights[index]!, 0) / Math.max(1, methodIndexes.length);
  // The final answer is worth more than any single step: it is what the question asks for.
  const weights = segments.map((segment, index) =>
    segment.isFinalAnswer ? averageMethodWeight * (methodIndexes.length >= 2 ? 1.5 : 1) : baseWeights[index]!,
  );
  const allocation =
    statedAllocation(input.points, stated, weights, allocatePoints) ??
    weightedAllocation(input.points, weights, segments);
  const questionLabels = new Set(questionParts.map((part) => part.label));
  let stepNumber = 0;
  return segments.map((segment, index) => {
    const usesQuestionWording =
      isPartOfQuestion(segment) || (segment.label !== null && questionLabels.has(segment.label));
    const criterion = segment.isFinalAnswer
      ? finalAnswerCriterion(segment)
      : usesQuestionWording
        ? partCriterion(segment, input.questionText)
        : `Step ${++stepNumber}: ${topicOf(segment, input.questionText)}`;
    return { criterion, guidance: guidanceFor(segment, input.questionText), points: allocation[index]! };
  });
}
