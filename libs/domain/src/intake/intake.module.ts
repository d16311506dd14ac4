import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IntakeService } from './intake.service';

/** The intake feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [IntakeService],
  exports: [IntakeService],
})
export class IntakeFeatureModule {}
