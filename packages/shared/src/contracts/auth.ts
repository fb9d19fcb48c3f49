import { z } from 'zod';

export const ROLES = ['student', 'instructor'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const PASSWORD_MIN_LENGTH = 8;

/** Emails are compared trimmed and lower-cased everywhere (login, register, rosters). */
export const Email = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .pipe(z.email({ error: 'Please enter a valid email address.' }));

export const RegisterInput = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(120, 'Name must be at most 120 characters.'),
  email: Email,
  password: z
    .string({ error: 'Password is required.' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(200, 'Password must be at most 200 characters.'),
  role: Role.default('student'),
});
export type RegisterInput = z.input<typeof RegisterInput>;

export const LoginInput = z.object({
  email: Email,
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});
export type LoginInput = z.input<typeof LoginInput>;

/** The user object returned by login, register and GET /auth/user. Never carries the hash. */
export const UserOutput = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
});
export type UserOutput = z.infer<typeof UserOutput>;

export const AuthOutput = z.object({
  token: z.string(),
  user: UserOutput,
  message: z.string(),
});
export type AuthOutput = z.infer<typeof AuthOutput>;
