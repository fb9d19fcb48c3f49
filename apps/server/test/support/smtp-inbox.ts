import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  to: string[];
  subject: string;
  /** The decoded text body (quoted-printable undone). */
  text: string;
}

/**
 * A real SMTP server on a free local port (the `smtp-server` package) that keeps what it receives,
 * so tests send real mail through nodemailer and read it back. `nextFor` waits on the delivery
 * event itself, never on a timer.
 */
export class SmtpInbox {
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    readonly received: ReceivedEmail[],
    private readonly events: EventEmitter,
  ) {}

  static async start(): Promise<SmtpInbox> {
    const received: ReceivedEmail[] = [];
    const events = new EventEmitter();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const email = parseMessage(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          );
          received.push(email);
          events.emit('email', email);
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    return new SmtpInbox(server, (server.server.address() as AddressInfo).port, received, events);
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The first email to `address` received after `since` (an index into `received`), waiting for it if need be. */
  async nextFor(address: string, since: number): Promise<ReceivedEmail> {
    for (;;) {
      const found = this.received.slice(since).find((email) => email.to.includes(address.toLowerCase()));
      if (found) return found;
      await once(this.events, 'email');
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function parseMessage(raw: string, to: string[]): ReceivedEmail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n\s+/g, ' ');
  let body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  if (/^Content-Transfer-Encoding: quoted-printable/im.test(head)) {
    body = Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/^Content-Transfer-Encoding: base64/im.test(head)) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { to, subject, text: body.replace(/\r\n/g, '\n') };
}

/** The one link in an email that starts with `prefix`. */
export function linkIn(email: ReceivedEmail, prefix: string): string {
  const link = email.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in: ${email.text}`);
  return link;
}
