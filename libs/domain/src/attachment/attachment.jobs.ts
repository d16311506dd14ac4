import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { JobContext, ScheduledJob } from '../kernel/jobs/job-runner';
import { AttachmentRepository } from './attachment.repository';
import { OBJECT_STORAGE } from './object-storage';
import type { ObjectStorage } from './object-storage';

/** The attachment room's scheduled jobs (docs/jobs.md). */
@Injectable()
export class AttachmentJobs {
  constructor(
    private readonly repo: AttachmentRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `delete-unuploaded-assets` (Plane's `file_asset_task.delete_unuploaded_file_asset`, daily at
   * 02:00 UTC): the assets whose presigned upload was never completed (`is_uploaded` false)
   * created more than `UNUPLOADED_ASSET_DELETE_DAYS` days ago (Plane's default 7) are soft-deleted,
   * as Plane does (`hard-delete` purges them later), and whatever part of their object reached
   * storage is removed; `JOBS_BATCH_SIZE` at a time. Reports `{deleted}`.
   */
  @ScheduledJob({
    name: 'delete-unuploaded-assets',
    schedule: { dailyAt: '02:00' },
    description: 'delete assets whose upload never completed, after UNUPLOADED_ASSET_DELETE_DAYS',
  })
  async deleteUnuploaded(ctx: JobContext): Promise<{ deleted: number }> {
    const before = new Date(Date.now() - this.config.jobs.unuploadedAssetDeleteDays * 86_400_000);
    let deleted = 0;
    for (;;) {
      const rows = await this.repo.unuploadedBefore(before, ctx.batchSize);
      for (const r of rows) await this.storage.delete(r.asset);
      if (rows.length) await this.repo.softDeleteAssets(rows.map((r) => r.id));
      deleted += rows.length;
      if (rows.length < ctx.batchSize || ctx.signal.aborted) return { deleted };
    }
  }
}
