import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { PASSWORD_MIN_LENGTH } from '@gradewise/shared/contracts/auth';
import { AppError } from '../lib/errors.ts';

/**
 * The password rules, in one place (register, change, reset):
 * - at least PASSWORD_MIN_LENGTH characters (also checked by the shared contract, for the form);
 * - not the account's email, nor its part before the @;
 * - not common or predictable: zxcvbn-ts (its bundled common-password, name and keyboard-pattern
 *   lists; nothing is downloaded) must estimate at least 10^6 guesses (score 2 of 4). That refuses
 *   "password", "12345678", "qwertyuiop", eight spaces and the like, and lets through passphrases
 *   such as "correct horse battery". Online guessing is also held back by the login throttle.
 */
export const MIN_PASSWORD_SCORE = 2;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * zxcvbn and its lists, loaded and indexed on first use. Imported with the server, the lists'
 * decompression cost about 100 ms of every start and 13 MB of resident memory, for a check most
 * processes never make (only registering and changing or resetting a password do).
 */
export function loadPasswordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) =>
      new core.ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs }),
    (error: unknown) => {
      // Not kept: the next check tries again.
      estimator = undefined;
      throw error;
    },
  );
  return estimator;
}

/** The reason a password is refused, or null when it is acceptable. */
export async function passwordProblem(
  password: string,
  account: { email: string; name?: string },
): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  const email = account.email.trim().toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  const candidate = password.trim().toLowerCase();
  if (candidate === email || (localPart.length > 0 && candidate === localPart)) {
    return 'Your password must not be your email address.';
  }
  const userInputs = [email, localPart, ...(account.name ? account.name.toLowerCase().split(/\s+/) : []), 'gradewise'];
  const { score } = (await loadPasswordEstimator()).check(
    password,
    userInputs.filter((word) => word.length > 0),
  );
  if (score < MIN_PASSWORD_SCORE) {
    return 'This password is too common or too easy to guess. Please choose a longer, less predictable one (a few unrelated words work well).';
  }
  return null;
}

/** Throws a 400 WEAK_PASSWORD naming the field when the password breaks a rule. */
export async function assertAcceptablePassword(
  password: string,
  account: { email: string; name?: string },
  field = 'password',
): Promise<void> {
  const problem = await passwordProblem(password, account);
  if (problem) throw new AppError('WEAK_PASSWORD', problem, [{ path: field, message: problem }]);
}
