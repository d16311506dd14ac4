import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { ArchiveAndCloseService } from './archive-and-close.service';
import { AutomationJobs } from './automation.jobs';
import { AutomationRepository } from './automation.repository';

/** Project automations (Plane's daily archive-and-close): its daily job (`archive-and-close`). */
@Module({
  imports: [ProjectFeatureModule, StateFeatureModule, IssueFeatureModule],
  providers: [AutomationRepository, ArchiveAndCloseService, AutomationJobs],
  exports: [ArchiveAndCloseService],
})
export class AutomationFeatureModule {}
