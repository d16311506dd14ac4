export { AppProjectService } from './app-project.service';
export { ProjectMember } from './project-member.entity';
export { ProjectMemberService } from './project-member.service';
export type { ProjectMemberJson } from './project-member.view';
export { Project } from './project.entity';
export { ProjectService } from './project.service';
export type { CreateProjectInput, ProjectJson, UpdateProjectInput } from './project.service';
export { projectView } from './project.view';
export { ProjectFeatureModule } from './project.module';
