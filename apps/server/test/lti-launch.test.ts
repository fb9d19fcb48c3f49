import type { AddressInfo } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandoffOutput, PlatformOutput, ToolConfigOutput } from '@gradewise/shared/contracts/lti';
import { courseStaff, enrollments, ltiContexts, ltiMembers, ltiUsers, users } from '../src/db/schema.ts';
import { createAssignment, createCourse } from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { ROLE, startTestPlatform, type LaunchSpec, type TestPlatform } from './support/lti-platform.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * LTI 1.3 launches (issue 32, decision 0074) from the project's own test platform, over real HTTP
 * both ways: the tool listens on a port, the platform on another; the "browser" here follows the
 * login redirect, reads the platform's auto-submitting form and posts it back with its cookie, as
 * a browser does. The platform's keys, JWKS and RS256 tokens are real.
 */

let t: TestApp;
let lms: TestPlatform;
let tool: string;
let registrant: TestUser;
let platform: PlatformOutput;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  tool = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  lms = await startTestPlatform();
  registrant = await registerUser(t.app, { role: 'instructor', name: 'Rita Registrar' });
  const response = await fetch(`${tool}/api/lti/platforms`, {
    method: 'POST',
    headers: { ...registrant.auth, 'content-type': 'application/json' },
    body: JSON.stringify(lms.registration(['deployment-1'])),
  });
  expect(response.status).toBe(201);
  platform = (await response.json()) as PlatformOutput;
  lms.setToolJwksUrl(`${tool}/api/lti/jwks`);
});
afterAll(async () => {
  await lms?.close();
  await t?.close();
});

interface Launched {
  response: Response;
  body: string;
  idToken: string;
  state: string;
  cookie: string;
}

/** A browser's launch: the platform's link to the tool's login, its redirect, the platform's form, the post. */
async function launch(spec: LaunchSpec, options: { withCookie?: boolean } = {}): Promise<Launched> {
  const hint = lms.nextLaunch(spec);
  const login = await fetch(lms.loginUrlFor(`${tool}/api/lti/login`, `${tool}/api/lti/launch`, hint), {
    redirect: 'manual',
  });
  expect(login.status).toBe(302);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const authorize = await fetch(login.headers.get('location')!);
  expect(authorize.status).toBe(200);
  const form = await authorize.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '';
  const action = /action="([^"]*)"/.exec(form)?.[1] ?? '';
  expect(action).toBe(`${tool}/api/lti/launch`);
  const idToken = field('id_token');
  const state = field('state');
  const response = await post({ idToken, state, cookie: options.withCookie === false ? '' : cookie });
  return { response, body: await response.clone().text(), idToken, state, cookie };
}

function post(launch: { idToken: string; state: string; cookie: string }): Promise<Response> {
  return fetch(`${tool}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml',
      ...(launch.cookie ? { cookie: launch.cookie } : {}),
    },
    body: new URLSearchParams({ id_token: launch.idToken, state: launch.state }),
  });
}

/** Follows a successful launch into the web app: trades the code for a session. */
async function signIn(launched: Launched): Promise<HandoffOutput> {
  expect(launched.response.status, launched.body).toBe(303);
  const location = launched.response.headers.get('location')!;
  expect(location.startsWith(`${tool}/lti/landing#code=`)).toBe(true);
  const code = location.split('#code=')[1]!;
  const response = await t.app.inject({ method: 'POST', url: '/api/lti/handoff', payload: { code } });
  const handoff = expectStatus<HandoffOutput>(response, 200, 'handoff');
  subjects.set(handoff.user.id, launchedSub(launched));
  return handoff;
}

const auth = (handoff: HandoffOutput) => ({ authorization: `Bearer ${handoff.token}` });

let unique = 0;
const person = (role: keyof typeof ROLE, contextId: string, extra: Partial<LaunchSpec> = {}): LaunchSpec => {
  unique += 1;
  return {
    sub: `${role}-${unique}`,
    name: `${role} person ${unique}`,
    email: `lms-${role}-${unique}@school.example`,
    roles: [ROLE[role]],
    context: { id: contextId, title: `LMS course ${contextId}` },
    resourceLink: { id: `resource-${contextId}` },
    ...extra,
  };
};

/** An LMS course already linked to a Gradewise course: its instructor's first launch created it. */
async function linkedContext(): Promise<{ contextId: string; courseId: string; instructor: HandoffOutput }> {
  const contextId = `ctx-${(unique += 1)}`;
  const instructor = await signIn(await launch(person('instructor', contextId)));
  if (instructor.landing.kind !== 'link') throw new Error('expected the first launch to offer a link');
  const linked = await t.app.inject({
    method: 'POST',
    url: `/api/lti/contexts/${instructor.landing.contextId}/link`,
    headers: auth(instructor),
    payload: { create: true },
  });
  const { courseId } = expectStatus<{ courseId: string }>(linked, 200, 'link');
  return { contextId, courseId, instructor };
}

async function tableCounts() {
  const db = t.ctx.db;
  const [u] = await db.select({ n: count() }).from(users);
  const [l] = await db.select({ n: count() }).from(ltiUsers);
  const [c] = await db.select({ n: count() }).from(ltiContexts);
  const [e] = await db.select({ n: count() }).from(enrollments);
  const [s] = await db.select({ n: count() }).from(courseStaff);
  return { users: u!.n, ltiUsers: l!.n, contexts: c!.n, enrollments: e!.n, staff: s!.n };
}

describe('LTI registration', () => {
  it('shows the URLs an LMS administrator pastes and publishes the signing key in the JWKS', async () => {
    const config = expectStatus<ToolConfigOutput>(
      await t.app.inject({
        method: 'GET',
        url: '/api/lti/tool',
        headers: { ...registrant.auth, host: new URL(tool).host },
      }),
      200,
      'tool config',
    );
    expect(config).toMatchObject({
      loginUrl: `${tool}/api/lti/login`,
      launchUrl: `${tool}/api/lti/launch`,
      jwksUrl: `${tool}/api/lti/jwks`,
      deepLinkingUrl: `${tool}/api/lti/launch`,
    });
    const jwks = (await (await fetch(`${tool}/api/lti/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((key) => key['kid'])).toContain(config.activeKeyId);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
    }
  });

  it('rotates the key, keeping the old one published until it expires', async () => {
    const before = expectStatus<ToolConfigOutput>(
      await t.app.inject({ method: 'GET', url: '/api/lti/tool', headers: registrant.auth }),
      200,
      'tool config',
    );
    const rotated = expectStatus<{ kid: string; retiredKid: string }>(
      await t.app.inject({ method: 'POST', url: '/api/lti/keys/rotate', headers: registrant.auth }),
      200,
      'rotate',
    );
    expect(rotated.retiredKid).toBe(before.activeKeyId);
    expect(rotated.kid).not.toBe(before.activeKeyId);
    const jwks = (await (await fetch(`${tool}/api/lti/jwks`)).json()) as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((key) => key.kid)).toEqual([rotated.kid, before.activeKeyId]);
    // An instructor who registered no LMS may not rotate the tool's key.
    const stranger = await registerUser(t.app, { role: 'instructor' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/lti/keys/rotate', headers: stranger.auth });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses a registration that repeats one, or has a bad URL, with a message', async () => {
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: registrant.auth,
      payload: lms.registration(['deployment-1']),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already registered');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: registrant.auth,
      payload: { ...lms.registration(['d']), issuer: 'https://other.example', keysetUrl: 'not a url' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/keysetUrl/);
    const list = await t.app.inject({ method: 'GET', url: '/api/lti/platforms', headers: registrant.auth });
    expect(list.json().platforms.map((p: PlatformOutput) => p._id)).toEqual([platform._id]);
  });
});

describe('LTI launch', () => {
  it("an instructor's first launch from a new LMS course offers to link it; creating one lands them in it as its owner", async () => {
    const contextId = `ctx-first-${(unique += 1)}`;
    const launched = await launch(person('instructor', contextId));
    const first = await signIn(launched);
    expect(first.user.role).toBe('instructor');
    expect(first.landing).toMatchObject({ kind: 'link', contextTitle: `LMS course ${contextId}` });
    // The platform received exactly the authorization request LTI 1.3 core 5.1.1.2 describes.
    const sent = lms.authRequests().at(-1)!;
    expect(sent).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: lms.clientId,
      redirect_uri: `${tool}/api/lti/launch`,
    });
    if (first.landing.kind !== 'link') throw new Error('unreachable');
    const linked = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { create: true },
    });
    const { courseId } = expectStatus<{ courseId: string }>(linked, 200, 'link');
    const course = await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}`, headers: auth(first) });
    expect(course.statusCode).toBe(200);
    expect(course.json()).toMatchObject({ viewer: 'staff', title: `LMS course ${contextId}` });
    // The next launch of the same person lands straight in the course, on the same account.
    const again = await signIn(await launch({ ...person('instructor', contextId), sub: launchedSub(launched) }));
    expect(again.landing).toEqual({ kind: 'course', courseId });
    expect(again.user.id).toBe(first.user.id);
  });

  it('links a first launch to a course the instructor already owns, and never to one they do not', async () => {
    const contextId = `ctx-existing-${(unique += 1)}`;
    const first = await signIn(await launch(person('instructor', contextId)));
    if (first.landing.kind !== 'link') throw new Error('expected a link offer');
    const someoneElse = await registerUser(t.app, { role: 'instructor' });
    const theirs = await createCourse(t.app, someoneElse, { title: 'Not yours' });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { courseId: theirs._id },
    });
    expect(refused.statusCode).toBe(404);
    const own = await createCourse(t.app, { ...someoneElse, auth: auth(first) } as TestUser, { title: 'Mine already' });
    const linked = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { courseId: own._id },
    });
    expect(expectStatus<{ courseId: string }>(linked, 200, 'link').courseId).toBe(own._id);
    // Linked once: another attempt is a conflict, and another instructor cannot link it at all.
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { create: true },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('already linked');
  });

  it('maps LMS roles: a learner is enrolled as a student, a TA gets a staff seat, each lands in the course', async () => {
    const { contextId, courseId } = await linkedContext();
    const learner = await signIn(await launch(person('learner', contextId)));
    expect(learner.user.role).toBe('student');
    expect(learner.landing).toEqual({ kind: 'course', courseId });
    const asStudent = await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}`, headers: auth(learner) });
    expect(asStudent.statusCode).toBe(200);
    const staffOnly = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${courseId}/staff`,
      headers: auth(learner),
    });
    expect(staffOnly.statusCode).toBe(403);

    const ta = await signIn(await launch(person('ta', contextId, { roles: [ROLE.ta, ROLE.instructor] })));
    expect(ta.user.role).toBe('instructor');
    const staff = await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}/staff`, headers: auth(ta) });
    expect(staff.statusCode).toBe(200);
    expect(staff.json().staff.map((member: { _id: string }) => member._id)).toContain(ta.user.id);
    // A TA may grade but not manage: the owner-only roster change is refused.
    const manage = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/staff`,
      headers: auth(ta),
      payload: { email: 'x@example.edu', role: 'ta' },
    });
    expect(manage.statusCode).toBe(403);
  });

  it('a learner launching before the instructor set the course up is told so, and nothing is created', async () => {
    const before = await tableCounts();
    const launched = await launch(person('learner', `ctx-unset-${(unique += 1)}`));
    expect(launched.response.status).toBe(403);
    expect(launched.body).toContain('has not set up Gradewise for this course yet');
    expect(await tableCounts()).toEqual(before);
  });

  it('a framed launch opens Gradewise in a new tab, with a working sign-in link', async () => {
    const { contextId, courseId } = await linkedContext();
    const hint = lms.nextLaunch(person('learner', contextId));
    const login = await fetch(lms.loginUrlFor(`${tool}/api/lti/login`, `${tool}/api/lti/launch`, hint), {
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const form = await (await fetch(login.headers.get('location')!)).text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '';
    const framed = await fetch(`${tool}/api/lti/launch`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        cookie,
        'sec-fetch-dest': 'iframe',
      },
      body: new URLSearchParams({ id_token: field('id_token'), state: field('state') }),
    });
    expect(framed.status).toBe(200);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const page = await framed.text();
    const href = /href="([^"]*)" target="_blank"/.exec(page)?.[1] ?? '';
    expect(href.startsWith(`${tool}/lti/landing#code=`)).toBe(true);
    const handoff = await t.app.inject({
      method: 'POST',
      url: '/api/lti/handoff',
      payload: { code: href.split('#code=')[1] },
    });
    expect(expectStatus<HandoffOutput>(handoff, 200, 'handoff').landing).toEqual({ kind: 'course', courseId });
  });

  it('a handoff code works once', async () => {
    const { contextId } = await linkedContext();
    const launched = await launch(person('learner', contextId));
    const code = launched.response.headers.get('location')!.split('#code=')[1]!;
    expect((await t.app.inject({ method: 'POST', url: '/api/lti/handoff', payload: { code } })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/api/lti/handoff', payload: { code } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('already used');
  });
});

function launchedSub(launched: Launched): string {
  const payload = JSON.parse(Buffer.from(launched.idToken.split('.')[1]!, 'base64url').toString()) as { sub: string };
  return payload.sub;
}

describe('hostile launches are refused with a clear page, and nothing is created', () => {
  let contextId: string;
  let otherCourseAssignment: string;
  beforeAll(async () => {
    ({ contextId } = await linkedContext());
    const elsewhere = await registerUser(t.app, { role: 'instructor' });
    const course = await createCourse(t.app, elsewhere, { title: 'Private course' });
    otherCourseAssignment = (await createAssignment(t.app, elsewhere, course._id, { title: 'Private homework' }))._id;
  });

  async function expectRefused(launched: Launched | Response, status: number, message: string | RegExp) {
    const response = launched instanceof Response ? launched : launched.response;
    const body = launched instanceof Response ? await launched.text() : launched.body;
    expect({ status: response.status, type: response.headers.get('content-type') }).toEqual({
      status,
      type: 'text/html; charset=utf-8',
    });
    expect(body).toContain('Gradewise could not open');
    expect(body).toMatch(message);
  }

  it('a replayed launch (the same form post again)', async () => {
    const first = await launch(person('learner', contextId));
    expect(first.response.status).toBe(303);
    const before = await tableCounts();
    await expectRefused(await post(first), 400, 'already used or has expired');
    expect(await tableCounts()).toEqual(before);
  });

  it("a token carrying another login's nonce (a replayed nonce)", async () => {
    const earlier = lms.sentTokens().at(-1)!;
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { nonce: String(earlier.nonce) })),
      400,
      'already used or does not belong to this sign-in',
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('a token for another tool (wrong audience), or naming another authorized party', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { audience: 'another-tool' })),
      400,
      /audience is not Gradewise/,
    );
    await expectRefused(
      await launch(person('learner', contextId, { audience: [lms.clientId, 'another-tool'], azp: 'another-tool' })),
      400,
      /authorized party is not Gradewise/,
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('an unknown deployment', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { deploymentId: 'deployment-unknown' })),
      400,
      /deployment &quot;deployment-unknown&quot; is not registered/,
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('an expired token, and one issued long ago', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { expiresInSeconds: -120 })),
      400,
      'This launch has expired',
    );
    await expectRefused(await launch(person('learner', contextId, { issuedSecondsAgo: 3600 })), 400, 'too old');
    expect(await tableCounts()).toEqual(before);
  });

  it('alg: none', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { unsigned: true })),
      400,
      /signed with &quot;none&quot;/,
    );
    expect(await tableCounts()).toEqual(before);
  });

  it("a key not in the platform's JWKS", async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { rogueKey: true })),
      400,
      'a key the LMS does not publish',
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('a tampered role claim (a learner made instructor after signing)', async () => {
    const before = await tableCounts();
    const tampered = person('learner', contextId, {
      tamper: (payload) => {
        payload['https://purl.imsglobal.org/spec/lti/claim/roles'] = [ROLE.instructor];
      },
    });
    await expectRefused(await launch(tampered), 400, 'altered after the LMS signed it');
    expect(await tableCounts()).toEqual(before);
  });

  it('a launch for a course the person may not see (an assignment of another course)', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('instructor', contextId, { custom: { gradewise_assignment_id: otherCourseAssignment } })),
      403,
      'not part of the course it was launched from',
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('a launch that did not start in this browser (no state cookie), offering a new tab', async () => {
    const before = await tableCounts();
    const launched = await launch(person('learner', contextId), { withCookie: false });
    await expectRefused(launched, 400, 'did not start in this browser');
    expect(launched.body).toContain(`href="${tool}/api/lti/login?iss=`);
    expect(await tableCounts()).toEqual(before);
  });

  it('another LTI version, a role with no place in Gradewise, another issuer', async () => {
    const before = await tableCounts();
    await expectRefused(
      await launch(person('learner', contextId, { version: '1.1' })),
      400,
      'accepts LTI 1.3.0 launches',
    );
    await expectRefused(await launch(person('mentor', contextId)), 403, 'has no place in Gradewise');
    await expectRefused(
      await launch(person('learner', contextId, { issuer: 'https://evil.example' })),
      400,
      'other than the one registered',
    );
    expect(await tableCounts()).toEqual(before);
  });

  it('an API client gets the same refusal as JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/lti/launch',
      payload: 'id_token=abc&state=def',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('Deep Linking', () => {
  it("answers the LMS's deep linking request with a signed link to the picked assignment, which then launches into it", async () => {
    const { contextId, courseId, instructor } = await linkedContext();
    const assignment = await createAssignment(t.app, { auth: auth(instructor) } as TestUser, courseId, {
      title: 'Lab report 3',
    });
    const picker = await signIn(
      await launch({
        ...person('instructor', contextId),
        sub: subOf(instructor),
        messageType: 'LtiDeepLinkingRequest',
        deepLinkData: 'opaque-platform-data',
      }),
    );
    if (picker.landing.kind !== 'deep-link')
      throw new Error(`expected a deep link landing: ${JSON.stringify(picker.landing)}`);
    expect(picker.landing.courseId).toBe(courseId);
    // The picker's form post: a page that form-posts the signed response to the LMS's return URL.
    const answered = await fetch(`${tool}/api/lti/deep-links`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ code: picker.landing.code, assignmentId: assignment._id }),
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-security-policy')).toContain(`form-action ${lms.baseUrl}`);
    const page = await answered.text();
    const action = /<form method="post" action="([^"]*)"/.exec(page)?.[1];
    const jwt = /name="JWT" value="([^"]*)"/.exec(page)?.[1] ?? '';
    expect(action).toBe(lms.deepLinkReturnUrl);
    const returned = await fetch(action!, { method: 'POST', body: new URLSearchParams({ JWT: jwt }) });
    expect(returned.status).toBe(200);
    // What the platform received, verified with the tool's JWKS (iss = client id, aud = issuer).
    const received = lms.deepLinkResponses().at(-1)!;
    expect(received.error).toBeNull();
    expect(received.payload).toMatchObject({
      'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingResponse',
      'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
      'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'deployment-1',
      'https://purl.imsglobal.org/spec/lti-dl/claim/data': 'opaque-platform-data',
      'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
        {
          type: 'ltiResourceLink',
          title: 'Lab report 3',
          url: `${tool}/api/lti/launch`,
          custom: { gradewise_assignment_id: assignment._id },
          lineItem: { scoreMaximum: 0, label: 'Lab report 3', resourceId: assignment._id },
        },
      ],
    });
    // The code answered once.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/lti/deep-links',
      payload: { code: picker.landing.code, assignmentId: assignment._id },
    });
    expect(again.statusCode).toBe(400);
    // The link the LMS now holds launches a student straight into the assignment.
    const student = await signIn(
      await launch(person('learner', contextId, { custom: { gradewise_assignment_id: assignment._id } })),
    );
    expect(student.landing).toEqual({ kind: 'assignment', courseId, assignmentId: assignment._id });
    const opened = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment._id}`,
      headers: auth(student),
    });
    expect(opened.statusCode).toBe(200);
  });

  it('a learner cannot make a deep linking request', async () => {
    const { contextId } = await linkedContext();
    const before = await tableCounts();
    const launched = await launch(person('learner', contextId, { messageType: 'LtiDeepLinkingRequest' }));
    expect(launched.response.status).toBe(403);
    expect(launched.body).toContain('Only instructors can add Gradewise assignments');
    expect(await tableCounts()).toEqual(before);
  });
});

/** The LMS subject an account was created for (the tests' LMS users are created by their first launch). */
function subOf(handoff: HandoffOutput): string {
  const sub = subjects.get(handoff.user.id);
  if (!sub) throw new Error('unknown LMS user');
  return sub;
}
const subjects = new Map<string, string>();

describe('Names and Role Provisioning (roster sync)', () => {
  it('reads every page of the LMS roster, seats students and TAs, and marks those who left', async () => {
    const contextId = `ctx-nrps-${(unique += 1)}`;
    const first = await signIn(await launch(person('instructor', contextId, { nrps: true })));
    if (first.landing.kind !== 'link') throw new Error('expected a link offer');
    const linked = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { create: true },
    });
    const { courseId } = expectStatus<{ courseId: string }>(linked, 200, 'link');
    const learners = [1, 2, 3, 4].map((n) => ({
      user_id: `${contextId}-learner-${n}`,
      roles: [ROLE.learner],
      name: `Learner ${n}`,
      email: `${contextId}-learner-${n}@school.example`,
    }));
    const assistant = { user_id: `${contextId}-ta`, roles: [ROLE.ta], name: 'Tara Assistant' };
    const inactive = { ...learners[3]!, user_id: `${contextId}-gone`, status: 'Inactive' as const };
    lms.setMembers(contextId, [
      { user_id: subOf(first), roles: [ROLE.instructor], name: first.user.name },
      ...learners,
      assistant,
      inactive,
    ]);
    const synced = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/lti-roster-sync`,
      headers: auth(first),
    });
    expect(expectStatus(synced, 200, 'sync')).toMatchObject({ contexts: 1, active: 6, left: 0 });
    // What the platform received: one token request with a client assertion it verified against
    // the tool's JWKS, for the NRPS scope; then the roster's four pages, each with that token.
    const grant = lms.tokenRequests().at(-1)!;
    expect(grant).toMatchObject({
      grantType: 'client_credentials',
      scope: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
      error: null,
    });
    expect(grant.assertion).toMatchObject({ iss: lms.clientId, sub: lms.clientId, aud: `${lms.baseUrl}/token` });
    const pages = lms.membershipRequests().filter((r) => r.path.startsWith(`/memberships/${contextId}`));
    expect(pages.map((r) => r.path)).toEqual([
      `/memberships/${contextId}`,
      `/memberships/${contextId}?page=1`,
      `/memberships/${contextId}?page=2`,
      `/memberships/${contextId}?page=3`,
    ]);
    for (const page of pages) {
      expect(page.accept).toBe('application/vnd.ims.lti-nrps.v2.membershipcontainer+json');
      expect(page.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
    }
    const enrolled = await t.ctx.db.select({ n: count() }).from(enrollments).where(eq(enrollments.courseId, courseId));
    expect(enrolled[0]!.n).toBe(4);
    const staff = await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}/staff`, headers: auth(first) });
    expect(staff.json().staff.map((m: { name: string }) => m.name)).toEqual(['Tara Assistant']);

    // A synced learner launching later is the same account, already in the course.
    const learnerLaunch = await signIn(await launch({ ...person('learner', contextId), sub: learners[0]!.user_id }));
    expect(learnerLaunch.landing).toEqual({ kind: 'course', courseId });
    expect(learnerLaunch.user.name).toBe('Learner 1');

    // Two learners leave the LMS course: the next sync marks them, and keeps their seats and work.
    lms.setMembers(contextId, [
      { user_id: subOf(first), roles: [ROLE.instructor] },
      learners[0]!,
      learners[1]!,
      assistant,
    ]);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/lti-roster-sync`,
      headers: auth(first),
    });
    expect(expectStatus(again, 200, 'sync')).toMatchObject({ active: 4, left: 2 });
    const left = await t.ctx.db
      .select({ name: users.name })
      .from(ltiMembers)
      .innerJoin(users, eq(users.id, ltiMembers.userId))
      .where(and(eq(ltiMembers.status, 'left')));
    expect(left.map((row) => row.name).sort()).toEqual(['Learner 3', 'Learner 4']);

    // Only the owner may sync: the TA and a student are refused.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/lti-roster-sync`,
      headers: auth(learnerLaunch),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('syncs the roster at a launch into the linked course, at most once an hour', async () => {
    const contextId = `ctx-launch-sync-${(unique += 1)}`;
    const first = await signIn(await launch(person('instructor', contextId, { nrps: true })));
    if (first.landing.kind !== 'link') throw new Error('expected a link offer');
    const linked = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${first.landing.contextId}/link`,
      headers: auth(first),
      payload: { create: true },
    });
    const { courseId } = expectStatus<{ courseId: string }>(linked, 200, 'link');
    const learners = [1, 2].map((n) => ({ user_id: `${contextId}-learner-${n}`, roles: [ROLE.learner] }));
    lms.setMembers(contextId, [{ user_id: subOf(first), roles: [ROLE.instructor] }, ...learners]);
    const pagesOf = () => lms.membershipRequests().filter((r) => r.path.startsWith(`/memberships/${contextId}`));
    const enrolledIn = async () =>
      (await t.ctx.db.select({ n: count() }).from(enrollments).where(eq(enrollments.courseId, courseId)))[0]!.n;
    const syncedAt = async () =>
      (
        await t.ctx.db
          .select({ at: ltiContexts.rosterSyncedAt })
          .from(ltiContexts)
          .where(eq(ltiContexts.id, first.landing.kind === 'link' ? first.landing.contextId : ''))
      )[0]!.at;
    // The instructor's first launch found the course unlinked: nothing was synced.
    expect(pagesOf()).toEqual([]);

    // A learner's launch into the linked course: the whole roster comes in after the launch answers.
    await signIn(await launch({ ...person('learner', contextId, { nrps: true }), sub: learners[0]!.user_id }));
    await expect.poll(enrolledIn, { timeout: 30_000, interval: 50 }).toBe(2);
    expect(pagesOf().map((r) => r.path)).toEqual([`/memberships/${contextId}`, `/memberships/${contextId}?page=1`]);
    const stamped = await syncedAt();
    expect(stamped).not.toBeNull();

    // Another launch within the hour syncs nothing: the platform hears nothing more.
    await signIn(await launch({ ...person('learner', contextId, { nrps: true }), sub: learners[1]!.user_id }));
    expect(await syncedAt()).toEqual(stamped);
    expect(pagesOf()).toHaveLength(2);

    // The course's LMS section reads the same state.
    const links = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${courseId}/lti-links`,
      headers: auth(first),
    });
    expect(expectStatus(links, 200, 'lti links')).toEqual({
      links: [
        {
          lmsCourse: `LMS course ${contextId}`,
          lms: 'Test LMS',
          offersRoster: true,
          takesGrades: false,
          rosterSyncedAt: stamped!.toISOString(),
          active: 3,
          left: 0,
        },
      ],
    });
  });

  it('a course linked to no LMS roster says so', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const course = await createCourse(t.app, owner, { title: 'Not in an LMS' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/lti-roster-sync`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('not linked to an LMS course');
  });
});
