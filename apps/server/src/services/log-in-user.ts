import { getDecoyHash, verifyPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { selectUserByEmail, type UserRow } from '../models/users.ts';
import { clearLoginAttempts, countLoginAttempt } from './login-throttle.ts';

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password.');

/**
 * One message for an unknown email and a wrong password: login never says which was wrong.
 * `address` is the caller's network address, for the login throttle.
 */
export async function logInUser(ctx: AppContext, email: string, password: string, address: string): Promise<UserRow> {
  const user = await checkPassword(ctx, email, password, address);
  if (!user) throw invalidCredentials();
  return user;
}

/**
 * Checks an email and password under the login throttle of the account and the caller's address
 * (services/login-throttle.ts), for login and for the actions that ask for the password again
 * (change it, delete the account). Answers the account, or null for a wrong password or an unknown email.
 */
export async function checkPassword(
  ctx: AppContext,
  email: string,
  password: string,
  address: string,
): Promise<UserRow | null> {
  await countLoginAttempt(ctx, email, address);
  const user = await selectUserByEmail(ctx.db, email);
  // Verify against a decoy when the email is unknown so both failures take the same time.
  const isValid = await verifyPassword(user?.passwordHash ?? (await getDecoyHash()), password);
  if (!user || !isValid) return null;
  await clearLoginAttempts(ctx, email, address);
  return user;
}
