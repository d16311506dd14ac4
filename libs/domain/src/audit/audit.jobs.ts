import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { AuditRepository } from './audit.repository';

/** The audit room's scheduled job (docs/jobs.md, docs/audit.md). */
@Injectable()
export class AuditJobs {
  constructor(
    private readonly repo: AuditRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `delete-audit-logs` (daily at 03:00 UTC; Meridian's own, Plane has no audit log): deletes the
   * audit log rows older than `AUDIT_LOG_RETENTION_DAYS` days (default 365), `JOBS_BATCH_SIZE`
   * rows per transaction, the only deletion the table's append-only trigger allows. Reports `{audit_logs}`.
   */
  @ScheduledJob({
    name: 'delete-audit-logs',
    schedule: { dailyAt: '03:00' },
    description: 'delete audit log rows older than AUDIT_LOG_RETENTION_DAYS',
  })
  async deleteOld(ctx: JobContext): Promise<{ audit_logs: number }> {
    const before = new Date(Date.now() - this.config.jobs.auditLogRetentionDays * 86_400_000);
    let deleted = 0;
    for (;;) {
      const n = await this.repo.deleteBefore(before, ctx.batchSize);
      deleted += n;
      if (n < ctx.batchSize || ctx.signal.aborted) return { audit_logs: deleted };
    }
  }
}
