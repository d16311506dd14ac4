import { Module } from '@nestjs/common';
import { PreferenceRepository } from './preference.repository';
import { PreferenceService } from './preference.service';
import { QuickLinkService } from './quick-link.service';
import { RecentVisitService } from './recent-visit.service';

/** The preference feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [PreferenceRepository, PreferenceService, QuickLinkService, RecentVisitService],
  exports: [PreferenceService, QuickLinkService, RecentVisitService],
})
export class PreferenceFeatureModule {}
