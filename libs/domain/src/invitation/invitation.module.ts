import { Module } from '@nestjs/common';
import { MailFeatureModule } from '../mail';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { InvitationRepository } from './invitation.repository';
import { WorkspaceInvitationService } from './workspace-invitation.service';

/** The invitation feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [MailFeatureModule, UserFeatureModule, WorkspaceFeatureModule],
  providers: [InvitationRepository, WorkspaceInvitationService],
  exports: [WorkspaceInvitationService],
})
export class InvitationFeatureModule {}
