import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { MailFeatureModule } from '../mail';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';

/** The analytics feature (workspace charts, saved charts, the home graphs): its services; exports what the API modules use. */
@Module({
  imports: [MailFeatureModule, IssueFeatureModule],
  providers: [AnalyticsRepository, AnalyticsService],
  exports: [AnalyticsService],
})
export class AnalyticsFeatureModule {}
