export * from './member.service';
export * from './profile.service';
export * from './workspace-member.service';
export * from './workspace-settings.service';
export * from './member.module';
