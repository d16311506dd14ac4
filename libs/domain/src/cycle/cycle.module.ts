import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { CycleRepository } from './cycle.repository';
import { CycleService } from './cycle.service';

/** The cycle feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [CycleRepository, CycleService],
  exports: [CycleService],
})
export class CycleFeatureModule {}
