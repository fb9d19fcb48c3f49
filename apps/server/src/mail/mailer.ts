import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { AppError } from '../lib/errors.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends email over SMTP (nodemailer). One per process, built from SMTP_URL / MAIL_FROM; absent
 * when SMTP is not configured, and the features that need email say so (see README, "Email").
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly settings: NonNullable<Config['mail']>,
    private readonly log: { warn(details: object, message: string): void },
    createTransport: (typeof nodemailer)['createTransport'],
  ) {
    // Short timeouts: a request waits for the message to be accepted, and an unreachable mail
    // server must answer "try again later" well before the browser gives up.
    const url = new URL(settings.smtpUrl);
    for (const [name, ms] of [
      ['connectionTimeout', '10000'],
      ['greetingTimeout', '10000'],
      ['socketTimeout', '20000'],
    ]) {
      if (!url.searchParams.has(name!)) url.searchParams.set(name!, ms!);
    }
    this.transport = createTransport(url.toString());
  }

  /** Links in emails point here (PUBLIC_URL), never at a Host header a caller chose. */
  link(pathAndQuery: string): string {
    return `${this.settings.publicUrl}${pathAndQuery}`;
  }

  async send(email: OutgoingEmail): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.settings.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
      });
    } catch (error) {
      // The message carries a live link: log that sending failed, never the text.
      this.log.warn({ err: error, subject: email.subject }, 'sending email failed');
      throw new AppError('UNAVAILABLE', 'We could not send the email just now. Please try again in a few minutes.');
    }
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * The process's mailer, or undefined without SMTP. nodemailer is loaded only then: a server that
 * sends no email does not carry it (issue 11, idle memory).
 */
export async function createMailer(config: Config, log: Mailer['log']): Promise<Mailer | undefined> {
  if (!config.mail) return undefined;
  const { default: nodemailer } = await import('nodemailer');
  return new Mailer(config.mail, log, nodemailer.createTransport);
}
