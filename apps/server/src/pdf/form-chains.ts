import { decodeName, withNamesDecoded } from './pdf-names.ts';

/**
 * Nesting carried through form XObjects, counted before pdf.js reads the file. A form drawn with
 * `Do` starts from the graphics state of the one that drew it, and pdf.js keeps each saved state
 * on a prototype chain as long as the whole nesting: 60 chained forms of 1,000 levels each are
 * 60,000 levels, which no single stream shows (stream-guard.ts counts one stream) and which cost
 * pdf.js minutes of CPU. Here each content stream's depth and its `Do` calls (with the depth they
 * are made at) are followed through the forms they name, as pdf.js resolves them: the form's own
 * /Resources, or, without them, those of the stream that drew it.
 *
 * What a page's own content names is not resolved against its page (that would need the page
 * tree): a name is looked up in every /XObject dictionary of the file, and the deepest form it
 * may name counts. That over-counts only by the page's depth at its `Do` (a few levels on honest
 * pages); the forms below it are followed exactly. Forms whose content this check cannot read
 * (damaged data) end a chain; the extraction pool's CPU budgets cover them (encrypted ones are
 * decrypted, and image-filtered ones refused, since decision 0108).
 *
 * A page whose /Contents is several streams is read by pdf.js as one stream: the levels one leaves
 * open are where the next starts (less the `Q`s it reads with nothing of its own saved).
 *
 * An object defined more than once (an update, a definition past the end of the file, one in an
 * object stream beside one in the file's text) is each of its definitions here (decision 0108):
 * pdf.js takes the one its cross-reference table names, or in recovery the last it finds, by rules
 * (linearization, /Prev chains, hybrid tables, a recovery started by a bad entry on any later
 * fetch) this check does not follow; counting every definition is what pdf.js may draw, whichever.
 */

/** One content stream as stream-guard.ts read it. */
export interface ContentStream {
  /** Its object number; undefined when the header could not be read. */
  objectNumber: number | undefined;
  /** The text of its dictionary (between `obj` and `stream`). */
  dictionary: string;
  /** Its own /Subtype is /Form, followed when given by reference (stream-guard.ts). */
  isForm: boolean;
  /** Its own deepest nesting of `q`. */
  deepest: number;
  /** Each name drawn with `/Name Do`: the deepest nesting it is drawn at, and how many times. */
  calls: { name: string; depth: number; count: number }[];
  /** Its own operators as pdf.js's operator list holds them (a path's construction not counted). */
  operators: number;
  /** Levels still saved at its end. */
  leftOpen: number;
  /** `Q`s it reads with nothing of its own saved. */
  unopenedCloses: number;
}

/** Where the objects of the file are: its text (latin1), and the unpacked object streams. */
export interface ObjectSources {
  text: string;
  /**
   * Each object stream's data, its /First (where its first object begins) and its /N (how many
   * number and offset pairs its header holds: pdf.js reads no more), and its text (latin1) when
   * the walk has it already.
   */
  objectStreams: { data: Uint8Array; first: number; count: number; text?: string }[];
}

/**
 * Form-call edges followed at most: past this the file is left to the CPU budget (an honest
 * file has a few thousand; a hostile one could make the name lookup quadratic).
 */
const MAX_STEPS = 1_000_000;
/** Dictionaries and arrays nested deeper than this are not read further. */
const MAX_VALUE_DEPTH = 32;

/**
 * The content streams followed through the forms they draw, the file's objects indexed once for
 * both counts: `deepest(stopAbove)` (deepestThroughForms) and `heaviest(stopAbove)` (heaviestDrawing).
 */
export function throughForms(
  streams: ContentStream[],
  sources: ObjectSources,
): { deepest(stopAbove: number): number | undefined; heaviest(stopAbove: number): number | undefined } {
  const objects = new ObjectIndex(sources);
  const chains = new FormChains(streams, objects);
  return {
    deepest: (stopAbove) => deepestThroughForms(streams, objects, chains.limitedTo(stopAbove)),
    heaviest: (stopAbove) => heaviestDrawing(streams, objects, chains.limitedTo(stopAbove)),
  };
}

/**
 * The deepest nesting any content stream reaches once the forms it draws are followed, counting
 * one level for each form (a form is drawn inside its own saved state). Stops, returning a value
 * past it, once `stopAbove` is passed; undefined when the file holds more calls than are followed.
 */
function deepestThroughForms(streams: ContentStream[], objects: ObjectIndex, chains: FormChains): number | undefined {
  try {
    let deepest = 0;
    for (const stream of streams) deepest = Math.max(deepest, chains.depthFrom(stream));
    // A page whose contents are several streams is read as one: what one leaves open, the next
    // starts from.
    // An object defined more than once may be any of its definitions to pdf.js (decision 0108):
    // each is followed, and the most it may leave open is carried.
    const byNumber = byObjectNumber(streams);
    for (const contents of objects.multiStreamPageContents()) {
      let carried = 0;
      for (const objectNumber of contents) {
        const definitions = byNumber.get(objectNumber);
        if (!definitions) continue;
        let next = 0;
        for (const stream of definitions) {
          deepest = Math.max(deepest, carried + chains.depthFrom(stream, carried));
          next = Math.max(next, Math.max(0, carried - stream.unopenedCloses) + stream.leftOpen);
        }
        carried = next;
      }
      deepest = Math.max(deepest, carried);
    }
    return deepest;
  } catch (error) {
    if (error instanceof PastTheLimit) return error.value;
    if (error instanceof TooManySteps) return undefined;
    throw error;
  }
}

/**
 * The most drawing operations any content stream makes once the forms it draws are followed, each
 * form counted as often as it is drawn (decision 0113): what pdf.js's operator list of a page that
 * draws it holds, about (pdf.js adds a form's operators each time it draws it). Names are resolved
 * as `deepestThroughForms` resolves them (a form's own resources, else its caller's; a page's
 * content's in every /XObject dictionary of the file, the heaviest form a name may be). A page
 * whose contents are several streams is their sum. Stops, returning a value past it, once
 * `stopAbove` is passed; undefined when the file holds more calls than are followed.
 */
function heaviestDrawing(streams: ContentStream[], objects: ObjectIndex, chains: FormChains): number | undefined {
  const { stopAbove } = chains;
  try {
    let heaviest = 0;
    for (const stream of streams) heaviest = Math.max(heaviest, chains.workFrom(stream));
    const byNumber = byObjectNumber(streams);
    for (const contents of objects.multiStreamPageContents()) {
      let page = 0;
      for (const objectNumber of contents) {
        let most = 0;
        for (const stream of byNumber.get(objectNumber) ?? []) most = Math.max(most, chains.workFrom(stream));
        page += most;
        if (page > stopAbove) return page;
      }
      heaviest = Math.max(heaviest, page);
    }
    return heaviest;
  } catch (error) {
    if (error instanceof PastTheLimit) return error.value;
    if (error instanceof TooManySteps) return undefined;
    throw error;
  }
}

/** The streams by object number: every definition of a number defined more than once (decision 0108). */
function byObjectNumber(streams: ContentStream[]): Map<number | undefined, ContentStream[]> {
  const byNumber = new Map<number | undefined, ContentStream[]>();
  for (const stream of streams) {
    const definitions = byNumber.get(stream.objectNumber);
    if (definitions) definitions.push(stream);
    else byNumber.set(stream.objectNumber, [stream]);
  }
  return byNumber;
}

/**
 * The texts of each object's value, by object number, read from the file's text and its unpacked
 * object streams: how stream-guard.ts follows a stream's filters and predictor parameters given by
 * reference (decision 0102). Every definition of an object defined more than once, each text once
 * (decision 0108: pdf.js takes the one its cross-reference table names, which the counts do not
 * follow, so they read the stream with each). Each object is read once, however many streams name it.
 */
export function objectTexts(sources: ObjectSources): (objectNumber: number) => string[] {
  const objects = new ObjectIndex(sources);
  const known = new Map<number, string[]>();
  return (objectNumber) => {
    let texts = known.get(objectNumber);
    if (!texts) known.set(objectNumber, (texts = [...new Set(objects.textsOf(objectNumber).map(withNamesDecoded))]));
    return texts;
  };
}

/**
 * The objects the file names as drawing instructions whatever their own keys say (decision 0106):
 * what a /Contents names (a stream, or each stream of an array), which pdf.js reads as a page's
 * drawing; each glyph of a /CharProcs dictionary, which pdf.js draws when it loads a Type 3 font;
 * and an annotation's appearances (/AP's /N, /R and /D, each a stream or a dictionary of them),
 * which pdf.js draws when the hidden-text check renders a page's annotations. Each array or
 * dictionary may be an object of its own. stream-guard.ts reads these as content even when their
 * keys call them an image, a font program or metadata. Read from every such key in the file's
 * text and object streams (names decoded), not only pages', fonts' and annotations': pdf.js takes
 * a page tree's leaf for a page without its /Type, and a stream named so by another dictionary is
 * only counted once more.
 */
export function objectsDrawnAsContents(
  sources: ObjectSources,
  isStream: (objectNumber: number) => boolean,
): Set<number> {
  const objects = new ObjectIndex(sources);
  const drawn = new Set<number>();
  // A reference named here is drawn when it is a stream; else it may be an array or dictionary of
  // its own, followed (the file is indexed only for such a reference).
  // Each definition of an object defined more than once (decision 0108).
  const named = (value: Value | undefined): (Value | undefined)[] => {
    if (!value || !('ref' in value)) return [value];
    drawn.add(value.ref);
    return isStream(value.ref) ? objects.resolveAll(value, false) : objects.resolveAll(value);
  };
  const eachOf = (value: Value | undefined) => {
    const entries = Array.isArray(value) ? value : value instanceof Map ? [...value.values()] : [];
    for (const entry of entries) if (entry && 'ref' in entry) drawn.add(entry.ref);
  };
  for (const { name, value } of objects.valuesOf(DRAWING_KEYS)) {
    for (const followed of named(value)) {
      if (name !== 'AP') eachOf(followed);
      else if (followed instanceof Map)
        for (const state of ['N', 'R', 'D']) for (const entry of named(followed.get(state))) eachOf(entry);
    }
  }
  return drawn;
}

/** A character of a name (PDF 32000-1, 7.3.5): not white space, not a delimiter; then one not `#` either. */
const NAME_CHAR = String.raw`[^\0\t\n\f\r ()<>[\]{}/%]`;
const NAME_CHAR_NOT_HASH = String.raw`[^\0\t\n\f\r ()<>[\]{}/%#]`;
const DRAWING_KEYS: ReadonlySet<string> = new Set(['Contents', 'CharProcs', 'AP']);
const CONTENTS_KEY: ReadonlySet<string> = new Set(['Contents']);

class TooManySteps extends Error {}
class PastTheLimit extends Error {
  constructor(readonly value: number) {
    super('past the limit');
  }
}

/**
 * The resources a stream's names are looked up in: a form's own (each name maybe several objects,
 * when its resources are defined more than once: decision 0108), or every /XObject dictionary ('any').
 */
type Scope = { owner: number; xobjects: Map<string, number[]> } | 'any';

class FormChains {
  /** Each form by its object number: every definition of a number defined more than once (decision 0108). */
  private readonly forms = new Map<number, ContentStream[]>();
  private readonly ownScopes = new Map<ContentStream, Scope | null>();
  private readonly memo = new Map<string, number>();
  private readonly workMemo = new Map<string, number>();
  private readonly inProgress = new Set<string>();
  private readonly ids = new Map<ContentStream, number>();
  private anyNames: Map<string, number[]> | null = null;
  private steps = 0;
  /** Where the count under way stops (`limitedTo`). */
  stopAbove = 0;

  constructor(
    streams: ContentStream[],
    private readonly objects: ObjectIndex,
  ) {
    for (const stream of streams)
      if (stream.objectNumber !== undefined && stream.isForm)
        this.forms.set(stream.objectNumber, [...(this.forms.get(stream.objectNumber) ?? []), stream]);
  }

  /** The chains counted next stop past `stopAbove`, with MAX_STEPS steps of their own. */
  limitedTo(stopAbove: number): this {
    this.stopAbove = stopAbove;
    this.steps = 0;
    this.inProgress.clear();
    return this;
  }

  /**
   * A stream read as a page's content (or any form as a root), from `base` levels: its names
   * looked up anywhere. Relative to `base`; throws once past the limit.
   */
  depthFrom(stream: ContentStream, base = 0): number {
    return this.depthOf(stream, this.scopeOf(stream) ?? 'any', base);
  }

  /** The operators a stream read as a page's content (or any form as a root) makes, the forms it draws included; throws past the limit. */
  workFrom(stream: ContentStream): number {
    return this.workOf(stream, this.scopeOf(stream) ?? 'any');
  }

  /**
   * The operators `stream` makes drawn in `scope`: its own, and for each name it draws, the
   * heaviest form the name may be, times how often it is drawn (with the form's end; nothing more
   * for an image or a name that is no form).
   */
  private workOf(stream: ContentStream, scope: Scope): number {
    const key = `${this.idOf(stream)}:${scope === 'any' ? 'any' : scope.owner}`;
    const known = this.workMemo.get(key);
    if (known !== undefined) return known;
    // A form that draws itself: pdf.js ignores the circular call, so it adds nothing.
    if (this.inProgress.has(key)) return 0;
    this.inProgress.add(key);
    let work = stream.operators;
    for (const call of stream.calls) {
      // pdf.js writes a form's drawing as its begin, its operators and its end: the `Do` counted
      // in the stream's own operators is the begin.
      let heaviest = -1;
      for (const target of this.targetsOf(call.name, scope)) {
        if ((this.steps += 1) > MAX_STEPS) throw new TooManySteps();
        for (const form of this.forms.get(target) ?? [])
          heaviest = Math.max(heaviest, this.workOf(form, this.scopeOf(form) ?? scope));
      }
      work += call.count * (heaviest + 1);
      if (work > this.stopAbove) throw new PastTheLimit(work);
    }
    this.inProgress.delete(key);
    this.workMemo.set(key, work);
    return work;
  }

  /** The deepest nesting below `stream` drawn at `base`, relative to `base`; throws past the limit. */
  private depthOf(stream: ContentStream, scope: Scope, base: number): number {
    const key = `${this.idOf(stream)}:${scope === 'any' ? 'any' : scope.owner}`;
    const known = this.memo.get(key);
    if (known !== undefined) return this.within(base, known);
    // A form that draws itself: pdf.js ignores the circular call, so it adds nothing.
    if (this.inProgress.has(key)) return 0;
    this.inProgress.add(key);
    let deepest = this.within(base, stream.deepest);
    for (const call of stream.calls) {
      for (const target of this.targetsOf(call.name, scope)) {
        if ((this.steps += 1) > MAX_STEPS) throw new TooManySteps();
        const start = this.within(base, call.depth + 1);
        let below = 0;
        for (const form of this.forms.get(target) ?? [])
          below = Math.max(below, this.depthOf(form, this.scopeOf(form) ?? scope, base + start));
        deepest = Math.max(deepest, start + below);
      }
    }
    this.inProgress.delete(key);
    this.memo.set(key, deepest);
    return deepest;
  }

  /** A stream's own key (streams whose object number could not be read are told apart too). */
  private idOf(stream: ContentStream): number {
    let id = this.ids.get(stream);
    if (id === undefined) this.ids.set(stream, (id = this.ids.size));
    return id;
  }

  /** `relative`, after checking that `base + relative` is within the limit. */
  private within(base: number, relative: number): number {
    if (base + relative > this.stopAbove) throw new PastTheLimit(base + relative);
    return relative;
  }

  private targetsOf(name: string, scope: Scope): number[] {
    if (scope !== 'any') return scope.xobjects.get(name) ?? [];
    this.anyNames ??= this.objects.everyXObjectName();
    return this.anyNames.get(name) ?? [];
  }

  /**
   * A form's own /Resources' /XObject names (of each of their definitions, decision 0108); null
   * when it has no /Resources (it uses its caller's), or is no form.
   */
  private scopeOf(stream: ContentStream): Scope | null {
    if (this.ownScopes.has(stream)) return this.ownScopes.get(stream)!;
    let scope: Scope | null = null;
    if (stream.isForm && stream.objectNumber !== undefined) {
      const dictionary = asDictionary(readValue(stream.dictionary, stream.dictionary.indexOf('<<')).value);
      const resources = this.objects.resolveAll(dictionary?.get('Resources')).filter((value) => value instanceof Map);
      if (resources.length > 0) {
        const xobjects = new Map<string, number[]>();
        for (const each of resources)
          for (const names of this.objects.resolveAll((each as Map<string, Value>).get('XObject')))
            for (const [name, target] of namesOf(names)) {
              const targets = xobjects.get(name);
              if (!targets) xobjects.set(name, [target]);
              else if (!targets.includes(target)) targets.push(target);
            }
        scope = { owner: this.idOf(stream), xobjects };
      }
    }
    this.ownScopes.set(stream, scope);
    return scope;
  }
}

// ---------------------------------------------------------------------------------------------
// Objects and values, read only as far as this check needs

type Value = Map<string, Value> | Value[] | { ref: number } | { name: string } | null;

const asDictionary = (value: Value | undefined): Map<string, Value> | null => (value instanceof Map ? value : null);

function namesOf(value: Value | undefined): Map<string, number> {
  const names = new Map<string, number>();
  if (value instanceof Map) for (const [name, entry] of value) if (entry && 'ref' in entry) names.set(name, entry.ref);
  return names;
}

type Place = { source: string; at: number };

class ObjectIndex {
  private top: Map<number, number[]> | null = null;
  private packed: Map<number, Place[]> | null = null;
  private packedTexts: string[] | null = null;

  constructor(private readonly sources: ObjectSources) {}

  /**
   * A reference followed to its object's values (once: resources are never references to
   * references): every definition of an object defined more than once, in the file's text and its
   * object streams, as pdf.js may take any of them (decision 0108); `streams` false leaves out the
   * definitions that are streams. A value that is no reference is itself.
   */
  resolveAll(value: Value | undefined, streams = true): (Value | undefined)[] {
    if (!value || !('ref' in value) || value instanceof Map || Array.isArray(value)) return [value];
    const values: Value[] = [];
    for (const place of this.placesOf(value.ref)) {
      const read = readValue(place.source, place.at);
      if (streams || !place.source.startsWith('stream', skipBlank(place.source, read.end))) values.push(read.value);
    }
    return values;
  }

  /** The text of each definition of the object's value (white space and comments before it skipped). */
  textsOf(objectNumber: number): string[] {
    return this.placesOf(objectNumber).map((place) => {
      const start = skipBlank(place.source, place.at);
      return place.source.slice(start, readValue(place.source, start).end);
    });
  }

  private placesOf(objectNumber: number): Place[] {
    this.top ??= this.indexTopLevel();
    this.packed ??= this.indexObjectStreams();
    return [
      ...(this.top.get(objectNumber) ?? []).map((at) => ({ source: this.sources.text, at })),
      ...(this.packed.get(objectNumber) ?? []),
    ];
  }

  /**
   * The content streams (object numbers, in order) of every /Contents that is an array of two or
   * more (the array maybe an object of its own): pdf.js reads a page's as one stream. Every
   * /Contents of the file, wherever it stands in its dictionary (decision 0106): pdf.js takes a
   * page tree's leaf without /Type for a page, and an array named so elsewhere is only counted
   * once more.
   */
  *multiStreamPageContents(): Generator<number[]> {
    for (const { value } of this.valuesOf(CONTENTS_KEY))
      for (const contents of this.resolveAll(value, false)) {
        if (!Array.isArray(contents) || contents.length < 2) continue;
        yield contents.flatMap((entry) => (entry && 'ref' in entry ? [entry.ref] : []));
      }
  }

  /**
   * The value after every key of `names` in the file's text and object streams (names decoded:
   * `/Cont#65nts` is /Contents), read where the key stands, not resolved.
   */
  *valuesOf(names: ReadonlySet<string>): Generator<{ name: string; value: Value }> {
    // One of `names` (letters only), or a name with `#` in it that may be one once decoded.
    const pattern = String.raw`\/(${[...names].join('|')}|${NAME_CHAR_NOT_HASH}*#${NAME_CHAR}*)(?!${NAME_CHAR})`;
    for (const source of this.sourceTexts()) {
      const key = new RegExp(pattern, 'g');
      for (let match = key.exec(source); match; match = key.exec(source)) {
        const name = decodeName(match[1]!);
        if (names.has(name)) yield { name, value: readValue(source, key.lastIndex).value };
      }
    }
  }

  /** The file's text and each unpacked object stream's, where its objects are written. */
  sourceTexts(): string[] {
    return [this.sources.text, ...this.objectStreamTexts()];
  }

  /** Every name of every /XObject dictionary in the file, with the objects it names. */
  everyXObjectName(): Map<string, number[]> {
    const names = new Map<string, number[]>();
    for (const source of this.sourceTexts()) {
      // /XObject, or a name with `#` in it that may be /XObject once decoded (`/X#4Fbject`).
      const key = /\/(XObject|[^\0\t\n\f\r ()<>[\]{}/%#]*#[^\0\t\n\f\r ()<>[\]{}/%]*)\s*(?=<<|\d)/g;
      for (let match = key.exec(source); match; match = key.exec(source)) {
        if (match[1] !== 'XObject' && decodeName(match[1]!) !== 'XObject') continue;
        for (const dictionary of this.resolveAll(readValue(source, key.lastIndex).value))
          for (const [name, target] of namesOf(dictionary)) {
            const targets = names.get(name);
            if (!targets) names.set(name, [target]);
            else if (!targets.includes(target)) targets.push(target);
          }
      }
    }
    return names;
  }

  private objectStreamTexts(): string[] {
    this.packedTexts ??= this.sources.objectStreams.map(
      ({ data, text }) => text ?? Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'),
    );
    return this.packedTexts;
  }

  /**
   * Where each `N G obj` begins its value: every definition, wherever it stands (after the end of
   * the file, inside another stream's data), as pdf.js's cross-reference table may name any
   * (decision 0108).
   */
  private indexTopLevel(): Map<number, number[]> {
    const index = new Map<number, number[]>();
    const header = /(?<![\d.])(\d+)\s+\d+\s+obj\b/g;
    for (let match = header.exec(this.sources.text); match; match = header.exec(this.sources.text)) {
      const number = Number(match[1]);
      const places = index.get(number);
      if (places) places.push(header.lastIndex);
      else index.set(number, [header.lastIndex]);
    }
    return index;
  }

  /**
   * The objects packed in object streams: a header of /N number and offset pairs (pdf.js reads no
   * more), offsets counted from /First.
   */
  private indexObjectStreams(): Map<number, Place[]> {
    const index = new Map<number, Place[]>();
    this.objectStreamTexts().forEach((source, stream) => {
      const { first, count } = this.sources.objectStreams[stream]!;
      const numbers = source
        .slice(0, first)
        .trim()
        .split(/\s+/)
        .slice(0, 2 * count)
        .map(Number);
      for (let i = 0; i + 1 < numbers.length; i += 2)
        if (Number.isInteger(numbers[i]) && Number.isInteger(numbers[i + 1])) {
          const place = { source, at: first + numbers[i + 1]! };
          const places = index.get(numbers[i]!);
          if (places) places.push(place);
          else index.set(numbers[i]!, [place]);
        }
    });
    return index;
  }
}

// PDF syntax (PDF 32000-1, 7.2 and 7.3), enough for dictionaries, arrays, names and references.
const DELIMITERS = '()<>[]{}/%';
const isWhite = (char: string | undefined) => char !== undefined && ' \t\r\n\f\0'.includes(char);
const endsToken = (char: string | undefined) => char === undefined || isWhite(char) || DELIMITERS.includes(char);

/** The value starting at `at` (white space and comments first skipped), and where it ends. */
function readValue(source: string, at: number, depth = 0): { value: Value; end: number } {
  at = skipBlank(source, at);
  if (at < 0 || at >= source.length) return { value: null, end: source.length };
  const char = source[at];
  if (char === '<' && source[at + 1] === '<') {
    const dictionary = new Map<string, Value>();
    at += 2;
    for (;;) {
      at = skipBlank(source, at);
      if (at >= source.length) return { value: dictionary, end: at };
      if (source.startsWith('>>', at)) return { value: dictionary, end: at + 2 };
      if (source[at] !== '/') return { value: dictionary, end: at }; // damaged: what was read counts
      const key = readName(source, at);
      const entry = depth < MAX_VALUE_DEPTH ? readValue(source, key.end, depth + 1) : skipValue(source, key.end);
      dictionary.set(key.name, entry.value);
      at = Math.max(entry.end, key.end + 1);
    }
  }
  if (char === '[') {
    const array: Value[] = [];
    at += 1;
    for (;;) {
      at = skipBlank(source, at);
      if (at >= source.length) return { value: array, end: at };
      if (source[at] === ']') return { value: array, end: at + 1 };
      const entry = depth < MAX_VALUE_DEPTH ? readValue(source, at, depth + 1) : skipValue(source, at);
      array.push(entry.value);
      at = Math.max(entry.end, at + 1);
    }
  }
  if (char === '/') {
    const name = readName(source, at);
    return { value: { name: name.name }, end: name.end };
  }
  const reference = /^(\d+)\s+(\d+)\s+R(?![^\s()<>[\]{}/%])/.exec(source.slice(at, at + 32));
  if (reference) return { value: { ref: Number(reference[1]) }, end: at + reference[0].length };
  return skipValue(source, at);
}

/** Past a value this check does not need (a number, string, keyword), or one nested too deep. */
function skipValue(source: string, at: number): { value: null; end: number } {
  at = skipBlank(source, at);
  const char = source[at];
  if (char === '(') {
    let open = 0;
    for (; at < source.length; at += 1) {
      if (source[at] === '\\') at += 1;
      else if (source[at] === '(') open += 1;
      else if (source[at] === ')' && --open === 0) return { value: null, end: at + 1 };
    }
    return { value: null, end: source.length };
  }
  if (char === '<' && source[at + 1] !== '<') {
    const close = source.indexOf('>', at);
    return { value: null, end: close < 0 ? source.length : close + 1 };
  }
  if (char === '<' || char === '[') {
    // Nested too deep: skipped by counting brackets.
    let open = 0;
    for (; at < source.length; at += 1) {
      const c = source[at];
      if (c === '[' || (c === '<' && source[at + 1] === '<')) open += 1;
      else if (c === ']' || (c === '>' && source[at + 1] === '>')) open -= 1;
      if (c === '<' || c === '>') if (source[at + 1] === c) at += 1;
      if (open === 0) return { value: null, end: at + 1 };
    }
    return { value: null, end: source.length };
  }
  let end = at;
  while (end < source.length && !endsToken(source[end])) end += 1;
  return { value: null, end: Math.max(end, at + 1) };
}

/** A name as pdf.js reads it: `/X#4Fbject` is /XObject. */
function readName(source: string, at: number): { name: string; end: number } {
  let end = at + 1;
  while (end < source.length && !endsToken(source[end])) end += 1;
  return { name: decodeName(source.slice(at + 1, end)), end };
}

function skipBlank(source: string, at: number): number {
  while (at < source.length) {
    if (isWhite(source[at])) at += 1;
    else if (source[at] === '%') {
      while (at < source.length && source[at] !== '\n' && source[at] !== '\r') at += 1;
    } else break;
  }
  return at;
}
