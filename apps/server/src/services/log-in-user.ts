import { getDecoyHash, verifyPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { selectUserByEmail, type UserRow } from '../models/users.ts';

/** One message for an unknown email and a wrong password: login never says which was wrong. */
export async function logInUser(ctx: AppContext, email: string, password: string): Promise<UserRow> {
  const user = await selectUserByEmail(ctx.db, email);
  // Verify against a decoy when the email is unknown so both failures take the same time.
  const isValid = await verifyPassword(user?.passwordHash ?? (await getDecoyHash()), password);
  if (!user || !isValid) throw new AppError('INVALID_CREDENTIALS', 401, 'Invalid email or password.');
  return user;
}
