import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageOutput } from '@gradewise/shared/errors';
import {
  AccountLinkInput,
  AccountLinkOutput,
  AddDeploymentsInput,
  CourseLmsLinksOutput,
  DeepLinkInput,
  DeepLinkOutput,
  GradePassbackOutput,
  HandoffInput,
  HandoffOutput,
  LinkContextInput,
  LinkContextOutput,
  PlatformList,
  PlatformOutput,
  RegisterPlatformInput,
  RosterSyncOutput,
  RotateKeyOutput,
  SendGradesOutput,
  ToolConfigOutput,
} from '@gradewise/shared/contracts/lti';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { presentUser } from '../../presenters/user-presenter.ts';
import { createDeepLinkResponse } from '../../services/lti-deep-linking.ts';
import { readGradePassback, sendGradesToLms } from '../../services/lti-grade-passback.ts';
import { readCourseLmsLinks, syncLtiRoster, syncRosterAtLaunch } from '../../services/lti-roster-sync.ts';
import {
  completeLaunch,
  linkExistingAccount,
  linkLtiContext,
  loginToRestart,
  redeemHandoff,
  startLogin,
  toolUrls,
  type LoginInitiation,
} from '../../services/lti-launch.ts';
import {
  activeToolKey,
  addDeployments,
  listPlatforms,
  publishedToolKeys,
  registerPlatform,
  removePlatform,
  rotateToolKey,
  type RegisteredPlatform,
} from '../../services/lti-registration.ts';
import { currentUser } from '../access.ts';
import { isFramed, sendFormPostPage, sendPage, wantsPage } from '../lti-pages.ts';

const IdParams = z.object({ id: z.string() });
const LoginParams = z.object({
  iss: z.string().min(1).max(2000),
  login_hint: z.string().min(1).max(4000),
  target_link_uri: z.string().min(1).max(2000),
  lti_message_hint: z.string().max(4000).optional(),
  client_id: z.string().max(255).optional(),
  lti_deployment_id: z.string().max(255).optional(),
});
const LaunchBody = z
  .object({ id_token: z.string().max(64_000).optional(), state: z.string().max(200).optional() })
  .passthrough();
const JwksOutput = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

const STATE_COOKIE_PREFIX = 'gw_lti_';
const STATE_MAX_AGE_SECONDS = 600;

/** The address this tool is reached at: PUBLIC_URL when set (behind a proxy), else this request's own. */
function baseUrlOf(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

function presentPlatform(platform: RegisteredPlatform): PlatformOutput {
  return {
    _id: platform.id,
    name: platform.name,
    issuer: platform.issuer,
    clientId: platform.clientId,
    deploymentIds: platform.deploymentIds,
    authLoginUrl: platform.authLoginUrl,
    authTokenUrl: platform.authTokenUrl,
    keysetUrl: platform.keysetUrl,
    createdAt: platform.createdAt.toISOString(),
  };
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * A refusal of the launch flow: a page for a browser (the person sees why, nothing was created),
 * the usual `{ code, message }` for anything else.
 */
function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  link?: { href: string; label: string; newTab?: boolean },
) {
  if (!(error instanceof AppError) || !wantsPage(request)) throw error;
  return sendPage(reply, error.status, { title: 'Gradewise could not open', message: error.message, link });
}

/**
 * LTI 1.3 Advantage (issue 32, decision 0074). Registration is for instructors (each sees and
 * removes their own); the tool's JWKS, the OIDC login initiation and the launch are public (the
 * platform's signed id_token is the credential); the handoff code is a one-time permission.
 */
export function ltiRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // The launch and the login initiation arrive as HTML form posts (this plugin only).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 128 * 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    app.get(
      '/api/lti/jwks',
      { config: { access: 'public' }, schema: { response: { 200: JwksOutput } } },
      async (_request, reply) => {
        void reply.header('cache-control', 'public, max-age=300');
        return publishedToolKeys(ctx);
      },
    );

    app.get(
      '/api/lti/tool',
      { config: { access: 'instructor' }, schema: { response: { 200: ToolConfigOutput } } },
      async (request) => ({ ...toolUrls(baseUrlOf(ctx, request)), activeKeyId: (await activeToolKey(ctx)).kid }),
    );

    app.post(
      '/api/lti/keys/rotate',
      { config: { access: 'instructor' }, schema: { response: { 200: RotateKeyOutput } } },
      async (request) => {
        const rotated = await rotateToolKey(ctx, currentUser(request));
        return {
          message: 'A new signing key is in use. The previous one stays published for a day, then is removed.',
          ...rotated,
        };
      },
    );

    app.get(
      '/api/lti/platforms',
      { config: { access: 'instructor' }, schema: { response: { 200: PlatformList } } },
      async (request) => ({ platforms: (await listPlatforms(ctx, currentUser(request))).map(presentPlatform) }),
    );

    app.post(
      '/api/lti/platforms',
      { config: { access: 'instructor' }, schema: { body: RegisterPlatformInput, response: { 201: PlatformOutput } } },
      async (request, reply) => {
        const platform = await registerPlatform(ctx, currentUser(request), request.body);
        return reply.status(201).send(presentPlatform(platform));
      },
    );

    app.post(
      '/api/lti/platforms/:id/deployments',
      {
        config: { access: 'instructor' },
        schema: { params: IdParams, body: AddDeploymentsInput, response: { 200: PlatformOutput } },
      },
      async (request) =>
        presentPlatform(await addDeployments(ctx, currentUser(request), request.params.id, request.body.deploymentIds)),
    );

    app.delete(
      '/api/lti/platforms/:id',
      { config: { access: 'instructor' }, schema: { params: IdParams, response: { 200: MessageOutput } } },
      async (request) => {
        const platform = await removePlatform(ctx, currentUser(request), request.params.id);
        return { message: `${platform.name} is no longer registered: launches from it are refused.` };
      },
    );

    // OIDC third-party login initiation (LTI 1.3 core 5.1.1): GET or POST, as the platform likes.
    const login = async (request: FastifyRequest, reply: FastifyReply, params: LoginInitiation) => {
      try {
        const baseUrl = baseUrlOf(ctx, request);
        const { redirectTo, state } = await startLogin(ctx, params, baseUrl);
        const secure = baseUrl.startsWith('https:');
        void reply.header(
          'set-cookie',
          `${STATE_COOKIE_PREFIX}${state}=1; Path=/api/lti/launch; Max-Age=${STATE_MAX_AGE_SECONDS}; HttpOnly; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`,
        );
        return reply.header('cache-control', 'no-store').redirect(redirectTo, 302);
      } catch (error) {
        return refuse(request, reply, error);
      }
    };
    app.get(
      '/api/lti/login',
      { config: { access: 'public' }, schema: { querystring: LoginParams } },
      (request, reply) => login(request, reply, request.query),
    );
    app.post('/api/lti/login', { config: { access: 'public' }, schema: { body: LoginParams } }, (request, reply) =>
      login(request, reply, request.body),
    );

    // The launch (resource link or deep linking request): the platform form-posts the id_token.
    app.post(
      '/api/lti/launch',
      { config: { access: 'public' }, schema: { body: LaunchBody } },
      async (request, reply) => {
        const { id_token: idToken, state } = request.body;
        const cookie = state ? `${STATE_COOKIE_PREFIX}${state}` : undefined;
        const browserHasState = cookie !== undefined && cookieOf(request, cookie) === '1';
        try {
          const { code, contextId } = await completeLaunch(ctx, { idToken, state, browserHasState });
          // At most once an hour per LMS course, and after the answer (decision 0076).
          await syncRosterAtLaunch(ctx, contextId);
          void reply.header('set-cookie', `${cookie}=; Path=/api/lti/launch; Max-Age=0; HttpOnly; SameSite=Lax`);
          const landing = `${baseUrlOf(ctx, request)}/lti/landing#code=${code}`;
          if (isFramed(request)) {
            // The web app is not framed (its own CSP): it opens in a tab of its own, with its own storage.
            return sendPage(reply, 200, {
              title: 'Gradewise is ready',
              message: 'Gradewise opens in a new tab, where you stay signed in.',
              link: { href: landing, label: 'Open Gradewise in a new tab', newTab: true },
            });
          }
          return reply.header('cache-control', 'no-store').redirect(landing, 303);
        } catch (error) {
          if (error instanceof AppError && 'reason' in error && error.reason === 'browser' && state) {
            // The state cookie did not come back (a framed launch with third-party cookies blocked):
            // the same login can start again in a tab of its own, where the cookie is first-party.
            const restart = await loginToRestart(ctx, state);
            if (restart) {
              const href = `${baseUrlOf(ctx, request)}/api/lti/login?${new URLSearchParams({ ...restart })}`;
              return refuse(request, reply, error, { href, label: 'Open Gradewise in a new tab', newTab: true });
            }
          }
          return refuse(request, reply, error);
        }
      },
    );

    app.post(
      '/api/lti/handoff',
      { config: { access: 'public' }, schema: { body: HandoffInput, response: { 200: HandoffOutput } } },
      async (request) => {
        const { user, landing, accountLinkCode } = await redeemHandoff(ctx, request.body.code);
        return {
          token: ctx.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }),
          user: presentUser(user),
          message: 'Signed in from your LMS.',
          landing,
          ...(accountLinkCode ? { accountLinkCode } : {}),
        };
      },
    );

    // "Use my existing Gradewise account" (decision 0076): the launch's link code plus that
    // account's email and password, throttled as sign-in is.
    app.post(
      '/api/lti/account-link',
      {
        config: { access: 'public', rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
        schema: { body: AccountLinkInput, response: { 200: AccountLinkOutput } },
      },
      async (request) => {
        const { user, landing } = await linkExistingAccount(ctx, request.body, request.ip);
        return {
          token: ctx.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }),
          user: presentUser(user),
          message: 'Your LMS account now opens your existing Gradewise account.',
          landing,
        };
      },
    );

    app.post(
      '/api/lti/contexts/:id/link',
      {
        config: { access: 'instructor' },
        schema: { params: IdParams, body: LinkContextInput, response: { 200: LinkContextOutput } },
      },
      async (request) => {
        const { course, context } = await linkLtiContext(ctx, currentUser(request), request.params.id, request.body);
        return { message: `${context.title} in your LMS now opens ${course.title}.`, courseId: course.id };
      },
    );

    // Names and Role Provisioning Services: the course's owner brings the roster in line with the LMS.
    app.post(
      '/api/courses/:id/lti-roster-sync',
      { config: { access: 'user' }, schema: { params: IdParams, response: { 200: RosterSyncOutput } } },
      async (request) => {
        const result = await syncLtiRoster(ctx, currentUser(request), request.params.id);
        return {
          message: `Roster synced from the LMS: ${result.active} people in the course, ${result.left} marked as left.`,
          ...result,
        };
      },
    );

    // The LMS courses linked to a course, with their roster's state: the course's staff (decision 0076).
    app.get(
      '/api/courses/:id/lti-links',
      { config: { access: 'user' }, schema: { params: IdParams, response: { 200: CourseLmsLinksOutput } } },
      async (request) => {
        const links = await readCourseLmsLinks(ctx, currentUser(request), request.params.id);
        return {
          links: links.map((link) => ({ ...link, rosterSyncedAt: link.rosterSyncedAt?.toISOString() ?? null })),
        };
      },
    );

    // Assignment and Grade Services (decision 0076): where each student's score stands with the LMS,
    // for the course's staff; the owner sends them all again.
    app.get(
      '/api/assignments/:id/lti-grade-passback',
      { config: { access: 'user' }, schema: { params: IdParams, response: { 200: GradePassbackOutput } } },
      async (request) => {
        const view = await readGradePassback(ctx, currentUser(request), request.params.id);
        return {
          lmsCourses: view.lmsCourses,
          rows: view.rows.map((row) => ({ ...row, at: row.at.toISOString() })),
        };
      },
    );
    app.post(
      '/api/assignments/:id/lti-grade-passback',
      { config: { access: 'user' }, schema: { params: IdParams, response: { 200: SendGradesOutput } } },
      async (request) => {
        const queued = await sendGradesToLms(ctx, currentUser(request), request.params.id);
        return {
          message:
            queued === 0
              ? 'No student of this course has come from the LMS yet: there is nothing to send.'
              : `Sending the released grades of ${queued} ${queued === 1 ? 'student' : 'students'} to the LMS.`,
          queued,
        };
      },
    );

    // The answer to a deep linking request: the picker's form posts here (its code is the
    // permission); a browser gets a page that form-posts the signed response to the LMS.
    app.post(
      '/api/lti/deep-links',
      { config: { access: 'public' }, schema: { body: DeepLinkInput, response: { 200: DeepLinkOutput } } },
      async (request, reply) => {
        try {
          const answer = await createDeepLinkResponse(ctx, request.body, baseUrlOf(ctx, request));
          if (!wantsPage(request)) return answer;
          return sendFormPostPage(reply, {
            title: 'Adding the link to your LMS',
            message: 'Gradewise is sending the link to your LMS.',
            action: answer.returnUrl,
            fields: { JWT: answer.jwt },
            button: 'Return to your LMS',
          });
        } catch (error) {
          return refuse(request, reply, error);
        }
      },
    );
  };
}
