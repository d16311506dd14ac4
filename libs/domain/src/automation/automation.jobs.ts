import { Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { ArchiveAndCloseService } from './archive-and-close.service';

/** The automation room's scheduled jobs (docs/jobs.md). */
@Injectable()
export class AutomationJobs {
  constructor(private readonly archiveAndClose: ArchiveAndCloseService) {}

  /**
   * Plane's `issue_automation_task.archive_and_close_old_issues`, daily at 01:00 UTC (`plane/celery.py`
   * at v0.25.3): archives completed and cancelled work items past their project's `archive_in`
   * months, closes stale ones past `close_in` months (docs/automation.md). Result: `{archived, closed}`.
   */
  @ScheduledJob({
    name: 'archive-and-close',
    schedule: { dailyAt: '01:00' },
    description: "archive done work items after the project's archive_in, close stale ones after close_in",
  })
  async run(_ctx: JobContext) {
    const { archived, closed } = await this.archiveAndClose.run(new Date());
    return { archived, closed };
  }
}
