import { Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { ExporterService } from './exporter.service';

/** The exporter room's scheduled jobs (docs/jobs.md). */
@Injectable()
export class ExporterJobs {
  constructor(private readonly exporter: ExporterService) {}

  /** Plane's `exporter_expired_task.delete_old_s3_link`, daily at 01:30 UTC (`plane/celery.py`). */
  @ScheduledJob({
    name: 'delete-expired-exports',
    schedule: { dailyAt: '01:30' },
    description: 'remove the files and links of exports older than EXPORT_EXPIRY_DAYS',
  })
  run(ctx: JobContext) {
    return this.exporter.deleteExpiredFiles(ctx.signal, ctx.batchSize);
  }
}
