import { Module } from '@nestjs/common';
import { MemberRepository } from './member.repository';
import { MemberService } from './member.service';
import { WorkspaceSettingsService } from './workspace-settings.service';
import { WorkspaceMemberService } from './workspace-member.service';
import { ProfileService } from './profile.service';

/** The member feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [MemberRepository, MemberService, WorkspaceSettingsService, WorkspaceMemberService, ProfileService],
  exports: [MemberService, WorkspaceSettingsService, WorkspaceMemberService, ProfileService],
})
export class MemberFeatureModule {}
