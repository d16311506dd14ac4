import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { ModuleService } from './module.service';

/** The module feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [ModuleService],
  exports: [ModuleService],
})
export class ModuleFeatureModule {}
