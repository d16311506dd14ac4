import { Module } from '@nestjs/common';
import { ArchiveAndCloseService } from './archive-and-close.service';
import { AutomationRepository } from './automation.repository';

/** Project automations (Plane's daily archive-and-close): the service a job runner calls. */
@Module({
  providers: [AutomationRepository, ArchiveAndCloseService],
  exports: [ArchiveAndCloseService],
})
export class AutomationFeatureModule {}
