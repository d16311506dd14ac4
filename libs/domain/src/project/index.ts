export * from './app-project.service';
export * from './project-member.entity';
export * from './project-member.service';
export * from './project.entity';
export * from './project.service';
export * from './project.view';
export * from './project.module';
