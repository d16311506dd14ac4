export * from './workspace-invitation.entity';
export * from './workspace-invitation.service';
export * from './workspace-invitation.view';
export * from './invitation.module';
