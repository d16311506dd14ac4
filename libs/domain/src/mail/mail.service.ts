import { Injectable, Logger } from '@nestjs/common';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { InstanceSettings, SmtpSettings } from '../instance/instance-settings.service';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends email through the configured SMTP server (nodemailer). The SMTP settings are read through
 * `InstanceSettings` on every message (an instance admin's `EMAIL_*` configuration, else the
 * environment), so a configuration change takes effect without a restart. With no `EMAIL_HOST`,
 * the message is written to the log instead (level warn), so a self-hoster without SMTP can still
 * read a sign-in code or an invitation link. Never logs passwords or tokens other than the
 * message itself, which is meant for its reader.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private transport?: { key: string; transporter: Transporter };

  constructor(private readonly settings: InstanceSettings) {}

  /**
   * Whether an SMTP server is configured, as last read (may lag a change by a few seconds; use
   * `isConfigured()` where a request must see the current value).
   */
  get configured(): boolean {
    return this.settings.peek('EMAIL_HOST').trim() !== '';
  }

  /** Whether an SMTP server is configured now (otherwise mail goes to the log). */
  async isConfigured(): Promise<boolean> {
    return (await this.settings.smtp()).host !== '';
  }

  async send(mail: OutgoingMail): Promise<void> {
    const settings = await this.settings.smtp();
    if (!settings.host) {
      this.logger.warn({ to: mail.to, subject: mail.subject, text: mail.text }, 'No SMTP server configured; email written to the log');
      return;
    }
    await this.transporterFor(settings).sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
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
      });
      this.transport = { key, transporter };
    }
    return this.transport.transporter;
  }
}
