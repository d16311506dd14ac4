import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { ModuleRepository } from './module.repository';
import { ModuleService } from './module.service';
import { ModuleLinkService } from './module-link.service';

/** The module feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [ModuleRepository, ModuleService, ModuleLinkService],
  exports: [ModuleService, ModuleLinkService],
})
export class ModuleFeatureModule {}
