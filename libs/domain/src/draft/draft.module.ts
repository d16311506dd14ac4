import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IssueFeatureModule } from '../issue';
import { LabelFeatureModule } from '../label';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { DraftRepository } from './draft.repository';
import { DraftService } from './draft.service';

/** The draft feature (workspace drafts): its services; exports what the API modules use. */
@Module({
  imports: [
    IssueFeatureModule,
    CycleFeatureModule,
    ModuleFeatureModule,
    ProjectFeatureModule,
    StateFeatureModule,
    LabelFeatureModule,
  ],
  providers: [DraftRepository, DraftService],
  exports: [DraftService],
})
export class DraftFeatureModule {}
