import { Module } from '@nestjs/common';
import { IntakeFeatureModule } from '../intake';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { WorkspaceProfileRepository } from './workspace-profile.repository';
import { WorkspaceProfileService } from './workspace-profile.service';

/** A workspace member's profile pages (summary, counts, history): its services. */
@Module({
  imports: [UserFeatureModule, WorkspaceFeatureModule, ProjectFeatureModule, IssueFeatureModule, IntakeFeatureModule],
  providers: [WorkspaceProfileRepository, WorkspaceProfileService],
  exports: [WorkspaceProfileService],
})
export class WorkspaceProfileFeatureModule {}
