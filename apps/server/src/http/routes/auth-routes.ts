import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthOutput, LoginInput, RegisterInput, UserOutput } from '@gradewise/shared/contracts/auth';
import type { AppContext } from '../../context.ts';
import { presentUser } from '../../presenters/user-presenter.ts';
import { logInUser } from '../../services/log-in-user.ts';
import { registerUser } from '../../services/register-user.ts';
import { currentUser } from '../access.ts';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const rateLimit = { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' };
  return async (app) => {
    app.post(
      '/api/auth/register',
      { config: { access: 'public', rateLimit }, schema: { body: RegisterInput, response: { 201: AuthOutput } } },
      async (request, reply) => {
        const user = await registerUser(ctx, request.body);
        const token = await ctx.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion });
        return reply.status(201).send({ token, user: presentUser(user), message: 'Registration successful!' });
      },
    );

    app.post(
      '/api/auth/login',
      { config: { access: 'public', rateLimit }, schema: { body: LoginInput, response: { 200: AuthOutput } } },
      async (request) => {
        const user = await logInUser(ctx, request.body.email, request.body.password);
        const token = await ctx.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion });
        return { token, user: presentUser(user), message: 'Login successful!' };
      },
    );

    app.get(
      '/api/auth/user',
      { config: { access: 'user' }, schema: { response: { 200: UserOutput } } },
      async (request) => presentUser(currentUser(request)),
    );
  };
}
