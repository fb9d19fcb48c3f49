/**
 * PostgreSQL refuses two things JavaScript strings happily hold: the NUL character (error 22021 in
 * a text column, 22P05 as the JSON escape \u0000 in jsonb) and lone UTF-16 surrogates (invalid
 * UTF-8; as a JSON escape \ud800 jsonb refuses it too). Text reaches the database from everywhere —
 * HTTP input, PDF text layers, OCR, model replies, spreadsheets, error messages that quote any of
 * these — so it is made storable at the one place it all passes: the parameters the database
 * client sends (db/client.ts). See docs/decisions/0010-storable-text.md.
 *
 * The rule: NUL is removed (it is invisible and means nothing in our text), a lone surrogate
 * becomes U+FFFD (the replacement character, as any UTF-8 encoder would write it).
 */

/**
 * Any surrogate, paired or not: the cheap first test (pairs are kept below). NUL is looked for with
 * `includes`: a character class holding \u0000 makes V8 scan about 500 times slower.
 */
const SURROGATE = /[\ud800-\udfff]/;
/** A surrogate without its partner (code units, no `u` flag on purpose). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A JSON escape of NUL or of a surrogate, preceded by an odd number of backslashes (an even number
 * would make it literal text such as `\\u0000`). Surrogate escapes are checked further only when
 * present: a correctly paired escape (emoji written as \ud83d\ude00) is valid JSON text.
 */
const UNSTORABLE_JSON_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** The string with NUL removed and lone surrogates replaced by U+FFFD. */
export function toStorableText(text: string): string {
  const hasNul = text.includes('\u0000');
  const hasSurrogate = SURROGATE.test(text);
  if (!hasNul && !hasSurrogate) return text;
  const withoutNul = hasNul ? text.replaceAll('\u0000', '') : text;
  return hasSurrogate ? withoutNul.replace(LONE_SURROGATE, '\ufffd') : withoutNul;
}

/**
 * A query parameter made storable. Strings are cleaned; a string that is JSON text (drizzle sends
 * jsonb values as JSON.stringify output) and carries an escaped NUL or lone surrogate is parsed,
 * cleaned and written again. Arrays and plain objects (pg and PGlite serialise objects as JSON;
 * pg-boss passes its error records that way) are cleaned deeply. Anything else is left alone.
 */
export function toStorableParameter(value: unknown): unknown {
  if (typeof value === 'string') return toStorableString(value);
  if (Array.isArray(value)) return value.map(toStorableParameter);
  if (isPlainObject(value)) return toStorableJsonValue(value, new WeakSet());
  return value;
}

export function toStorableParameters(values: readonly unknown[] | undefined): unknown[] | undefined {
  if (!values) return values as undefined;
  let changed = false;
  const cleaned = values.map((value) => {
    const storable = toStorableParameter(value);
    if (storable !== value) changed = true;
    return storable;
  });
  return changed ? cleaned : (values as unknown[]);
}

function toStorableString(text: string): string {
  const cleaned = toStorableText(text);
  // Most parameters hold no escape at all: skip the pattern (and any JSON work) for them.
  if (!cleaned.includes('\\u') || !UNSTORABLE_JSON_ESCAPE.test(cleaned)) return cleaned;
  const first = cleaned.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return cleaned;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cleaned);
  } catch {
    return cleaned; // not JSON: plain text that happens to contain a backslash-u sequence
  }
  // Parsing turned the escapes into real characters; cleaning removes them; writing again gives
  // JSON without them. A correctly paired surrogate escape survives (it parses to a valid pair).
  return JSON.stringify(toStorableJsonValue(parsed, new WeakSet()));
}

function toStorableJsonValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return value; // JSON.stringify will refuse the cycle itself
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => toStorableJsonValue(item, seen));
  if (!isPlainObject(value)) return value; // Date, Buffer...: serialised by the driver as they are
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[toStorableText(key)] = toStorableJsonValue(item, seen);
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
