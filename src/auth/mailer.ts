import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link inside the message, kept apart so the log mailer can show it. */
  link?: string;
}

/** Where a message goes: out by SMTP, or into the server's log when SMTP_URL is unset. */
export type MailDelivery = 'smtp' | 'log';

export interface Mailer {
  /** Told to callers, so nobody is promised an e-mail that was only logged. */
  readonly delivery: MailDelivery;
  send(message: MailMessage): Promise<void>;
}

/** Without SMTP the message is logged, so an operator can still hand the link over. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    delivery: 'log',
    async send(message) {
      logger.info({ to: message.to, subject: message.subject, link: message.link }, 'e-mail not sent (SMTP_URL unset)');
    },
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    delivery: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
