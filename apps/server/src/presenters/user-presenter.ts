import type { UserOutput } from '@gradewise/shared/contracts/auth';
import type { UserRow } from '../models/users.ts';

export function presentUser(user: Pick<UserRow, 'id' | 'name' | 'email' | 'role'>): UserOutput {
  return { _id: user.id, id: user.id, name: user.name, email: user.email, role: user.role };
}
