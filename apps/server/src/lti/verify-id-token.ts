import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { ErrorCode } from '@gradewise/shared/errors';
import { AppError } from '../lib/errors.ts';
import { CLAIM, DEEP_LINKING_REQUEST, LaunchClaims, LTI_VERSION, RESOURCE_LINK_REQUEST } from './claims.ts';
import { TOOL_ALGORITHM } from './keys.ts';

/**
 * Why a launch was refused, in words for the person who launched, and a reason for logs and tests.
 * An AppError: JSON callers get `{ code, message }`, browsers a page saying it (http/routes/lti-routes.ts).
 */
export class LaunchRefusal extends AppError {
  constructor(
    readonly reason: string,
    message: string,
    code: ErrorCode = 'BAD_REQUEST',
  ) {
    super(code, message);
    this.name = 'LaunchRefusal';
  }
}

export interface ExpectedLaunch {
  issuer: string;
  clientId: string;
  keysetUrl: string;
  nonce: string;
  /** Now, by the app's clock. */
  now: Date;
}

/** A launch's id_token is at most this old when it arrives (its `iat`), and a little clock skew is forgiven. */
const MAX_TOKEN_AGE_SECONDS = 600;
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * The platforms' key sets, fetched on first use and again when a token names a key id they lack
 * (jose's remote key set: at most once every 30 s), so a platform's key rotation is followed.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySetOf(url: string): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
    keySets.set(url, keySet);
  }
  return keySet;
}

/**
 * Verifies a launch's id_token as LTI 1.3 core (section 5.1.3) and the OIDC core rules it cites
 * require: RS256 only (so `alg: none` and HMAC tokens are refused), a signature by a key in the
 * platform's JWKS, `iss` the registered issuer, `aud` containing the client id, `azp` the client id
 * when there are several audiences (or whenever present), `exp` not passed, `iat` not in the future
 * and recent, `nonce` the one this login sent; then the message type and LTI version. Answers the
 * claims Gradewise reads. The deployment is checked by the caller, which knows the registrations.
 */
export async function verifyIdToken(idToken: string, expected: ExpectedLaunch): Promise<LaunchClaims> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(idToken);
  } catch {
    throw new LaunchRefusal('malformed', 'The launch did not carry a readable id_token.');
  }
  if (header.alg !== TOOL_ALGORITHM) {
    throw new LaunchRefusal('algorithm', `The launch was signed with "${String(header.alg)}"; only RS256 is accepted.`);
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetOf(expected.keysetUrl), {
      algorithms: [TOOL_ALGORITHM],
      issuer: expected.issuer,
      audience: expected.clientId,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub', 'nonce'],
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: expected.now,
    }));
  } catch (error) {
    throw refusalOf(error);
  }
  const audiences = [payload.aud].flat();
  const azp = payload['azp'];
  if ((audiences.length > 1 || azp !== undefined) && azp !== expected.clientId) {
    throw new LaunchRefusal('azp', 'The launch was meant for another tool (its authorized party is not Gradewise).');
  }
  if (payload['nonce'] !== expected.nonce) {
    throw new LaunchRefusal(
      'nonce',
      'This launch was already used or does not belong to this sign-in. Please launch again from your course.',
    );
  }
  const parsed = LaunchClaims.safeParse(payload);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    throw new LaunchRefusal('claims', `The launch is missing or has an unreadable LTI claim (${where}).`);
  }
  const claims = parsed.data;
  if (claims[CLAIM.version] !== LTI_VERSION) {
    throw new LaunchRefusal(
      'version',
      `Gradewise accepts LTI ${LTI_VERSION} launches; this one says "${claims[CLAIM.version]}".`,
    );
  }
  const type = claims[CLAIM.messageType];
  if (type !== RESOURCE_LINK_REQUEST && type !== DEEP_LINKING_REQUEST) {
    throw new LaunchRefusal('message-type', `Gradewise cannot handle an LTI "${type}" message.`);
  }
  if (type === RESOURCE_LINK_REQUEST && !claims[CLAIM.resourceLink]) {
    throw new LaunchRefusal('claims', 'The launch names no resource link.');
  }
  if (type === DEEP_LINKING_REQUEST && !claims[CLAIM.deepLinkingSettings]) {
    throw new LaunchRefusal('claims', 'The deep linking request has no return address.');
  }
  return claims;
}

function refusalOf(error: unknown): LaunchRefusal {
  if (error instanceof errors.JWTExpired && error.claim === 'iat')
    return new LaunchRefusal('expired', 'This launch is too old. Please launch again from your course.');
  if (error instanceof errors.JWTExpired)
    return new LaunchRefusal('expired', 'This launch has expired. Please launch again from your course.');
  if (error instanceof errors.JWKSNoMatchingKey)
    return new LaunchRefusal(
      'unknown-key',
      'The launch was signed with a key the LMS does not publish, so it cannot be trusted.',
    );
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new LaunchRefusal('signature', 'The launch was altered after the LMS signed it, so it cannot be trusted.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud')
      return new LaunchRefusal('audience', 'The launch was meant for another tool (its audience is not Gradewise).');
    if (error.claim === 'iss')
      return new LaunchRefusal('issuer', 'The launch comes from an LMS other than the one registered.');
    if (error.claim === 'iat')
      return new LaunchRefusal(
        'expired',
        'This launch is too old or from the future. Please launch again from your course.',
      );
    return new LaunchRefusal('claims', `The launch's "${error.claim}" claim is not acceptable (${error.reason}).`);
  }
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    !(error instanceof errors.JOSEError)
  )
    return new LaunchRefusal(
      'keyset',
      "The LMS's public keys could not be fetched, so the launch cannot be checked. Please try again.",
    );
  return new LaunchRefusal('invalid', 'The launch could not be verified.');
}
