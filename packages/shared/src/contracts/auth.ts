import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

export const ROLES = ['student', 'instructor'] as const;
export const Role = lazySchema(() => z.enum(ROLES));
export type Role = z.infer<typeof Role>;

export const PASSWORD_MIN_LENGTH = 8;

/** Emails are compared trimmed and lower-cased everywhere (login, register, rosters). */
export const Email = lazySchema(() =>
  z
    .string({ error: 'Email is required.' })
    .trim()
    .toLowerCase()
    .min(1, 'Email is required.')
    .max(254, 'Email is too long.')
    .pipe(z.email({ error: 'Please enter a valid email address.' })),
);

/**
 * A new password (register, change, reset). The length rule is checked here; whether it is too
 * common or too close to the account's email is the server's password policy (auth/password-policy.ts).
 */
export const NewPassword = lazySchema(() =>
  z
    .string({ error: 'Password is required.' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(200, 'Password must be at most 200 characters.'),
);

export const RegisterInput = lazySchema(() =>
  z.object({
    name: z
      .string({ error: 'Name is required.' })
      .trim()
      .min(1, 'Name is required.')
      .max(120, 'Name must be at most 120 characters.'),
    email: Email,
    password: NewPassword,
    role: Role.default('student'),
  }),
);
export type RegisterInput = z.input<typeof RegisterInput>;

export const LoginInput = lazySchema(() =>
  z.object({
    email: Email,
    password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
  }),
);
export type LoginInput = z.input<typeof LoginInput>;

/** The user object returned by login, register and GET /auth/user. Never carries the hash. */
export const UserOutput = lazySchema(() =>
  z.object({
    _id: z.string(),
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: Role,
  }),
);
export type UserOutput = z.infer<typeof UserOutput>;

export const AuthOutput = lazySchema(() =>
  z.object({
    token: z.string(),
    user: UserOutput,
    message: z.string(),
  }),
);
export type AuthOutput = z.infer<typeof AuthOutput>;

/** What the server can do here: without SMTP there is no email verification or password reset. */
export const AuthSettingsOutput = lazySchema(() => z.object({ emailDelivery: z.boolean() }));
export type AuthSettingsOutput = z.infer<typeof AuthSettingsOutput>;

/**
 * Registration with email delivery on: no token and the same answer whether or not the email
 * already had an account (so registration cannot list accounts); the link in the email logs in.
 */
export const RegisterPendingOutput = lazySchema(() =>
  z.object({ message: z.string(), verificationSent: z.literal(true) }),
);
export type RegisterPendingOutput = z.infer<typeof RegisterPendingOutput>;

/**
 * Registration without email delivery (issue 28): no token, and the same answer whether the
 * account was just made or the address already had one (or an invitation keeps it for a student),
 * so registration cannot list accounts. The caller signs in next, as the spec's register screen
 * does ("Registration successful! Redirecting to login…").
 */
export const RegisterSignInOutput = lazySchema(() => z.object({ message: z.string(), signInNext: z.literal(true) }));
export type RegisterSignInOutput = z.infer<typeof RegisterSignInOutput>;

export const LinkTokenInput = lazySchema(() =>
  z.object({
    token: z.string({ error: 'The link is incomplete.' }).min(1, 'The link is incomplete.').max(200),
  }),
);
export type LinkTokenInput = z.input<typeof LinkTokenInput>;

export const ForgotPasswordInput = lazySchema(() => z.object({ email: Email }));
export type ForgotPasswordInput = z.input<typeof ForgotPasswordInput>;

export const ResetPasswordInput = lazySchema(() => LinkTokenInput.extend({ password: NewPassword }));
export type ResetPasswordInput = z.input<typeof ResetPasswordInput>;

export const ChangePasswordInput = lazySchema(() =>
  z.object({
    currentPassword: z
      .string({ error: 'Your current password is required.' })
      .min(1, 'Your current password is required.')
      .max(200),
    newPassword: NewPassword,
  }),
);
export type ChangePasswordInput = z.input<typeof ChangePasswordInput>;

export const DeleteAccountInput = lazySchema(() =>
  z.object({
    password: z.string({ error: 'Your password is required.' }).min(1, 'Your password is required.').max(200),
  }),
);
export type DeleteAccountInput = z.input<typeof DeleteAccountInput>;
