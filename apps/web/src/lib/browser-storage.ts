/**
 * The two values the app keeps in local storage (spec section 3): the session token under `token`
 * and the `seenDemo` flag. Storage can be unavailable (privacy modes, quota); the app then behaves
 * as a fresh visitor instead of crashing.
 */
export const TOKEN_STORAGE_KEY = 'token';
export const SEEN_DEMO_STORAGE_KEY = 'seenDemo';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch (error) {
    console.error(`Could not update local storage (${key})`, error);
  }
}

export const readStoredToken = (): string | null => read(TOKEN_STORAGE_KEY);
export const storeToken = (token: string): void => write(TOKEN_STORAGE_KEY, token);
export const removeStoredToken = (): void => write(TOKEN_STORAGE_KEY, null);

export const hasSeenDemo = (): boolean => read(SEEN_DEMO_STORAGE_KEY) !== null;
export const markDemoSeen = (): void => write(SEEN_DEMO_STORAGE_KEY, 'true');
/** Login clears the flag, so each login starts with the demo until it is viewed or skipped. */
export const forgetDemoSeen = (): void => write(SEEN_DEMO_STORAGE_KEY, null);

/**
 * A measuring switch, not a setting: `noPrefetch` set turns off reading the next answers ahead on
 * the grading screen, so bench/grading-next.ts can time today's way and the new one in one run.
 */
export const PREFETCH_OFF_STORAGE_KEY = 'noPrefetch';
export const isPrefetchOff = (): boolean => read(PREFETCH_OFF_STORAGE_KEY) !== null;
