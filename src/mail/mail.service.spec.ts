import { Logger } from '@nestjs/common';
import type { AppConfig, MailConfig } from '../config/configuration';
import { vendorInvitation } from './invitation';
import { MailService, smtpOptions } from './mail.service';

const app = (nodeEnv: AppConfig['nodeEnv']) => ({ nodeEnv }) as AppConfig;
const cfg: MailConfig = {
  smtpUrl: undefined,
  from: 'Marketplace <no-reply@marketplace.local>',
  requireTls: false,
};
const message = vendorInvitation({
  shopDomain: 'acme.myshopify.com',
  vendorName: 'acme apparel',
  email: 'jane@acme.example',
  password: 'S3cure-portal-pass',
});

describe('MailService without SMTP_URL', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs the message instead of dropping it, with its password redacted', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const mail = new MailService(cfg, app('development'));
    expect(mail.mode).toBe('log');
    await expect(mail.send(message)).resolves.toBe(true);
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({
        to: 'jane@acme.example',
        subject: 'Your vendor portal account for acme.myshopify.com',
        text: expect.stringContaining('Password: [redacted]'),
      }),
      expect.stringContaining('logged, not delivered'),
    );
    expect(JSON.stringify(log.mock.calls)).not.toContain('S3cure-portal-pass');
  });

  it('in production logs the envelope and a warning, never the body', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const mail = new MailService(cfg, app('production'));
    await expect(mail.send(message)).resolves.toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SMTP_URL is not set'));
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain('jane@acme.example');
    expect(logged).not.toContain('S3cure-portal-pass');
  });
});

describe('vendorInvitation', () => {
  it('names the shop, the vendor, the email and the password', () => {
    expect(message.to).toBe('jane@acme.example');
    expect(message.text).toContain('acme.myshopify.com');
    expect(message.text).toContain('"acme apparel"');
    expect(message.text).toContain('Email:    jane@acme.example');
    expect(message.text).toContain('Password: S3cure-portal-pass');
  });
});

describe('smtpOptions', () => {
  it('requires STARTTLS with a verified certificate when requireTls (production)', () => {
    expect(smtpOptions({ smtpUrl: 'smtp://mail.example:587', requireTls: true })).toMatchObject({
      requireTLS: true,
      tls: { rejectUnauthorized: true },
    });
    expect(smtpOptions({ smtpUrl: 'smtp://127.0.0.1:1025', requireTls: false })).not.toHaveProperty(
      'requireTLS',
    );
  });
});
