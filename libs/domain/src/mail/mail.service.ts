import { APP_CONFIG, AppConfig, MeridianError } from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { InstanceSettings, SmtpSettings } from '../instance-config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** files sent with the message (the analytics export's CSV); the log fallback names them only */
  attachments?: Array<{ filename: string; content: string | Buffer; contentType: string }>;
}

/**
 * Sends email through the configured SMTP server (nodemailer). The SMTP settings are read through
 * `InstanceSettings` on every message (an instance admin's `EMAIL_*` configuration, else the
 * environment), so a configuration change takes effect without a restart.
 *
 * Without an SMTP server (`EMAIL_HOST` unset):
 * - outside production (`NODE_ENV` development or test), the message is written to the log
 *   instead (level warn, "email written to the log"), so a developer can read a sign-in code or
 *   an invitation link. This is the only log line that may carry a secret, by design.
 * - with `NODE_ENV=production`, nothing is sent or logged: `send` throws 400
 *   `SMTP_NOT_CONFIGURED` (Plane's status), and callers check `canDeliver()` first (docs/decisions.md,
 *   "No secrets in the log").
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private transport?: { key: string; transporter: Transporter };

  constructor(
    private readonly settings: InstanceSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Whether an SMTP server is configured, as last read (may lag a change by a few seconds; use
   * `isConfigured()` where a request must see the current value).
   */
  get configured(): boolean {
    return this.settings.peek('EMAIL_HOST').trim() !== '';
  }

  /** Whether an SMTP server is configured now (otherwise mail goes to the log, outside production). */
  async isConfigured(): Promise<boolean> {
    return (await this.settings.smtp()).host !== '';
  }

  /**
   * Whether a message reaches someone now: an SMTP server is configured, or this is not
   * production (the log fallback). False means `send` would throw `SMTP_NOT_CONFIGURED`.
   */
  async canDeliver(): Promise<boolean> {
    return this.config.env !== 'production' || (await this.isConfigured());
  }

  /** 400 `SMTP_NOT_CONFIGURED` unless `canDeliver()`: for flows whose only point is the mail (codes, reset tokens). */
  async assertCanDeliver(): Promise<void> {
    if (!(await this.canDeliver())) throw new MeridianError('SMTP_NOT_CONFIGURED');
  }

  /**
   * Sends the message: `'sent'` through SMTP, `'logged'` through the development log fallback.
   * 400 `SMTP_NOT_CONFIGURED` in production without SMTP (nothing is logged); SMTP failures throw.
   */
  async send(mail: OutgoingMail): Promise<'sent' | 'logged'> {
    const settings = await this.settings.smtp();
    if (!settings.host) {
      if (this.config.env === 'production') throw new MeridianError('SMTP_NOT_CONFIGURED');
      this.logger.warn(
        { to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments?.map((a) => a.filename) },
        `No SMTP server configured; email written to the log (NODE_ENV=${this.config.env} only, never in production)`,
      );
      return 'logged';
    }
    await this.transporterFor(settings).sendMail({
      from: settings.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
    });
    return 'sent';
  }

  /**
   * `POST /api/instances/email-credentials-check/` (Plane `plane/license/api/views/configuration.py`
   * EmailCredentialCheckEndpoint): sends Plane's sample message to `to` through the configured SMTP
   * settings, on a connection of its own with short time-outs, never through the log fallback.
   * Every failure is a 400 `SMTP_CHECK_FAILED` whose detail names the cause (Plane's messages); the
   * password is never part of an answer or a log line.
   */
  async sendTest(to: string): Promise<{ message: string }> {
    const settings = await this.settings.smtp();
    if (!settings.host)
      throw new MeridianError('SMTP_CHECK_FAILED', 'No SMTP server is configured (EMAIL_HOST is empty).');
    const nodemailer = require('nodemailer') as typeof Nodemailer;
    const transporter = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.useSsl,
      requireTLS: settings.useTls && !settings.useSsl,
      ignoreTLS: !settings.useTls && !settings.useSsl,
      auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    });
    try {
      await transporter.sendMail({
        from: settings.from,
        to,
        subject: 'Email Notification from Plane',
        text: 'This is a sample email notification sent from Plane application.',
      });
      return { message: 'Email successfully sent.' };
    } catch (err) {
      const cause = smtpFailure(err);
      this.logger.warn({ code: (err as { code?: unknown }).code ?? null, cause }, 'SMTP check failed');
      throw new MeridianError('SMTP_CHECK_FAILED', cause);
    } finally {
      transporter.close();
    }
  }

  /** One transporter per distinct settings: a configuration change builds a new one. */
  private transporterFor(settings: SmtpSettings): Transporter {
    const key = JSON.stringify(settings);
    if (this.transport?.key !== key) {
      this.transport?.transporter.close();
      // loaded on first mail, not at start-up
      const nodemailer = require('nodemailer') as typeof Nodemailer;
      const transporter = nodemailer.createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.useSsl,
        requireTLS: settings.useTls && !settings.useSsl,
        ignoreTLS: !settings.useTls && !settings.useSsl,
        auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
        // bounded, so that a silent server cannot hold a sender (a notification batch's lease) for minutes
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
      });
      this.transport = { key, transporter };
    }
    return this.transport.transporter;
  }
}

/** Plane's messages for the SMTP check's failures, from nodemailer's error codes (no server text, which may echo input). */
function smtpFailure(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const response = typeof e.responseCode === 'number' ? e.responseCode : 0;
  if (code === 'EAUTH' || response === 535 || response === 534) return 'Invalid credentials provided';
  if (code === 'ETIMEDOUT') return 'Timeout error while trying to connect to the SMTP server.';
  if (code === 'EENVELOPE' || code === 'EMESSAGE') {
    return e.command === 'MAIL FROM' ? 'From address is invalid.' : 'All recipient addresses were refused.';
  }
  if (code === 'ECONNECTION' || code === 'EDNS' || code === 'ESOCKET' || code === 'ETLS')
    return 'Could not connect with the SMTP server.';
  if (code === 'EPROTOCOL') return 'SMTP server disconnected unexpectedly.';
  return 'Could not send email. Please check your configuration';
}
