import { Module } from '@nestjs/common';
import { EstimateFeatureModule } from '../estimate';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { CycleRepository } from './cycle.repository';
import { CycleService } from './cycle.service';

/** The cycle feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [EstimateFeatureModule, IssueFeatureModule, ProjectFeatureModule],
  providers: [CycleRepository, CycleService],
  exports: [CycleService],
})
export class CycleFeatureModule {}
