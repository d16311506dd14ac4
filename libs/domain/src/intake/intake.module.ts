import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { IntakeRepository } from './intake.repository';
import { IntakeService } from './intake.service';

/** The intake feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule, ProjectFeatureModule, StateFeatureModule],
  providers: [IntakeRepository, IntakeService],
  exports: [IntakeService],
})
export class IntakeFeatureModule {}
