import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link inside the message, kept apart so the log mailer can show it. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Without SMTP the message is logged, so an operator can still hand the link over. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async send(message) {
      logger.info({ to: message.to, subject: message.subject, link: message.link }, 'e-mail not sent (SMTP_URL unset)');
    },
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
