import { Module } from '@nestjs/common';
import { ProjectService } from './project.service';
import { AppProjectService } from './app-project.service';
import { ProjectMemberService } from './project-member.service';
import { ProjectRepository } from './project.repository';

/** The project feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [ProjectRepository, ProjectService, AppProjectService, ProjectMemberService],
  exports: [ProjectService, AppProjectService, ProjectMemberService],
})
export class ProjectFeatureModule {}
