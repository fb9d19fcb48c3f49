import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountLinkOutput, HandoffOutput } from '@gradewise/shared/contracts/lti';
import type { CourseList } from '@gradewise/shared/contracts/courses';
import { ltiUsers, users } from '../src/db/schema.ts';
import { createCourse } from './support/course-fixtures.ts';
import { expectStatus, registerUser } from './support/http.ts';
import { ROLE, startTestPlatform, type LaunchSpec, type TestPlatform } from './support/lti-platform.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * "Use my existing Gradewise account" on an instructor's first LTI launch (issue 32, decision 0076):
 * real launches from the project's test platform (RS256 tokens, its JWKS) over real HTTP, then the
 * link asked with the existing account's email and password.
 */

let t: TestApp;
let lms: TestPlatform;
let tool: string;
let clockOffsetMs = 0;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(Date.now() + clockOffsetMs) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  tool = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  lms = await startTestPlatform();
  const registrant = await registerUser(t.app, { role: 'instructor', name: 'Rita Registrar' });
  const response = await fetch(`${tool}/api/lti/platforms`, {
    method: 'POST',
    headers: { ...registrant.auth, 'content-type': 'application/json' },
    body: JSON.stringify(lms.registration(['deployment-1'])),
  });
  expect(response.status).toBe(201);
  lms.setToolJwksUrl(`${tool}/api/lti/jwks`);
});
afterAll(async () => {
  await lms?.close();
  await t?.close();
});

let unique = 0;
function person(role: keyof typeof ROLE, contextId = `ctx-${(unique += 1)}`): LaunchSpec {
  unique += 1;
  return {
    sub: `${role}-${unique}`,
    name: `${role} person ${unique}`,
    email: `lms-${role}-${unique}@school.example`,
    roles: [ROLE[role]],
    context: { id: contextId, title: `LMS course ${contextId}` },
    resourceLink: { id: `resource-${contextId}` },
  };
}

/** A browser's launch (login, the platform's form, the post with the state cookie), then the landing's handoff. */
async function launchAndLand(spec: LaunchSpec): Promise<HandoffOutput> {
  const hint = lms.nextLaunch(spec);
  const login = await fetch(lms.loginUrlFor(`${tool}/api/lti/login`, `${tool}/api/lti/launch`, hint), {
    redirect: 'manual',
  });
  expect(login.status).toBe(302);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = await (await fetch(login.headers.get('location')!)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '';
  const launched = await fetch(`${tool}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', cookie },
    body: new URLSearchParams({ id_token: field('id_token'), state: field('state') }),
  });
  expect(launched.status, await launched.clone().text()).toBe(303);
  const code = launched.headers.get('location')!.split('#code=')[1]!;
  const handoff = await fetch(`${tool}/api/lti/handoff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(handoff.status).toBe(200);
  return (await handoff.json()) as HandoffOutput;
}

function linkAccount(body: { code: string; email: string; password: string }): Promise<Response> {
  return fetch(`${tool}/api/lti/account-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function linkedUserOf(sub: string): Promise<string | undefined> {
  const [row] = await t.ctx.db.select({ userId: ltiUsers.userId }).from(ltiUsers).where(eq(ltiUsers.subject, sub));
  return row?.userId;
}

describe('linking an LMS identity to an existing Gradewise account', () => {
  it('with the right password, the identity moves to the account and its courses are offered for the link', async () => {
    const owner = await registerUser(t.app, { role: 'instructor', name: 'Olga Owner' });
    const owned = await createCourse(t.app, owner, { title: 'Thermodynamics 201' });
    const spec = person('instructor');
    const first = await launchAndLand(spec);
    expect(first.landing.kind).toBe('link');
    expect(first.accountLinkCode).toBeTruthy();
    const launchAccountId = first.user._id;

    const response = await linkAccount({ code: first.accountLinkCode!, email: owner.email, password: owner.password });
    const linked = (await response.json()) as AccountLinkOutput;
    expect(response.status, JSON.stringify(linked)).toBe(200);
    expect(linked.user._id).toBe(owner.id);
    expect(linked.landing).toEqual(first.landing);
    expect(await linkedUserOf(spec.sub)).toBe(owner.id);
    // The account the launch made is retired: its session ends.
    const [retired] = await t.ctx.db.select().from(users).where(eq(users.id, launchAccountId));
    expect(retired!.deletedAt).not.toBeNull();
    const stale = await fetch(`${tool}/api/auth/user`, { headers: { authorization: `Bearer ${first.token}` } });
    expect(stale.status).toBe(401);

    // "Link this LMS course to an existing course" lists the courses the account already owns, and links one.
    const auth = { authorization: `Bearer ${linked.token}` };
    const courses = expectStatus<CourseList>(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: auth }),
      200,
      'courses',
    );
    expect(courses.map((course) => course._id)).toContain(owned._id);
    if (linked.landing.kind !== 'link') throw new Error('expected the link landing');
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${linked.landing.contextId}/link`,
      headers: auth,
      payload: { courseId: owned._id },
    });
    expect(expectStatus<{ courseId: string }>(link, 200, 'link').courseId).toBe(owned._id);

    // A later launch lands in that account, in the linked course, and offers no link.
    const later = await launchAndLand(spec);
    expect(later.user._id).toBe(owner.id);
    expect(later.landing).toEqual({ kind: 'course', courseId: owned._id });
    expect(later.accountLinkCode).toBeUndefined();
  });

  it('a wrong password links nothing, and is throttled as sign-in is', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const spec = person('instructor');
    const first = await launchAndLand(spec);
    const code = first.accountLinkCode!;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await linkAccount({ code, email: owner.email, password: `wrong-${attempt}` });
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { message: string }).message).toBe('Invalid email or password.');
    }
    // Held back now, even with the right password, as /api/auth/login would be.
    const held = await linkAccount({ code, email: owner.email, password: owner.password });
    expect(held.status).toBe(429);
    expect(((await held.json()) as { message: string }).message).toMatch(/Too many failed attempts/);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: owner.password },
    });
    expect(signIn.statusCode).toBe(429);
    expect(await linkedUserOf(spec.sub)).toBe(first.user._id);
  });

  it('a replayed or expired link code links nothing', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const other = await registerUser(t.app, { role: 'instructor' });
    const spec = person('instructor');
    const first = await launchAndLand(spec);
    const code = first.accountLinkCode!;
    expect((await linkAccount({ code, email: owner.email, password: owner.password })).status).toBe(200);
    const replay = await linkAccount({ code, email: other.email, password: other.password });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { message: string }).message).toMatch(/already used or has expired/);
    expect(await linkedUserOf(spec.sub)).toBe(owner.id);

    const late = person('instructor');
    const second = await launchAndLand(late);
    clockOffsetMs = 11 * 60 * 1000;
    try {
      const expired = await linkAccount({
        code: second.accountLinkCode!,
        email: other.email,
        password: other.password,
      });
      expect(expired.status).toBe(400);
    } finally {
      clockOffsetMs = 0;
    }
    expect(await linkedUserOf(late.sub)).toBe(second.user._id);
  });

  it('a student launch is never offered the link, and a student account cannot take an instructor identity', async () => {
    const instructor = await launchAndLand(person('instructor', 'ctx-students'));
    if (instructor.landing.kind !== 'link') throw new Error('expected the link landing');
    await t.app.inject({
      method: 'POST',
      url: `/api/lti/contexts/${instructor.landing.contextId}/link`,
      headers: { authorization: `Bearer ${instructor.token}` },
      payload: { create: true },
    });
    const learner = await launchAndLand(person('learner', 'ctx-students'));
    expect(learner.landing.kind).toBe('course');
    expect(learner.accountLinkCode).toBeUndefined();

    const student = await registerUser(t.app, { role: 'student' });
    const spec = person('instructor');
    const first = await launchAndLand(spec);
    const refused = await linkAccount({
      code: first.accountLinkCode!,
      email: student.email,
      password: student.password,
    });
    expect(refused.status).toBe(403);
    expect(await linkedUserOf(spec.sub)).toBe(first.user._id);
  });

  it('an identity linked to another account meanwhile is refused with a clear message', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const elsewhere = await registerUser(t.app, { role: 'instructor' });
    const spec = person('instructor');
    const first = await launchAndLand(spec);
    // Another link (from another tab of this launch's person) finished first.
    await t.ctx.db.update(ltiUsers).set({ userId: elsewhere.id }).where(eq(ltiUsers.subject, spec.sub));
    const refused = await linkAccount({ code: first.accountLinkCode!, email: owner.email, password: owner.password });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'This LMS identity is already linked to another Gradewise account, so it cannot be linked to this one.',
    );
    expect(await linkedUserOf(spec.sub)).toBe(elsewhere.id);
  });
});
