import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { mailThrottles } from '../db/schema.ts';
import { currentTime } from '../lib/clock.ts';

/**
 * Account emails (a registration's verification link, a password reset, the "you already have an
 * account" and "no account here" notes) are limited per recipient: at most MAILS_PER_MAILBOX_PER_HOUR
 * in an hour's window, whoever asks and from however many addresses (issue 28). Past the limit
 * nothing is sent and nothing changes (no new link, the last one keeps working), and the caller
 * answers exactly as if it had been sent, so the limit says nothing about accounts either.
 *
 * The limit is per mailbox, not per spelling of an address: "ann+1@x" and "ann+2@x" reach Ann's
 * inbox, as do "a.n.n@gmail.com" and "ann@googlemail.com", so they share one count (`mailboxOf`).
 */
export const MAILS_PER_MAILBOX_PER_HOUR = 3;
const WINDOW_MS = 3600 * 1000;

/** Domains whose mail ignores dots in the local part (and each other's name). */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** The inbox an address delivers to, as far as common providers tell: sub-address (+tag) dropped, Gmail's dots too. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email.toLowerCase();
  let local = email.slice(0, at).toLowerCase();
  let domain = email.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * Takes one send of the recipient's mailbox for this window, in one atomic statement (parallel
 * requests cannot both take the last one). Answers false when the window's sends are used up:
 * the caller then sends nothing.
 */
export async function takeMailSend(ctx: AppContext, email: string): Promise<boolean> {
  const now = currentTime(ctx);
  const windowOver = sql`${mailThrottles.windowStartedAt} <= ${new Date(now.getTime() - WINDOW_MS).toISOString()}::timestamptz`;
  const taken = await ctx.db
    .insert(mailThrottles)
    .values({ mailbox: mailboxOf(email), windowStartedAt: now, sent: 1 })
    .onConflictDoUpdate({
      target: mailThrottles.mailbox,
      set: {
        windowStartedAt: sql`case when ${windowOver} then ${now.toISOString()}::timestamptz else ${mailThrottles.windowStartedAt} end`,
        sent: sql`case when ${windowOver} then 1 else ${mailThrottles.sent} + 1 end`,
      },
      setWhere: sql`${windowOver} or ${mailThrottles.sent} < ${MAILS_PER_MAILBOX_PER_HOUR}`,
    })
    .returning({ sent: mailThrottles.sent });
  return taken.length > 0;
}
