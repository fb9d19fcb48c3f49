/**
 * Where to go after signing in. A signed-out link to a private screen goes to /login?next=<path>,
 * and login goes on to that path instead of /courses. Only a path inside this app is followed
 * (starts with one "/"), so a crafted link cannot send someone to another site after login.
 */
export const RETURN_PATH_PARAM = 'next';

export function loginPathFor(path: string): string {
  return `/login?${new URLSearchParams({ [RETURN_PATH_PARAM]: path }).toString()}`;
}

export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  return value;
}
