// The profile pages' door: what the API modules and the tests use.
export { WorkspaceProfileService } from './workspace-profile.service';
export type { ProfileStatsJson, ProfileUserJson } from './workspace-profile.service';
export type { ProfileProjectRow } from './workspace-profile.repository';
export { WorkspaceProfileFeatureModule } from './workspace-profile.module';
