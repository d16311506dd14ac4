import { Module } from '@nestjs/common';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { ProjectService } from './project.service';
import { AppProjectService } from './app-project.service';
import { ProjectMemberService } from './project-member.service';
import { ProjectRepository } from './project.repository';

/** The project feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [UserFeatureModule, WorkspaceFeatureModule, StateFeatureModule],
  providers: [ProjectRepository, ProjectService, AppProjectService, ProjectMemberService],
  exports: [ProjectService, AppProjectService, ProjectMemberService],
})
export class ProjectFeatureModule {}
