export * from './slug-rules';
export * from './workspace-member.entity';
export * from './workspace-member.view';
export * from './workspace.entity';
export * from './workspace.service';
export * from './workspace.view';
export * from './workspace-membership';
export * from './workspace.module';
