import { Module } from '@nestjs/common';
import { MemberRepository } from './member.repository';
import { MemberService } from './member.service';
import { WorkspaceSettingsService } from './workspace-settings.service';
import { WorkspaceMemberService } from './workspace-member.service';
import { ProfileService } from './profile.service';
import { ProjectInvitationService } from './project-invitation.service';
import { ApiTokenFeatureModule } from '../api-token';
import { InvitationFeatureModule } from '../invitation';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';

/** The member feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [
    ApiTokenFeatureModule,
    InvitationFeatureModule,
    ProjectFeatureModule,
    UserFeatureModule,
    WorkspaceFeatureModule,
  ],
  providers: [
    MemberRepository,
    MemberService,
    WorkspaceSettingsService,
    WorkspaceMemberService,
    ProfileService,
    ProjectInvitationService,
  ],
  exports: [MemberService, WorkspaceSettingsService, WorkspaceMemberService, ProfileService, ProjectInvitationService],
})
export class MemberFeatureModule {}
