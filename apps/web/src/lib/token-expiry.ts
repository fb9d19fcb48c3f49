/**
 * Reads the `exp` claim (seconds since the epoch) of a stored token without verifying it: only the
 * server can verify a signature. This check just spares a request for a token that is certainly
 * dead. Returns why the token is unusable, or null when it is worth asking the server.
 */
export function findTokenProblem(
  token: string,
  nowMs: number = Date.now(),
): 'Token expired' | 'Malformed token' | null {
  const payload = decodeJwtPayload(token);
  if (!payload) return 'Malformed token';
  const { exp } = payload;
  if (exp === undefined) return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'Malformed token';
  return exp * 1000 < nowMs ? 'Token expired' : null;
}

function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
