import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, argon2Options, hashPassword, verifyPassword } from '../src/auth/passwords.ts';

// The suite hashes at a test-only cost (vitest.config.ts, decision 0092); stored hashes outside
// tests must keep the production parameters, and a hash of either cost must verify.
describe('password hashing parameters', () => {
  it('are the OWASP baseline (argon2id, m=19 MiB, t=2, p=1) outside NODE_ENV=test, whatever the test variable says', () => {
    expect(ARGON2_OPTIONS).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const cheap = { GRADEWISE_TEST_CHEAP_PASSWORD_HASH: '1' };
    expect(argon2Options({ ...cheap, NODE_ENV: 'production' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ ...cheap, NODE_ENV: 'development' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ ...cheap })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'test' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ ...cheap, NODE_ENV: 'test' })).not.toBe(ARGON2_OPTIONS);
  });

  it('a stored hash names the production parameters when the test cost is off, and verifies', async () => {
    const previous = process.env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH;
    delete process.env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH;
    try {
      const stored = await hashPassword('correct-horse-battery');
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(stored, 'correct-horse-battery')).toBe(true);
      expect(await verifyPassword(stored, 'wrong-horse-battery')).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH;
      else process.env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH = previous;
    }
  });

  it('the test cost is argon2id too, and its hashes verify the same way', async () => {
    const stored = await hashPassword('correct-horse-battery');
    expect(process.env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH).toBe('1');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(stored, 'correct-horse-battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong-horse-battery')).toBe(false);
  });
});
