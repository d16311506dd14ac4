export { WorkspaceInvitation } from './workspace-invitation.entity';
export { joinAcceptedInvitations, WorkspaceInvitationService } from './workspace-invitation.service';
export type { InviteInput } from './workspace-invitation.service';
export type { InvitationJson } from './workspace-invitation.view';
export { InvitationFeatureModule } from './invitation.module';
