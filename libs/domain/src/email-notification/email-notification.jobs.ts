import { Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { EmailNotificationService } from './email-notification.service';

/** The email notification room's scheduled job (docs/jobs.md, docs/mail.md). */
@Injectable()
export class EmailNotificationJobs {
  constructor(private readonly emails: EmailNotificationService) {}

  /**
   * Plane's `email_notification_task.stack_email_notification`, every 5 minutes: one mail per
   * receiver and work item from the pending `email_notification_logs` rows, failed sends retried
   * with backoff. Result: `{sent, failed, given_up, dropped}`. Safe on several replicas at once
   * (rows are claimed `FOR UPDATE SKIP LOCKED`).
   */
  @ScheduledJob({
    name: 'send-email-notifications',
    schedule: { every: 5 },
    description: 'send the stacked work item email notifications (one mail per receiver and work item)',
  })
  async run(_ctx: JobContext) {
    const { sent, failed, given_up, dropped } = await this.emails.sendPending(new Date());
    return { sent, failed, given_up, dropped };
  }
}
