import nodemailer, { type Transporter } from 'nodemailer';
import type { CloudConfig } from '../../config';
import { SmtpSink } from './sink';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  from?: string;
  replyTo?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string; accepted: string[] }>;
  /** The local SMTP sink mail goes to when no SMTP server is configured (dev and tests); `null` otherwise. */
  readonly sink: SmtpSink | null;
  close(): Promise<void>;
}

/**
 * Sends mail through the configured SMTP server, or through a local SMTP sink on loopback started here when
 * none is configured.
 */
export async function createMailer(config: Pick<CloudConfig, 'smtpUrl' | 'mailFrom'>): Promise<Mailer> {
  let sink: SmtpSink | null = null;
  let transport: Transporter;
  if (config.smtpUrl) {
    transport = nodemailer.createTransport(config.smtpUrl);
  } else {
    sink = new SmtpSink();
    const { host, port } = await sink.start();
    transport = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true });
  }
  return {
    sink,
    async send(mail) {
      const info = await transport.sendMail({ from: config.mailFrom, ...mail });
      return { messageId: String(info.messageId ?? ''), accepted: (info.accepted ?? []).map(String) };
    },
    async close() {
      transport.close();
      await sink?.stop();
    },
  };
}
