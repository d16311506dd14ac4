import { Module } from '@nestjs/common';
import { WorkspaceProfileRepository } from './workspace-profile.repository';
import { WorkspaceProfileService } from './workspace-profile.service';

/** A workspace member's profile pages (summary, counts, history): its services. */
@Module({
  providers: [WorkspaceProfileRepository, WorkspaceProfileService],
  exports: [WorkspaceProfileService],
})
export class WorkspaceProfileFeatureModule {}
