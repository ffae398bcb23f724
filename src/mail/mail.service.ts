import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { appConfig, AppConfig, mailConfig, MailConfig } from '../config/configuration';
import type { MailMessage } from './invitation';

export type MailMode = 'smtp' | 'log';

/**
 * Outbound email over nodemailer. With `SMTP_URL` it delivers over SMTP; without it every message
 * is written to the log instead (never dropped silently): its envelope, and outside production its
 * text with every secret the message names (the invitation's password) replaced by `[redacted]` —
 * a password never reaches a log — together with a warning in production that nothing is delivered.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  readonly mode: MailMode;

  constructor(
    @Inject(mailConfig.KEY) private readonly cfg: MailConfig,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {
    if (cfg.smtpUrl) {
      this.mode = 'smtp';
      this.transport = createTransport(smtpOptions(cfg), { from: cfg.from });
    } else {
      this.mode = 'log';
      this.transport = createTransport({ jsonTransport: true }, { from: cfg.from });
      if (app.nodeEnv === 'production')
        this.logger.warn('SMTP_URL is not set: emails are written to the log, not delivered');
    }
  }

  /** True when the message was handed to the SMTP server (or logged); false when sending failed. */
  async send(message: MailMessage): Promise<boolean> {
    try {
      const info = await this.transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      if (this.mode === 'log') this.logMessage(message);
      else
        this.logger.log(
          { to: message.to, subject: message.subject, messageId: info.messageId },
          'Email sent',
        );
      return true;
    } catch (err) {
      this.logger.error(
        {
          to: message.to,
          subject: message.subject,
          err: { name: (err as Error)?.name, message: (err as Error)?.message },
        },
        'Email could not be sent',
      );
      return false;
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  private logMessage(message: MailMessage): void {
    const envelope = { from: this.cfg.from, to: message.to, subject: message.subject };
    if (this.app.nodeEnv === 'production') {
      this.logger.warn(envelope, 'Email not delivered (no SMTP_URL); body withheld from production logs');
    } else {
      this.logger.log(
        { ...envelope, text: redact(message.text, message.secrets ?? []) },
        'Email (no SMTP_URL configured: logged, not delivered; secrets redacted)',
      );
    }
  }
}

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * The SMTP transport's options. `requireTls` (production): on smtp:// the session must upgrade
 * with STARTTLS or nothing is sent, so a downgrade cannot expose an invitation's password.
 */
export function smtpOptions(cfg: Pick<MailConfig, 'smtpUrl' | 'requireTls'>) {
  return {
    url: cfg.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    ...(cfg.requireTls ? { requireTLS: true, tls: { rejectUnauthorized: true } } : {}),
  };
}
