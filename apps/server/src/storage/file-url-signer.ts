import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks the expiring links to stored files: /api/files/{fileId}?exp={unix seconds}&sig=...
 * where sig = base64url(HMAC-SHA256(key, `${fileId}.${exp}`)).
 *
 * Why links and not bearer headers: PDF viewers, new tabs and <img> cannot send Authorization, so
 * the right to read a file travels in the URL. A link is a short-lived capability: whoever holds it
 * may read that one file until it expires, so presenters issue links only for files the caller may
 * see, at the moment they show them.
 *
 * The key is derived from the token secret (HKDF with its own label), so processes sharing
 * TOKEN_SECRET share links too, and a signature for a file can never be used as a token or vice versa.
 */
export interface FileUrlSignerOptions {
  /** How long a link stays valid at least. */
  ttlSeconds?: number;
  /**
   * Expiry times are rounded up to a multiple of this, so the same file gets the same link for a
   * while (browser and query caches keep working) while every link still lives ttl..ttl+step.
   */
  stepSeconds?: number;
  /** Current time in milliseconds; tests pass a fixed clock. */
  now?: () => number;
}

const MAX_WINDOW_LINKS = 50_000;

export type FileUrlCheck = 'valid' | 'invalid' | 'expired';

export class FileUrlSigner {
  private readonly key: Buffer;
  private readonly ttlSeconds: number;
  private readonly stepSeconds: number;
  private readonly now: () => number;
  /**
   * Links of the current expiry window: a page listing hundreds of files signs each once per
   * window, not once per request. Emptied when the window moves on (and kept to a bounded size).
   */
  private readonly windowLinks = new Map<string, string>();
  private windowExp = 0;

  constructor(tokenSecret: Uint8Array, options: FileUrlSignerOptions = {}) {
    this.key = Buffer.from(hkdfSync('sha256', tokenSecret, 'gradewise', 'file-url-signing/v1', 32));
    this.ttlSeconds = options.ttlSeconds ?? 3600;
    this.stepSeconds = options.stepSeconds ?? 600;
    this.now = options.now ?? Date.now;
  }

  /** A link the caller can open for the next ttl seconds (at least). */
  urlFor(fileId: string): string {
    const exp = this.expiryNow();
    if (exp !== this.windowExp || this.windowLinks.size >= MAX_WINDOW_LINKS) {
      this.windowLinks.clear();
      this.windowExp = exp;
    }
    let url = this.windowLinks.get(fileId);
    if (url === undefined) {
      url = this.urlWithExpiry(fileId, exp);
      this.windowLinks.set(fileId, url);
    }
    return url;
  }

  /**
   * The expiry (unix seconds) of the links `urlFor` gives right now: the same for a whole window of
   * `stepSeconds`, so an answer holding links can be kept until this moves on (decision 0065).
   */
  expiryNow(): number {
    const nowSeconds = Math.floor(this.now() / 1000);
    return Math.ceil((nowSeconds + this.ttlSeconds) / this.stepSeconds) * this.stepSeconds;
  }

  /** A link with an explicit expiry (unix seconds). */
  urlWithExpiry(fileId: string, exp: number): string {
    return `/api/files/${encodeURIComponent(fileId)}?exp=${exp}&sig=${this.signature(fileId, exp)}`;
  }

  check(fileId: string, exp: string | undefined, sig: string | undefined): FileUrlCheck {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{1,100}$/.test(sig)) return 'invalid';
    const expected = Buffer.from(this.signature(fileId, Number(exp)));
    const given = Buffer.from(sig);
    // Constant-time comparison: the signature must not be guessable byte by byte from timings.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    // Checked after the signature, so an attacker learns nothing from the expiry answer.
    return Number(exp) * 1000 <= this.now() ? 'expired' : 'valid';
  }

  private signature(fileId: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${fileId}.${exp}`).digest('base64url');
  }
}
