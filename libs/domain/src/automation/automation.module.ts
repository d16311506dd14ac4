import { Module } from '@nestjs/common';
import { ArchiveAndCloseService } from './archive-and-close.service';
import { AutomationJobs } from './automation.jobs';
import { AutomationRepository } from './automation.repository';

/** Project automations (Plane's daily archive-and-close): its daily job (`archive-and-close`). */
@Module({
  providers: [AutomationRepository, ArchiveAndCloseService, AutomationJobs],
  exports: [ArchiveAndCloseService],
})
export class AutomationFeatureModule {}
