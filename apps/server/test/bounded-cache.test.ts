import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../src/lib/bounded-cache.ts';

describe('BoundedCache', () => {
  it('keeps at most its bound, dropping the entry added longest ago', () => {
    const cache = new BoundedCache<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c', 'd', 'e'].entries()) cache.set(key, index);
    expect(cache.size).toBe(3);
    expect([...cache.keys()]).toEqual(['c', 'd', 'e']);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.has('b')).toBe(false);
    expect(cache.get('e')).toBe(4);
  });

  it('makes a key set again the newest, and replaces its value without dropping another', () => {
    const cache = new BoundedCache<string, number>(3);
    cache.set('a', 1).set('b', 2).set('c', 3);
    cache.set('a', 10);
    expect(cache.size).toBe(3);
    expect([...cache.keys()]).toEqual(['b', 'c', 'a']);
    cache.set('d', 4);
    expect([...cache.keys()]).toEqual(['c', 'a', 'd']);
    expect(cache.get('a')).toBe(10);
  });

  it('frees a place when an entry is deleted or the cache cleared', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    cache.set('c', 3);
    expect([...cache.keys()]).toEqual(['b', 'c']);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('b')).toBeUndefined();
  });

  it('refuses a bound below one entry', () => {
    expect(() => new BoundedCache(0)).toThrow('a bounded cache keeps at least one entry (got 0)');
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
