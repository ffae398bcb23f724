import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import { mailConfig } from '../../src/config/configuration';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

const FROM = 'Marketplace Test <no-reply@marketplace.test>';
const PASSWORD = 'Invite-Pass-12345';

/** A real SMTP server on a free local port that keeps every message it accepts. */
async function startSmtpSink(): Promise<{ url: string; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
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
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The body as text: quoted-printable soft breaks and escapes undone. */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

async function vendorOf(t: TestApp, shop: TestShop, name: string): Promise<string> {
  const res = await t.api.post(
    '/v1/vendors',
    { vendorName: name, commissionType: 'flat', commissionAmount: 1 },
    { token: shop.token },
  );
  return res.body.vendor._id;
}

describe('invitation email (e2e)', () => {
  describe('with SMTP_URL: delivered to a real SMTP server', () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
    let shop: TestShop;
    let vendorId: string;

    beforeAll(async () => {
      smtp = await startSmtpSink();
      t = await startApp((b) =>
        b.overrideProvider(mailConfig.KEY).useValue({ smtpUrl: smtp.url, from: FROM }),
      );
      shop = await createShop(t, 'mail');
      vendorId = await vendorOf(t, shop, 'Mail Vendor');
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });
    beforeEach(() => {
      smtp.received.length = 0;
    });

    it('POST /v1/users with sendEmail sends the invitation with the plaintext password', async () => {
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: 'Invitee@Example.com', password: PASSWORD, sendEmail: true },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User created and invitation email sent');
      expect(res.body.user.invitationDate).toEqual(expect.any(String));
      expect(res.text).not.toContain(PASSWORD);

      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.to).toEqual(['invitee@example.com']);
      expect(mail.from).toBe('no-reply@marketplace.test');
      expect(mail.raw).toMatch(/^To: invitee@example\.com\r?$/m);
      expect(mail.raw).toMatch(/^From: Marketplace Test <no-reply@marketplace\.test>\r?$/m);
      expect(mail.raw).toMatch(
        new RegExp(
          `^Subject: Your vendor portal account for ${shop.shopDomain.replace(/\./g, '\\.')}\\r?$`,
          'm',
        ),
      );
      const text = bodyOf(mail.raw);
      expect(text).toContain(`Password: ${PASSWORD}`);
      expect(text).toContain('Email:    invitee@example.com');
      expect(text).toContain(`Shop:     ${shop.shopDomain}`);
      expect(text).toContain('"mail vendor"');

      // The invited user can sign in with what the email says.
      const auth = await t.api.post('/v2/vendor/authenticate', {
        shopDomain: shop.shopDomain,
        email: 'invitee@example.com',
        password: PASSWORD,
      });
      expect(auth.status).toBe(200);
    });

    it('sends nothing without sendEmail (or with false)', async () => {
      for (const [i, sendEmail] of [undefined, false].entries()) {
        const res = await t.api.post(
          '/v1/users',
          { vendorId, email: `quiet${i}@example.com`, password: PASSWORD, sendEmail },
          { token: shop.token },
        );
        expect(res.status).toBe(200);
        expect(res.body.user.invitationDate).toBeNull();
      }
      expect(smtp.received).toHaveLength(0);
    });

    it('POST /v2/users with sendEmail sends it too', async () => {
      const mk = await createMerchantKey(t, shop);
      const res = await t.api.post(
        '/v2/users',
        { vendorId, email: 'v2invitee@example.com', password: PASSWORD, sendEmail: true },
        { token: mk.token },
      );
      expect(res.status).toBe(201);
      expect(res.body.data.invitationDate).toEqual(expect.any(String));
      expect(smtp.received.map((m) => m.to)).toEqual([['v2invitee@example.com']]);
      expect(bodyOf(smtp.received[0].raw)).toContain(`Password: ${PASSWORD}`);
    });

    it('a refused or duplicate user sends nothing', async () => {
      await t.api.post(
        '/v1/users',
        { vendorId, email: 'once@example.com', password: PASSWORD },
        { token: shop.token },
      );
      smtp.received.length = 0;
      const dup = await t.api.post(
        '/v1/users',
        { vendorId, email: 'once@example.com', password: PASSWORD, sendEmail: true },
        { token: shop.token },
      );
      expect(dup.status).toBe(409);
      const bad = await t.api.post(
        '/v1/users',
        { vendorId: '6740c1a2e4b0f15b3c9d0aff', email: 'x@example.com', password: PASSWORD, sendEmail: true },
        { token: shop.token },
      );
      expect(bad.status).toBe(422);
      expect(smtp.received).toHaveLength(0);
    });
  });

  describe('with an unreachable SMTP server', () => {
    let t: TestApp;
    beforeAll(async () => {
      const closed = await startSmtpSink();
      const url = closed.url;
      await closed.close();
      t = await startApp((b) => b.overrideProvider(mailConfig.KEY).useValue({ smtpUrl: url, from: FROM }));
    });
    afterAll(() => t.close());

    it('still creates the user and says the invitation was not sent', async () => {
      const shop = await createShop(t, 'mail-down');
      const vendorId = await vendorOf(t, shop, 'Down Vendor');
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: 'down@example.com', password: PASSWORD, sendEmail: true },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User created, but the invitation email could not be sent');
      expect(res.body.user.invitationDate).toBeNull();
      expect((await t.api.get(`/v1/users/${res.body.user._id}`, { token: shop.token })).status).toBe(200);
    });
  });

  describe('without SMTP_URL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp((b) =>
        b.overrideProvider(mailConfig.KEY).useValue({ smtpUrl: undefined, from: FROM }),
      );
    });
    afterAll(() => t.close());
    afterEach(() => jest.restoreAllMocks());

    it('writes the invitation to the log instead of dropping it, never with its password', async () => {
      const log = jest.spyOn(Logger.prototype, 'log');
      const shop = await createShop(t, 'mail-log');
      const vendorId = await vendorOf(t, shop, 'Log Vendor');
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: 'logged@example.com', password: PASSWORD, sendEmail: true },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User created and invitation email sent');
      expect(log).toHaveBeenCalledWith(
        expect.objectContaining({
          to: 'logged@example.com',
          from: FROM,
          subject: `Your vendor portal account for ${shop.shopDomain}`,
          text: expect.stringContaining('Password: [redacted]'),
        }),
        expect.stringContaining('logged, not delivered'),
      );
      expect(JSON.stringify(log.mock.calls)).not.toContain(PASSWORD);
    });
  });
});
