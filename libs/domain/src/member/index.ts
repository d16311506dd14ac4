export { MemberService } from './member.service';
export { ProfileService } from './profile.service';
export type { ProfileInput } from './profile.service';
export { WorkspaceMemberService } from './workspace-member.service';
export { WorkspaceSettingsService } from './workspace-settings.service';
export type { UpdateWorkspaceInput } from './workspace-settings.service';
export { MemberFeatureModule } from './member.module';
export { ProjectInvitationService } from './project-invitation.service';
export type { ProjectInvitationJson, ProjectInviteInput, ProjectJoinJson } from './project-invitation.service';
