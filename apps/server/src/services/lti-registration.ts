import type { JWK } from 'jose';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import { generateToolKey } from '../lti/keys.ts';
import {
  deleteExpiredKeys,
  deletePlatform,
  insertActiveKey,
  insertDeployments,
  insertPlatform,
  retireActiveKey,
  selectActiveKey,
  selectDeploymentIds,
  selectPlatformById,
  selectPlatformsRegisteredBy,
  selectPublishedKeys,
  type LtiKeyRow,
  type LtiPlatformRow,
} from '../models/lti.ts';
import type { UserRow } from '../models/users.ts';

/**
 * The tool's side of an LTI 1.3 registration (decision 0074): its signing keys and the platforms
 * (LMSs) instructors register. Any instructor may register the LMS their courses live in; a
 * registration is seen and removed by the instructor who made it.
 */

/** A rotated key stays published this long, so tokens it signed (for at most an hour) still verify. */
export const RETIRED_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The key that signs now, made on first use (two processes racing: the unique index keeps one). */
export async function activeToolKey(ctx: AppContext): Promise<LtiKeyRow> {
  const existing = await selectActiveKey(ctx.db);
  if (existing) return existing;
  const key = await generateToolKey();
  await insertActiveKey(ctx.db, { kid: key.kid, publicJwk: key.publicJwk, privateJwk: key.privateJwk });
  const active = await selectActiveKey(ctx.db);
  if (!active) throw new Error('No active LTI key after creating one');
  return active;
}

/** The tool's JWKS: the public halves of the active key and of retired keys until they expire. */
export async function publishedToolKeys(ctx: AppContext): Promise<{ keys: JWK[] }> {
  await activeToolKey(ctx);
  const keys = await selectPublishedKeys(ctx.db, currentTime(ctx));
  return { keys: keys.map((key) => key.publicJwk as JWK) };
}

/**
 * Rotates the signing key: a new key signs from now on; the old one is retired but stays in the
 * JWKS for RETIRED_KEY_LIFETIME_MS. Keys past that are deleted. One transaction.
 */
export async function rotateToolKey(
  ctx: AppContext,
  user: UserRow,
): Promise<{ kid: string; retiredKid: string | null }> {
  if ((await selectPlatformsRegisteredBy(ctx.db, user.id)).length === 0) {
    throw forbidden('Only an instructor who has registered an LMS can rotate the LTI signing key.');
  }
  const key = await generateToolKey();
  const now = currentTime(ctx);
  return ctx.db.transaction(async (tx) => {
    await deleteExpiredKeys(tx, now);
    const retired = await retireActiveKey(tx, now, new Date(now.getTime() + RETIRED_KEY_LIFETIME_MS));
    await insertActiveKey(tx, { kid: key.kid, publicJwk: key.publicJwk, privateJwk: key.privateJwk });
    return { kid: key.kid, retiredKid: retired?.kid ?? null };
  });
}

export interface PlatformRegistration {
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  authTokenUrl: string;
  keysetUrl: string;
}

export interface RegisteredPlatform extends LtiPlatformRow {
  deploymentIds: string[];
}

export async function registerPlatform(
  ctx: AppContext,
  user: UserRow,
  input: PlatformRegistration,
): Promise<RegisteredPlatform> {
  return ctx.db.transaction(async (tx) => {
    const platform = await insertPlatform(tx, {
      id: newId(),
      name: input.name,
      issuer: input.issuer,
      clientId: input.clientId,
      authLoginUrl: input.authLoginUrl,
      authTokenUrl: input.authTokenUrl,
      keysetUrl: input.keysetUrl,
      registeredById: user.id,
    });
    if (!platform) {
      throw conflict(`An LMS with issuer ${input.issuer} and client id ${input.clientId} is already registered.`);
    }
    const deploymentIds = [...new Set(input.deploymentIds)];
    await insertDeployments(tx, platform.id, deploymentIds);
    return { ...platform, deploymentIds };
  });
}

export async function listPlatforms(ctx: AppContext, user: UserRow): Promise<RegisteredPlatform[]> {
  const platforms = await selectPlatformsRegisteredBy(ctx.db, user.id);
  return Promise.all(
    platforms.map(async (platform) => ({ ...platform, deploymentIds: await selectDeploymentIds(ctx.db, platform.id) })),
  );
}

/** Another instructor's registration is 404, as if it did not exist. */
async function loadOwnPlatform(ctx: AppContext, user: UserRow, platformId: string): Promise<LtiPlatformRow> {
  const platform = isId(platformId) ? await selectPlatformById(ctx.db, platformId) : undefined;
  if (!platform || platform.registeredById !== user.id) throw notFound('LMS registration not found.');
  return platform;
}

export async function addDeployments(
  ctx: AppContext,
  user: UserRow,
  platformId: string,
  deploymentIds: string[],
): Promise<RegisteredPlatform> {
  const platform = await loadOwnPlatform(ctx, user, platformId);
  await insertDeployments(ctx.db, platform.id, deploymentIds);
  return { ...platform, deploymentIds: await selectDeploymentIds(ctx.db, platform.id) };
}

export async function removePlatform(ctx: AppContext, user: UserRow, platformId: string): Promise<LtiPlatformRow> {
  const platform = await loadOwnPlatform(ctx, user, platformId);
  await deletePlatform(ctx.db, platform.id);
  return platform;
}
