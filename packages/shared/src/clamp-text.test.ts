import { describe, expect, it } from 'vitest';
import { clampText } from './clamp-text.ts';

describe('clampText', () => {
  it('leaves text within the limit as it is', () => {
    expect(clampText('short', 5)).toBe('short');
  });

  it('cuts longer text to the limit, ending with an ellipsis', () => {
    const clamped = clampText('a'.repeat(20_000), 5000);
    expect(clamped).toHaveLength(5000);
    expect(clamped.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const clamped = clampText('ab😀cd', 4);
    expect(clamped).toBe('ab…');
  });
});
