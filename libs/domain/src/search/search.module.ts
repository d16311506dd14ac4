import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IssueFeatureModule } from '../issue';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { WorkspaceFeatureModule } from '../workspace';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/** The search feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [WorkspaceFeatureModule, ProjectFeatureModule, IssueFeatureModule, CycleFeatureModule, ModuleFeatureModule],
  providers: [SearchRepository, SearchService],
  exports: [SearchService],
})
export class SearchFeatureModule {}
