import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The message as it crossed the wire, headers included. */
  raw: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, the form SMTP_URL takes. */
  url: string;
  received: ReceivedMail[];
  /** Messages sent to `address`, oldest first. */
  to(address: string): ReceivedMail[];
  /** The first link in the newest message to `address` whose path is `path`. */
  lastLink(address: string, path: string): string | undefined;
  close(): Promise<void>;
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on 127.0.0.1 (smtp-server), standing in for the mail provider. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const to = (address: string) => received.filter((mail) => mail.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to,
    lastLink(address, path) {
      const mail = to(address).at(-1);
      const links = mail?.text.match(/https?:\/\/[^\s"<>]+/g) ?? [];
      return links.find((link) => new URL(link).pathname === path);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
