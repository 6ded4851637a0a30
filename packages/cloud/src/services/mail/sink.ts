import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '@hearth/contract/clock';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A message the sink received, parsed. */
export interface SunkMessage {
  /** The order it arrived in, from 1: the development mailbox's address of it. */
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  receivedAt: Date;
}

/**
 * A local SMTP server on loopback that accepts every message and records it: the dev and test setup sends the
 * cloud's mail here instead of to the world. Tests read `messages` or wait for one.
 */
export class SmtpSink {
  readonly messages: SunkMessage[] = [];
  private server: SMTPServer | null = null;
  private waiters = new Set<() => void>();
  private limit: number;
  private received = 0;

  private clock: Pick<Clock, 'now'>;

  constructor(options: { keep?: number; clock?: Pick<Clock, 'now'> } = {}) {
    this.limit = options.keep ?? 500;
    this.clock = options.clock ?? systemClock;
  }

  async start(host = '127.0.0.1', port = 0): Promise<{ host: string; port: number }> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 10 * 1024 * 1024,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks)).then(
            (email) => {
              this.record({
                id: ++this.received,
                from: email.from?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
                to: session.envelope.rcptTo.map((r) => r.address),
                subject: email.subject ?? '',
                text: email.text ?? '',
                html: email.html ?? '',
                messageId: email.messageId ?? '',
                receivedAt: new Date(this.clock.now()),
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.server.address() as AddressInfo;
    return { host, port: address.port };
  }

  private record(message: SunkMessage): void {
    this.messages.push(message);
    if (this.messages.length > this.limit) this.messages.shift();
    for (const wake of this.waiters) wake();
  }

  /** Resolves with the first recorded message matching `predicate`, waiting for it up to `timeoutMs`. */
  waitFor(predicate: (message: SunkMessage) => boolean, timeoutMs = 5000): Promise<SunkMessage> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.messages.find(predicate);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error('No matching mail arrived at the SMTP sink'));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
