import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthOutput,
  AuthSettingsOutput,
  ChangePasswordInput,
  DeleteAccountInput,
  ForgotPasswordInput,
  LinkTokenInput,
  LoginInput,
  RegisterInput,
  RegisterPendingOutput,
  RegisterSignInOutput,
  ResetPasswordInput,
  UserOutput,
} from '@gradewise/shared/contracts/auth';
import { MessageOutput } from '@gradewise/shared/errors';
import { revokeAllSessions, revokeToken } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { REGISTRATION_LINK_HOURS } from '../../mail/messages.ts';
import type { UserRow } from '../../models/users.ts';
import { presentUser } from '../../presenters/user-presenter.ts';
import { finishRegistration } from '../../services/finish-registration.ts';
import { logInUser } from '../../services/log-in-user.ts';
import { changePassword, deleteAccount } from '../../services/manage-account.ts';
import { registerUser } from '../../services/register-user.ts';
import { requestPasswordReset, resetPassword, RESET_REQUESTED_MESSAGE } from '../../services/reset-password.ts';
import { currentToken, currentUser } from '../access.ts';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Per client address: a flood guard. Password guessing is held back per account and client
  // (services/login-throttle.ts): nobody locks out others, behind the same address or elsewhere.
  const rateLimit = { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' };
  const signIn = async (user: UserRow, message: string) => ({
    token: ctx.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }),
    user: presentUser(user),
    message,
  });

  return async (app) => {
    app.get(
      '/api/auth/settings',
      { config: { access: 'public' }, schema: { response: { 200: AuthSettingsOutput } } },
      async () => ({ emailDelivery: ctx.mailer !== undefined }),
    );

    app.post(
      '/api/auth/register',
      {
        config: { access: 'public', rateLimit },
        schema: { body: RegisterInput, response: { 201: RegisterSignInOutput, 202: RegisterPendingOutput } },
      },
      async (request, reply) => {
        const registration = await registerUser(ctx, request.body);
        if (registration.kind === 'link-sent') {
          return reply.status(202).send({
            message: `Almost done: we sent a link to ${request.body.email}. Open it within ${REGISTRATION_LINK_HOURS} hours to finish registering.`,
            verificationSent: true as const,
          });
        }
        return reply.status(201).send({
          message: 'Registration successful! Please log in with your email and password.',
          signInNext: true as const,
        });
      },
    );

    app.post(
      '/api/auth/verify-email',
      { config: { access: 'public', rateLimit }, schema: { body: LinkTokenInput, response: { 200: AuthOutput } } },
      async (request) => {
        const user = await finishRegistration(ctx, request.body.token);
        return signIn(user, 'Your email is confirmed and your account is ready. Welcome to Gradewise!');
      },
    );

    app.post(
      '/api/auth/login',
      { config: { access: 'public', rateLimit }, schema: { body: LoginInput, response: { 200: AuthOutput } } },
      async (request) => {
        const user = await logInUser(ctx, request.body.email, request.body.password, request.ip);
        return signIn(user, 'Login successful!');
      },
    );

    app.get(
      '/api/auth/user',
      { config: { access: 'user' }, schema: { response: { 200: UserOutput } } },
      async (request) => presentUser(currentUser(request)),
    );

    app.post(
      '/api/auth/logout',
      { config: { access: 'user' }, schema: { response: { 200: MessageOutput } } },
      async (request) => {
        await revokeToken(ctx, currentToken(request));
        return { message: 'You are logged out.' };
      },
    );

    app.post(
      '/api/auth/logout-everywhere',
      { config: { access: 'user' }, schema: { response: { 200: MessageOutput } } },
      async (request) => {
        await revokeAllSessions(ctx, currentUser(request).id);
        return { message: 'You are signed out everywhere, on this device too.' };
      },
    );

    app.post(
      '/api/auth/change-password',
      { config: { access: 'user' }, schema: { body: ChangePasswordInput, response: { 200: AuthOutput } } },
      async (request) => {
        const { currentPassword, newPassword } = request.body;
        const user = await changePassword(ctx, currentUser(request), currentPassword, newPassword, request.ip);
        return signIn(user, 'Your password is changed. You were signed out everywhere else.');
      },
    );

    app.post(
      '/api/auth/forgot-password',
      {
        config: { access: 'public', rateLimit },
        schema: { body: ForgotPasswordInput, response: { 200: MessageOutput } },
      },
      async (request) => {
        await requestPasswordReset(ctx, request.body.email);
        return { message: RESET_REQUESTED_MESSAGE };
      },
    );

    app.post(
      '/api/auth/reset-password',
      {
        config: { access: 'public', rateLimit },
        schema: { body: ResetPasswordInput, response: { 200: MessageOutput } },
      },
      async (request) => {
        await resetPassword(ctx, request.body.token, request.body.password);
        return { message: 'Your password is changed. Please log in with it.' };
      },
    );

    app.post(
      '/api/auth/delete-account',
      { config: { access: 'user' }, schema: { body: DeleteAccountInput, response: { 200: MessageOutput } } },
      async (request) => {
        await deleteAccount(ctx, currentUser(request), request.body.password, request.ip);
        return { message: 'Your account is deleted.' };
      },
    );
  };
}
