import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';

/** The tool signs with RS256, the one algorithm every LTI 1.3 platform must accept. */
export const TOOL_ALGORITHM = 'RS256';

export interface ToolKeyPair {
  kid: string;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** A new 2048-bit RSA key pair as JWKs, with a random key id. */
export async function generateToolKey(): Promise<ToolKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair(TOOL_ALGORITHM, { modulusLength: 2048, extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: TOOL_ALGORITHM, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: TOOL_ALGORITHM };
  return { kid, publicJwk, privateJwk };
}

export async function importPrivateKey(jwk: JWK): Promise<CryptoKey> {
  const key = await importJWK(jwk, TOOL_ALGORITHM);
  if (key instanceof Uint8Array) throw new Error('An LTI signing key must be an RSA key, not a secret');
  return key;
}
