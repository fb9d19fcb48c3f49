import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailLinks } from '../db/schema.ts';

export type EmailLinkRow = typeof emailLinks.$inferSelect;
export type EmailLinkPurpose = EmailLinkRow['purpose'];

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Stores a new link and answers its secret (the part that goes in the email; only its hash is kept). */
export async function insertEmailLink(
  db: Db,
  link: Omit<typeof emailLinks.$inferInsert, 'tokenHash' | 'usedAt' | 'createdAt'>,
): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db.insert(emailLinks).values({ ...link, tokenHash: hashSecret(secret) });
  return secret;
}

/**
 * Uses a link: marks it used and answers it, in one statement, only if it exists, has this
 * purpose, is unused and unexpired. A second use (or a parallel one) finds nothing.
 */
export async function useEmailLink(
  db: Db,
  secret: string,
  purpose: EmailLinkPurpose,
  now: Date,
): Promise<EmailLinkRow | undefined> {
  const [row] = await db
    .update(emailLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailLinks.tokenHash, hashSecret(secret)),
        eq(emailLinks.purpose, purpose),
        isNull(emailLinks.usedAt),
        gt(emailLinks.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** Older unused links of this purpose for this email stop working when a new one is sent. */
export async function retireEmailLinks(db: Db, email: string, purpose: EmailLinkPurpose, now: Date): Promise<void> {
  await db
    .update(emailLinks)
    .set({ usedAt: now })
    .where(and(eq(emailLinks.email, email), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt)));
}
