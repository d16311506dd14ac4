import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import * as nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends email through the configured SMTP server (nodemailer). With no `EMAIL_HOST`, the message
 * is written to the log instead (level warn), so a self-hoster without SMTP can still read a
 * sign-in code or an invitation link. Never logs passwords or tokens other than the message
 * itself, which is meant for its reader.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private transporter?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether an SMTP server is configured (otherwise mail goes to the log). */
  get configured(): boolean {
    return !!this.config.mail.host;
  }

  async send(mail: OutgoingMail): Promise<void> {
    const settings = this.config.mail;
    if (!settings.host) {
      this.logger.warn({ to: mail.to, subject: mail.subject, text: mail.text }, 'No SMTP server configured; email written to the log');
      return;
    }
    this.transporter ??= nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.useSsl,
      requireTLS: settings.useTls && !settings.useSsl,
      ignoreTLS: !settings.useTls && !settings.useSsl,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    });
    await this.transporter.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  }
}
