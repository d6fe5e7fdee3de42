import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('verification e-mail over SMTP', () => {
  const received: Array<{ to: string[]; raw: string }> = [];
  let smtp: SMTPServer;
  let port: number;
  let server: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    // SMTP_URL makes the service build its own SMTP mailer, pointed here at a loopback server.
    server = await startTestServer('sqlite', {
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'Pluck <pluck@example.com>',
      FRONTEND_URL: 'http://app.example.com',
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails a link that verifies the address and lands on the dashboard', async () => {
    const api = apiClient(server.baseUrl);
    const { email, token } = await api.signUp();
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]!.to).toEqual([email]);
    expect(received[0]!.raw).toContain('From: Pluck <pluck@example.com>');
    const unfolded = received[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/v1\/user\/verify-email-token\?token=[\w.%-]+)/.exec(unfolded)?.[1];
    expect(link, unfolded).toBeDefined();
    const res = await fetch(link!, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://app.example.com/?new_user=true');
    const me = await api.get('/v1/user/me', token);
    expect(me.body.data.user.emailVerified).toBe(true);
  });
});
