import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AuthOutput, RegisterSignInOutput, Role } from '@gradewise/shared/contracts/auth';

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

/**
 * Registers a user through the real endpoints (an app without SMTP), as a person does: register,
 * then log in (registration answers no token, decision 0069). Answers their token and auth header.
 */
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
  expectStatus<RegisterSignInOutput>(response, 201, 'register');
  const loggedIn = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: body.email, password: body.password },
  });
  const { token, user } = expectStatus<AuthOutput>(loggedIn, 200, 'log in after registering');
  // The account is the one just registered: an address already taken would not log in with this password.
  if (user.name !== body.name || user.role !== body.role) throw new Error(`register: ${body.email} was taken`);
  return { ...body, email: user.email, id: user._id, token, auth: { authorization: `Bearer ${token}` } };
}

/**
 * The JSON body of a response, read as the contract type `T` the route declares (the server
 * serialises through that schema, so a test names it instead of reading an untyped value).
 */
export function json<T>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

/** The body as `T` when the status is the expected one; otherwise throws with the server's answer. */
export function expectStatus<T>(response: LightMyRequestResponse, status: number, what: string): T {
  if (response.statusCode !== status) throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  return json<T>(response);
}
