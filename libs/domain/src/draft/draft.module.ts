import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IssueFeatureModule } from '../issue';
import { ModuleFeatureModule } from '../module';
import { DraftRepository } from './draft.repository';
import { DraftService } from './draft.service';

/** The draft feature (workspace drafts): its services; exports what the API modules use. */
@Module({
  imports: [IssueFeatureModule, CycleFeatureModule, ModuleFeatureModule],
  providers: [DraftRepository, DraftService],
  exports: [DraftService],
})
export class DraftFeatureModule {}
