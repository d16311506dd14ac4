// The preference feature's door: what other features, the API modules and the tests use.
export { HOME_WIDGET_KEYS, WorkspaceHomePreference } from './workspace-home-preference.entity';
export { SIDEBAR_KEYS, WorkspaceUserPreference } from './workspace-user-preference.entity';
export { WorkspaceUserLink } from './workspace-user-link.entity';
export { RECENT_VISIT_ENTITIES, UserRecentVisit } from './user-recent-visit.entity';
export type { RecentVisitEntity } from './user-recent-visit.entity';
export { WorkspaceUserProperties } from './workspace-user-properties.entity';
export { IssueUserProperty } from './issue-user-property.entity';
export { CycleUserProperties } from './cycle-user-properties.entity';
export { ModuleUserProperties } from './module-user-properties.entity';
export { PreferenceService } from './preference.service';
export { defaultDisplayFilters, defaultDisplayProperties, defaultFilters } from '../kernel/display-defaults';
export type {
  DisplayPropertiesInput,
  DisplayScope,
  HomePreferenceInput,
  SidebarPreferenceInput,
} from './preference.service';
export { normaliseQuickLinkUrl, QuickLinkService } from './quick-link.service';
export type { QuickLinkInput } from './quick-link.service';
export { RecentVisitService } from './recent-visit.service';
export type { DisplayPropertiesJson, QuickLinkJson, RecentVisitJson } from './preference.view';
export { PreferenceFeatureModule } from './preference.module';
export { WorkspaceThemeService } from './workspace-theme.service';
export type { WorkspaceThemeInput, WorkspaceThemeJson } from './workspace-theme.service';
