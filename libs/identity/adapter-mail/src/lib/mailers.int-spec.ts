import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { LogMailer } from './log.mailer';
import { parseSmtpUrl, SmtpMailer } from './smtp.mailer';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
async function smtpServer(auth?: { user: string; pass: string }) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: !auth,
    disabledCommands: ['STARTTLS'],
    onAuth(credentials, _session, callback) {
      if (auth && credentials.username === auth.user && credentials.password === auth.pass) return callback(null, { user: auth.user });
      callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('SmtpMailer', () => {
  it('delivers a plain-text message to an SMTP server', async () => {
    const server = await smtpServer();
    try {
      await new SmtpMailer(`smtp://127.0.0.1:${server.port}`, 'lnk <no-reply@lnk.test>').send({
        to: 'ada@example.com',
        subject: 'Confirm your address',
        text: 'Follow https://lnk.test/auth/verify-email?token=abc',
      });
      expect(server.received).toHaveLength(1);
      expect(server.received[0].from).toBe('no-reply@lnk.test');
      expect(server.received[0].to).toEqual(['ada@example.com']);
      expect(server.received[0].raw).toContain('Subject: Confirm your address');
      expect(server.received[0].raw).toContain('verify-email?token=abc');
    } finally {
      await server.close();
    }
  });

  it('signs in with the credentials of the URL, and fails loudly with wrong ones', async () => {
    const server = await smtpServer({ user: 'mailer', pass: 's3cret' });
    try {
      await new SmtpMailer(`smtp://mailer:s3cret@127.0.0.1:${server.port}`, 'no-reply@lnk.test').send({
        to: 'b@example.com',
        subject: 'Hi',
        text: 'Body',
      });
      expect(server.received.map((m) => m.to)).toEqual([['b@example.com']]);
      await expect(
        new SmtpMailer(`smtp://mailer:wrong@127.0.0.1:${server.port}`, 'no-reply@lnk.test').send({
          to: 'c@example.com',
          subject: 'Hi',
          text: 'Body',
        }),
      ).rejects.toThrow();
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('LogMailer', () => {
  it('hands the whole message to the log', async () => {
    const entries: unknown[] = [];
    await new LogMailer((entry) => entries.push(entry)).send({ to: 'a@example.com', subject: 'S', text: 'T' });
    expect(entries).toEqual([{ to: 'a@example.com', subject: 'S', text: 'T' }]);
  });
});

describe('parseSmtpUrl', () => {
  it('accepts smtp and smtps URLs and nothing else', () => {
    expect(parseSmtpUrl(undefined)).toBeNull();
    expect(parseSmtpUrl(' ')).toBeNull();
    expect(parseSmtpUrl('smtps://u:p@mail.example.com:465')).toBe('smtps://u:p@mail.example.com:465');
    expect(() => parseSmtpUrl('http://mail.example.com')).toThrow(/SMTP_URL/);
    expect(() => parseSmtpUrl('not a url')).toThrow(/SMTP_URL/);
  });
});
