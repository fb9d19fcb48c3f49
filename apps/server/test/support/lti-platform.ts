import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

/**
 * A test LTI 1.3 platform (an LMS) of the project's own, as PrairieLearn's tests have one: a real
 * HTTP server with its own RSA keys and JWKS, the OIDC authorization endpoint of the third-party
 * login (it answers the browser an auto-submitting form that posts a real RS256 id_token to the
 * tool), and course pages with a link that starts a launch in a real browser. It records what the
 * tool sent it. No vitest imports: the Playwright journeys use it too.
 *
 *   const lms = await startTestPlatform();
 *   ... register lms.registration(deploymentId) with Gradewise ...
 *   lms.nextLaunch({ sub: 'u1', roles: [ROLE.instructor], context: { id: 'c1', title: 'Physics' } });
 *   browser -> lms.loginUrlFor(toolLoginUrl, toolLaunchUrl) ... -> tool
 *   await lms.close();
 */

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership';
export const ROLE = {
  instructor: `${MEMBERSHIP}#Instructor`,
  ta: `${MEMBERSHIP}/Instructor#TeachingAssistant`,
  learner: `${MEMBERSHIP}#Learner`,
  mentor: `${MEMBERSHIP}#Mentor`,
  /** An institution role: says nothing about the course. */
  institutionAdmin: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
} as const;

/** Who launches, from where, and how the platform misbehaves (for the hostile launches). */
export interface LaunchSpec {
  sub: string;
  name?: string;
  email?: string;
  roles: string[];
  context?: { id: string; title?: string; label?: string };
  resourceLink?: { id: string; title?: string };
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest' | string;
  version?: string;
  deploymentId?: string;
  custom?: Record<string, string>;
  deepLinkReturnUrl?: string;
  deepLinkData?: string;
  /** Hostile: the audience the token names instead of the client id. */
  audience?: string | string[];
  /** Hostile: `azp` set to this. */
  azp?: string;
  /** Hostile: seconds from now the token expires (negative: already expired). */
  expiresInSeconds?: number;
  /** Hostile: `iat` this many seconds ago. */
  issuedSecondsAgo?: number;
  /** Hostile: sign with `alg: none` (no signature). */
  unsigned?: boolean;
  /** Hostile: sign with a key the platform's JWKS does not publish. */
  rogueKey?: boolean;
  /** Hostile: change the payload after signing (the signature then no longer matches). */
  tamper?: (payload: Record<string, unknown>) => void;
  /** Hostile: the nonce to put in the token instead of the one the tool sent. */
  nonce?: string;
  /** Hostile: a different issuer. */
  issuer?: string;
  /** Offer Names and Role Provisioning Services for the context (its membership URL in the launch). */
  nrps?: boolean;
  /** Offer Assignment and Grade Services: the context's line items URL, and this link's line item when given. */
  ags?: { lineitem?: string };
}

/** A line item the platform holds (AGS 2.0). */
export interface PlatformLineItem {
  id: string;
  scoreMaximum: number;
  label: string;
  resourceId?: string;
  resourceLinkId?: string;
  tag?: string;
}

/** A request the tool sent to a line items or scores endpoint, as received. */
export interface AgsRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  accept: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown> | null;
  /** What the platform answered. */
  status: number;
}

/** A member of a context, as NRPS lists it. */
export interface PlatformMember {
  user_id: string;
  roles: string[];
  name?: string;
  email?: string;
  status?: 'Active' | 'Inactive' | 'Deleted';
}

/** What the tool sent to a service endpoint. */
export interface ServiceRequest {
  path: string;
  authorization: string | undefined;
  accept: string | undefined;
}

/** One authorization request the tool's login initiation sent the browser with. */
export type AuthRequest = Record<string, string>;

export interface TestPlatform {
  issuer: string;
  clientId: string;
  baseUrl: string;
  authLoginUrl: string;
  authTokenUrl: string;
  keysetUrl: string;
  /** What Gradewise's registration form takes, for this platform and these deployments. */
  registration(
    deploymentIds: string[],
    name?: string,
  ): {
    name: string;
    issuer: string;
    clientId: string;
    deploymentIds: string[];
    authLoginUrl: string;
    authTokenUrl: string;
    keysetUrl: string;
  };
  /** The launch the next authorization request answers (under this login hint). */
  nextLaunch(spec: LaunchSpec): string;
  /** The tool's login initiation URL with this platform's parameters for a prepared launch. */
  loginUrlFor(toolLoginUrl: string, targetLinkUri: string, loginHint: string): string;
  /** A platform page (a course) whose link opens the prepared launch: `framed` puts the tool in an iframe. */
  coursePageUrl(toolLoginUrl: string, targetLinkUri: string, loginHint: string, framed?: boolean): string;
  /** Every authorization request received, in order. */
  authRequests(): AuthRequest[];
  /** The id_tokens it sent (payloads), in order. */
  sentTokens(): JWTPayload[];
  /** Signs a token as the platform would (for replays built by a test). */
  sign(payload: Record<string, unknown>): Promise<string>;
  /** Deep linking responses the tool form-posted back, verified against the tool's JWKS. */
  deepLinkResponses(): Array<{ payload: JWTPayload | null; error: string | null }>;
  /** Where Deep Linking responses come back (the return URL). */
  deepLinkReturnUrl: string;
  /** Tool JWKS URL used to verify deep linking responses and service client assertions. */
  setToolJwksUrl(url: string): void;
  /** The roster NRPS answers for a context (two members a page). */
  setMembers(contextId: string, members: PlatformMember[]): void;
  /** Token requests: the grant, its scope and the verified client assertion (or why it failed). */
  tokenRequests(): Array<{ grantType: string; scope: string; assertion: JWTPayload | null; error: string | null }>;
  /** Every request to the membership endpoint. */
  membershipRequests(): ServiceRequest[];
  /** The context's line items URL (what a launch with `ags` names). */
  lineItemsUrlOf(contextId: string): string;
  /** Creates a line item as an LMS does for a deep link it received; answers it. */
  addLineItem(contextId: string, item: Omit<PlatformLineItem, 'id'>): PlatformLineItem;
  /** The context's line items. */
  lineItems(contextId: string): PlatformLineItem[];
  /** Every request to a line items or scores endpoint, in order. */
  agsRequests(): AgsRequest[];
  /** The next `count` score posts are answered with this status and text (a platform failing). */
  failNextScores(count: number, status: number, text: string): void;
  close(): Promise<void>;
}

export async function startTestPlatform(options: { clientId?: string } = {}): Promise<TestPlatform> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const rogue = await generateKeyPair('RS256', { extractable: true });
  const kid = `platform-${randomBytes(4).toString('hex')}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const clientId = options.clientId ?? `gradewise-${randomBytes(4).toString('hex')}`;
  const launches = new Map<string, LaunchSpec>();
  const received: AuthRequest[] = [];
  const tokens: JWTPayload[] = [];
  const deepLinks: Array<{ payload: JWTPayload | null; error: string | null }> = [];
  const rosters = new Map<string, PlatformMember[]>();
  const tokenLog: Array<{ grantType: string; scope: string; assertion: JWTPayload | null; error: string | null }> = [];
  const membershipLog: ServiceRequest[] = [];
  const issuedTokens = new Set<string>();
  const lineItemsByContext = new Map<string, PlatformLineItem[]>();
  const agsLog: AgsRequest[] = [];
  const scoreFailures: Array<{ status: number; text: string }> = [];
  const PAGE_SIZE = 2;
  let toolJwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${baseUrl}/lms`;
  // A path of this platform's own: the server keeps a key set per URL for its whole process
  // (lti/verify-id-token.ts, refetched at most every 30 s), so a later platform given this one's
  // port (a file starts several) is never answered from this one's keys (decision 0094).
  const keysetUrl = `${baseUrl}/jwks/${kid}`;
  const deepLinkReturnUrl = `${baseUrl}/deep-link-return`;

  async function signWith(payload: Record<string, unknown>, spec: Partial<LaunchSpec>): Promise<string> {
    if (spec.unsigned) {
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`;
    }
    const key: CryptoKey = spec.rogueKey ? rogue.privateKey : privateKey;
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: spec.rogueKey ? 'rogue-key' : kid, typ: 'JWT' })
      .sign(key);
    if (!spec.tamper) return token;
    const [header, body, signature] = token.split('.');
    const changed = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    spec.tamper(changed);
    return `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
  }

  async function idTokenFor(spec: LaunchSpec, nonce: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const messageType = spec.messageType ?? 'LtiResourceLinkRequest';
    const payload: Record<string, unknown> = {
      iss: spec.issuer ?? issuer,
      aud: spec.audience ?? clientId,
      sub: spec.sub,
      iat: now - (spec.issuedSecondsAgo ?? 0),
      exp: now + (spec.expiresInSeconds ?? 300),
      nonce: spec.nonce ?? nonce,
      ...(spec.azp !== undefined ? { azp: spec.azp } : {}),
      ...(spec.name ? { name: spec.name } : {}),
      ...(spec.email ? { email: spec.email } : {}),
      [`${LTI}message_type`]: messageType,
      [`${LTI}version`]: spec.version ?? '1.3.0',
      [`${LTI}deployment_id`]: spec.deploymentId ?? 'deployment-1',
      [`${LTI}target_link_uri`]: 'launch',
      [`${LTI}roles`]: spec.roles,
      ...(spec.context ? { [`${LTI}context`]: spec.context } : {}),
      ...(messageType === 'LtiResourceLinkRequest'
        ? { [`${LTI}resource_link`]: spec.resourceLink ?? { id: `link-${randomUUID()}` } }
        : {}),
      ...(spec.custom ? { [`${LTI}custom`]: spec.custom } : {}),
      ...(spec.nrps && spec.context
        ? {
            'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
              context_memberships_url: `${baseUrl}/memberships/${encodeURIComponent(spec.context.id)}`,
              service_versions: ['2.0'],
            },
          }
        : {}),
      ...(spec.ags && spec.context
        ? {
            'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
              scope: [
                'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
                'https://purl.imsglobal.org/spec/lti-ags/scope/score',
              ],
              lineitems: lineItemsUrlOf(spec.context.id),
              ...(spec.ags.lineitem ? { lineitem: spec.ags.lineitem } : {}),
            },
          }
        : {}),
      ...(messageType === 'LtiDeepLinkingRequest'
        ? {
            'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
              deep_link_return_url: spec.deepLinkReturnUrl ?? deepLinkReturnUrl,
              accept_types: ['ltiResourceLink'],
              accept_presentation_document_targets: ['iframe', 'window'],
              ...(spec.deepLinkData ? { data: spec.deepLinkData } : {}),
            },
          }
        : {}),
    };
    tokens.push(payload as JWTPayload);
    return signWith(payload, spec);
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', baseUrl);
    if (url.pathname === `/jwks/${kid}`) {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    if (url.pathname === '/auth') {
      // The OIDC authorization endpoint (LTI 1.3 core 5.1.1.2): checks the tool's request, answers a form post.
      const query = Object.fromEntries(url.searchParams);
      received.push(query);
      const problems = [
        query['scope'] !== 'openid' && 'scope',
        query['response_type'] !== 'id_token' && 'response_type',
        query['response_mode'] !== 'form_post' && 'response_mode',
        query['prompt'] !== 'none' && 'prompt',
        query['client_id'] !== clientId && 'client_id',
        !query['nonce'] && 'nonce',
        !query['state'] && 'state',
        !query['redirect_uri'] && 'redirect_uri',
      ].filter(Boolean);
      const spec = launches.get(query['login_hint'] ?? '');
      if (problems.length > 0 || !spec) {
        response.statusCode = 400;
        response.end(`invalid authorization request: ${problems.join(', ') || 'unknown login_hint'}`);
        return;
      }
      const idToken = await idTokenFor(spec, query['nonce']!);
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html lang="en"><head><title>Launching</title></head>
<body onload="document.forms[0].submit()"><form method="post" action="${escape(query['redirect_uri']!)}">
<input type="hidden" name="id_token" value="${escape(idToken)}">
<input type="hidden" name="state" value="${escape(query['state']!)}">
<noscript><button type="submit">Continue</button></noscript></form></body></html>`);
      return;
    }
    if (url.pathname === '/course') {
      const login = url.searchParams.get('login') ?? '';
      const framed = url.searchParams.get('framed') === '1';
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        framed
          ? `<!doctype html><html lang="en"><head><title>Test LMS course</title></head><body><h1>Test LMS course</h1>
<iframe title="Gradewise" src="${escape(login)}" style="width:100%;height:600px"></iframe></body></html>`
          : `<!doctype html><html lang="en"><head><title>Test LMS course</title></head><body><h1>Test LMS course</h1>
<a href="${escape(login)}">Open Gradewise</a></body></html>`,
      );
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      // OAuth 2 client credentials with a JWT client assertion (IMS Security Framework 4.1).
      const body = Object.fromEntries(new URLSearchParams(await readBody(request)));
      const entry = {
        grantType: body['grant_type'] ?? '',
        scope: body['scope'] ?? '',
        assertion: null as JWTPayload | null,
        error: null as string | null,
      };
      try {
        if (!toolJwks) throw new Error('no tool JWKS configured');
        if (body['client_assertion_type'] !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
          throw new Error('client_assertion_type');
        const { payload } = await jwtVerify(body['client_assertion'] ?? '', toolJwks, {
          issuer: clientId,
          subject: clientId,
          audience: `${baseUrl}/token`,
          algorithms: ['RS256'],
          requiredClaims: ['jti', 'exp', 'iat'],
        });
        entry.assertion = payload;
      } catch (error) {
        entry.error = String(error);
      }
      tokenLog.push(entry);
      response.setHeader('content-type', 'application/json');
      if (entry.error || entry.grantType !== 'client_credentials') {
        response.statusCode = 401;
        response.end(JSON.stringify({ error: 'invalid_client' }));
        return;
      }
      const accessToken = randomBytes(16).toString('hex');
      issuedTokens.add(accessToken);
      response.end(
        JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: entry.scope }),
      );
      return;
    }
    if (url.pathname.startsWith('/memberships/')) {
      membershipLog.push({
        path: `${url.pathname}${url.search}`,
        authorization: request.headers.authorization,
        accept: request.headers.accept,
      });
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !issuedTokens.has(bearer)) {
        response.statusCode = 401;
        response.end('unauthorized');
        return;
      }
      const contextId = decodeURIComponent(url.pathname.slice('/memberships/'.length));
      const members = rosters.get(contextId) ?? [];
      const page = Number(url.searchParams.get('page') ?? '0');
      const slice = members.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
      if ((page + 1) * PAGE_SIZE < members.length) {
        response.setHeader('link', `<${baseUrl}${url.pathname}?page=${page + 1}>; rel="next"`);
      }
      response.setHeader('content-type', 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json');
      response.end(JSON.stringify({ id: `${baseUrl}${url.pathname}`, context: { id: contextId }, members: slice }));
      return;
    }
    if (url.pathname.startsWith('/lineitems/')) {
      await handleAgs(request, response, url);
      return;
    }
    if (url.pathname === '/deep-link-return' && request.method === 'POST') {
      const body = Object.fromEntries(new URLSearchParams(await readBody(request)));
      try {
        if (!toolJwks) throw new Error('no tool JWKS configured');
        const { payload } = await jwtVerify(body['JWT'] ?? '', toolJwks, {
          issuer: clientId,
          audience: issuer,
          algorithms: ['RS256'],
        });
        deepLinks.push({ payload, error: null });
      } catch (error) {
        deepLinks.push({ payload: null, error: String(error) });
      }
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        '<!doctype html><html lang="en"><head><title>Link added</title></head><body><h1>Link added</h1></body></html>',
      );
      return;
    }
    response.statusCode = 404;
    response.end('not found');
  }

  /**
   * Assignment and Grade Services 2.0: `/lineitems/<context>` lists (filtered by `resource_id`,
   * `resource_link_id`, `tag`) and creates line items; `/lineitems/<context>/<n>/scores` takes
   * scores. Each request is recorded with what it carried and what was answered.
   */
  async function handleAgs(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const text = request.method === 'POST' ? await readBody(request) : '';
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const entry: AgsRequest = {
      method: request.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      authorization: request.headers.authorization,
      accept: request.headers.accept,
      contentType: request.headers['content-type'],
      body,
      status: 200,
    };
    agsLog.push(entry);
    const answer = (status: number, payload: string, contentType = 'application/json') => {
      entry.status = status;
      response.statusCode = status;
      response.setHeader('content-type', contentType);
      response.end(payload);
    };
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !issuedTokens.has(bearer)) return answer(401, 'unauthorized', 'text/plain');
    const [, , encodedContext, itemNumber, scores] = url.pathname.split('/');
    const contextId = decodeURIComponent(encodedContext ?? '');
    const items = lineItemsByContext.get(contextId) ?? [];
    if (itemNumber === undefined) {
      if (request.method === 'GET') {
        const filtered = items.filter(
          (item) =>
            (!url.searchParams.has('resource_id') || item.resourceId === url.searchParams.get('resource_id')) &&
            (!url.searchParams.has('resource_link_id') ||
              item.resourceLinkId === url.searchParams.get('resource_link_id')) &&
            (!url.searchParams.has('tag') || item.tag === url.searchParams.get('tag')),
        );
        return answer(200, JSON.stringify(filtered), 'application/vnd.ims.lis.v2.lineitemcontainer+json');
      }
      if (request.method === 'POST') {
        if (entry.contentType !== 'application/vnd.ims.lis.v2.lineitem+json' || !body)
          return answer(415, 'a line item is application/vnd.ims.lis.v2.lineitem+json', 'text/plain');
        if (typeof body['scoreMaximum'] !== 'number' || typeof body['label'] !== 'string')
          return answer(400, 'scoreMaximum and label are required', 'text/plain');
        const created = addLineItem(contextId, body as unknown as Omit<PlatformLineItem, 'id'>);
        return answer(201, JSON.stringify(created), 'application/vnd.ims.lis.v2.lineitem+json');
      }
    }
    const item = items.find((candidate) => candidate.id === `${lineItemsUrlOf(contextId)}/${itemNumber}`);
    if (!item) return answer(404, 'no such line item', 'text/plain');
    if (scores === 'scores' && request.method === 'POST') {
      if (entry.contentType !== 'application/vnd.ims.lis.v1.score+json')
        return answer(415, 'a score is application/vnd.ims.lis.v1.score+json', 'text/plain');
      const failure = scoreFailures.shift();
      if (failure) return answer(failure.status, failure.text, 'text/plain');
      return answer(204, '');
    }
    return answer(405, 'not supported', 'text/plain');
  }

  function lineItemsUrlOf(contextId: string): string {
    return `${baseUrl}/lineitems/${encodeURIComponent(contextId)}`;
  }

  function addLineItem(contextId: string, item: Omit<PlatformLineItem, 'id'>): PlatformLineItem {
    const items = lineItemsByContext.get(contextId) ?? [];
    const created = { ...item, id: `${lineItemsUrlOf(contextId)}/${items.length + 1}` };
    items.push(created);
    lineItemsByContext.set(contextId, items);
    return created;
  }

  function loginUrlFor(toolLoginUrl: string, targetLinkUri: string, loginHint: string): string {
    const query = new URLSearchParams({
      iss: issuer,
      login_hint: loginHint,
      target_link_uri: targetLinkUri,
      lti_message_hint: `message-${loginHint}`,
      client_id: clientId,
    });
    return `${toolLoginUrl}?${query}`;
  }

  return {
    issuer,
    clientId,
    baseUrl,
    authLoginUrl: `${baseUrl}/auth`,
    authTokenUrl: `${baseUrl}/token`,
    keysetUrl,
    deepLinkReturnUrl,
    registration: (deploymentIds, name = 'Test LMS') => ({
      name,
      issuer,
      clientId,
      deploymentIds,
      authLoginUrl: `${baseUrl}/auth`,
      authTokenUrl: `${baseUrl}/token`,
      keysetUrl,
    }),
    nextLaunch(spec) {
      const hint = `hint-${randomUUID()}`;
      launches.set(hint, spec);
      return hint;
    },
    loginUrlFor,
    coursePageUrl(toolLoginUrl, targetLinkUri, loginHint, framed = false) {
      const login = loginUrlFor(toolLoginUrl, targetLinkUri, loginHint);
      return `${baseUrl}/course?${new URLSearchParams({ login, ...(framed ? { framed: '1' } : {}) })}`;
    },
    authRequests: () => [...received],
    sentTokens: () => [...tokens],
    sign: (payload) => signWith(payload, {}),
    deepLinkResponses: () => [...deepLinks],
    setToolJwksUrl(url) {
      toolJwks = createRemoteJWKSet(new URL(url));
    },
    setMembers(contextId, members) {
      rosters.set(contextId, members);
    },
    tokenRequests: () => [...tokenLog],
    membershipRequests: () => [...membershipLog],
    lineItemsUrlOf,
    addLineItem,
    lineItems: (contextId) => [...(lineItemsByContext.get(contextId) ?? [])],
    agsRequests: () => [...agsLog],
    failNextScores(count, status, text) {
      for (let index = 0; index < count; index += 1) scoreFailures.push({ status, text });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}
