import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlanningRepository } from '../cycle';
import { EstimateFeatureModule } from '../estimate';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { WorkspaceFeatureModule } from '../workspace';
import { MODULE_KIND, MODULE_PLANNING, ModuleRepository } from './module.repository';
import { ModuleService } from './module.service';
import { ModuleLinkService } from './module-link.service';

/**
 * The module feature: its services; exports what other features and the API modules use. What
 * modules share with cycles is the cycle room's `PlanningRepository`, provided here over
 * `MODULE_KIND` as `MODULE_PLANNING` (docs/architecture.md, "Cycles and modules").
 */
@Module({
  imports: [EstimateFeatureModule, IssueFeatureModule, ProjectFeatureModule, WorkspaceFeatureModule],
  providers: [
    ModuleRepository,
    {
      provide: MODULE_PLANNING,
      useFactory: (dataSource: DataSource) => new PlanningRepository(dataSource, MODULE_KIND),
      inject: [getDataSourceToken()],
    },
    ModuleService,
    ModuleLinkService,
  ],
  exports: [ModuleService, ModuleLinkService],
})
export class ModuleFeatureModule {}
