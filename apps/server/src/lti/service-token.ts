import { randomBytes } from 'node:crypto';
import { SignJWT, type CryptoKey } from 'jose';
import { TOOL_ALGORITHM } from './keys.ts';

/**
 * An access token for the LTI Advantage services (NRPS, AGS): the OAuth 2 client credentials grant
 * with a JWT client assertion signed by the tool's key (IMS Security Framework 4.1). One request;
 * the caller keeps nothing (a sync asks once per run).
 */
export async function fetchServiceToken(options: {
  tokenUrl: string;
  clientId: string;
  scopes: string[];
  key: CryptoKey;
  kid: string;
  now: Date;
}): Promise<string> {
  const iat = Math.floor(options.now.getTime() / 1000);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: TOOL_ALGORITHM, kid: options.kid, typ: 'JWT' })
    .setIssuer(options.clientId)
    .setSubject(options.clientId)
    .setAudience(options.tokenUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(options.key);
  const response = await fetch(options.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: options.scopes.join(' '),
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`The LMS refused an access token (${response.status}).`);
  const body = (await response.json()) as { access_token?: unknown };
  if (typeof body.access_token !== 'string') throw new Error('The LMS answered no access token.');
  return body.access_token;
}

/** The `next` page of a paged LTI service answer (RFC 8288 Link header), if any. */
export function nextPageOf(linkHeader: string | null): string | undefined {
  for (const part of (linkHeader ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match) return match[1];
  }
  return undefined;
}
