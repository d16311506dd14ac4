import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { WebhookRepository } from './webhook.repository';

/** The webhook room's scheduled jobs (docs/jobs.md). */
@Injectable()
export class WebhookJobs {
  constructor(
    private readonly repo: WebhookRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `delete-api-logs` (Plane's `api_logs_task.delete_api_logs`, daily at 02:30 UTC): deletes the
   * logs older than `API_LOG_RETENTION_DAYS` days (Plane's 30). Plane's task deletes its API
   * request log (`APIActivityLog`); Meridian keeps no per-request log in the database (requests
   * are logged to stdout), so the logs it keeps are the webhook attempts' (`webhook_logs`),
   * which Plane never deletes. `JOBS_BATCH_SIZE` rows per statement. Reports `{webhook_logs}`.
   */
  @ScheduledJob({
    name: 'delete-api-logs',
    schedule: { dailyAt: '02:30' },
    description: 'delete webhook logs older than API_LOG_RETENTION_DAYS',
  })
  async deleteLogs(ctx: JobContext): Promise<{ webhook_logs: number }> {
    const before = new Date(Date.now() - this.config.jobs.apiLogRetentionDays * 86_400_000);
    let deleted = 0;
    for (;;) {
      const n = await this.repo.deleteLogsBefore(before, ctx.batchSize);
      deleted += n;
      if (n < ctx.batchSize || ctx.signal.aborted) return { webhook_logs: deleted };
    }
  }
}
