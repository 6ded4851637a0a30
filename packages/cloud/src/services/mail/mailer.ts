import { HearthError } from '@hearth/contract';
import type { Clock } from '@hearth/contract/clock';
import nodemailer, { type Transporter } from 'nodemailer';
import type { CloudConfig } from '../../config';
import { htmlFromText } from './format';
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
 * How long a send may wait on the SMTP server. nodemailer's defaults (two minutes to connect) would hold the
 * caller's request far beyond any client's timeout.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 };

/**
 * Sends mail through the configured SMTP server, or through a local SMTP sink on loopback started here when
 * none is configured.
 */
export async function createMailer(
  config: Pick<CloudConfig, 'smtpUrl' | 'mailFrom'>,
  clock: Pick<Clock, 'now'>,
): Promise<Mailer> {
  let sink: SmtpSink | null = null;
  let transport: Transporter;
  if (config.smtpUrl) {
    transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
  } else {
    sink = new SmtpSink({ clock });
    const { host, port } = await sink.start();
    transport = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true, ...SMTP_TIMEOUTS });
  }
  return {
    sink,
    async send(mail) {
      let info: { messageId?: unknown; accepted?: unknown[] };
      try {
        // Every mail has an HTML part beside its text: mail apps show that one, with the links clickable.
        info = await transport.sendMail({
          from: config.mailFrom,
          ...mail,
          html: mail.html ?? htmlFromText(mail.subject, mail.text),
        });
      } catch {
        // The mail server is down or refused the message: the caller may retry; nothing was sent.
        throw new HearthError('unavailable', 'The mail server could not be reached; the e-mail was not sent');
      }
      return { messageId: String(info.messageId ?? ''), accepted: (info.accepted ?? []).map(String) };
    },
    async close() {
      transport.close();
      await sink?.stop();
    },
  };
}
