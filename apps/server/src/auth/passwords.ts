import { hash, verify } from '@node-rs/argon2';

// argon2id with explicit parameters (OWASP 2023 baseline: m=19 MiB, t=2, p=1) so a library
// default change can never silently weaken stored hashes.
export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// The test suite registers and signs in hundreds of accounts, and at the production cost each
// hash and each check keeps a core busy for 50-100 ms on the two-core CI machine (decision 0092).
// Under test only, the same algorithm at a small cost (1 MiB, one pass): the hash carries its
// parameters, so verifying is unchanged, and the real-process tests' servers inherit it. test/passwords.test.ts checks that everything else
// (production, development, the variable unset) hashes with ARGON2_OPTIONS.
const TEST_ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** The parameters new hashes get: ARGON2_OPTIONS unless NODE_ENV=test asks for the test cost. */
export function argon2Options(
  env: NodeJS.ProcessEnv = process.env,
): typeof ARGON2_OPTIONS | typeof TEST_ARGON2_OPTIONS {
  return env.NODE_ENV === 'test' && env.GRADEWISE_TEST_CHEAP_PASSWORD_HASH === '1'
    ? TEST_ARGON2_OPTIONS
    : ARGON2_OPTIONS;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options());
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the email is unknown, so login takes as long either way. */
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  return decoyHash;
}
