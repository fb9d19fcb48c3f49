/**
 * A process-local cache that keeps at most `maxEntries` values: adding one more drops the one added
 * longest ago (first in, first out), and setting a key again makes it the newest. For values that
 * can always be computed or read again, so a dropped entry costs time and never correctness.
 *
 * The one home for the "Map with a size check" the server had written by hand in each cache
 * (issue 33, decision 0078): the bound is stated once, where the cache is made.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`a bounded cache keeps at least one entry (got ${maxEntries})`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
