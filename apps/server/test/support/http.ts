import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Role } from '@gradewise/shared/contracts/auth';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  role: Role;
  token: string;
  auth: { authorization: string };
}

let counter = 0;

/** Registers a user through the real endpoint and answers their token and auth header. */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<Pick<TestUser, 'name' | 'email' | 'password' | 'role'>> = {},
): Promise<TestUser> {
  counter += 1;
  const body = {
    name: overrides.name ?? `User ${counter}`,
    email: overrides.email ?? `user${counter}-${Date.now()}@example.edu`,
    password: overrides.password ?? 'correct-horse-battery',
    role: overrides.role ?? 'student',
  };
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const { token, user } = response.json();
  return { ...body, email: user.email, id: user._id, token, auth: { authorization: `Bearer ${token}` } };
}

export function json<T = any>(response: LightMyRequestResponse): T {
  return response.json() as T;
}
