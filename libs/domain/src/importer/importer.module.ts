import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IntakeFeatureModule } from '../intake';
import { IssueFeatureModule } from '../issue';
import { LabelFeatureModule } from '../label';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { RelationFeatureModule } from '../relation';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { ImporterService } from './importer.service';

/**
 * The importer feature (`meridian import plane`): the people it brings over, and its dedupe reads
 * through the owning rooms' doors (it has no repository of its own).
 */
@Module({
  imports: [
    CycleFeatureModule,
    IntakeFeatureModule,
    IssueFeatureModule,
    LabelFeatureModule,
    ModuleFeatureModule,
    ProjectFeatureModule,
    RelationFeatureModule,
    StateFeatureModule,
    UserFeatureModule,
    WorkspaceFeatureModule,
  ],
  providers: [ImporterService],
  exports: [ImporterService],
})
export class ImporterFeatureModule {}
