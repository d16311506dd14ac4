import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { ModuleFeatureModule } from '../module';
import { PreferenceRepository } from './preference.repository';
import { PreferenceService } from './preference.service';
import { QuickLinkService } from './quick-link.service';
import { RecentVisitService } from './recent-visit.service';
import { WorkspaceThemeService } from './workspace-theme.service';

/** The preference feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [CycleFeatureModule, ModuleFeatureModule],
  providers: [PreferenceRepository, PreferenceService, QuickLinkService, RecentVisitService, WorkspaceThemeService],
  exports: [PreferenceService, QuickLinkService, RecentVisitService, WorkspaceThemeService],
})
export class PreferenceFeatureModule {}
