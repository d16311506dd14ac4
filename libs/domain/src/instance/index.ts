export * from './instance-admin.service';
export * from './instance-setup';
export * from './instance.service';
export * from './instance.view';
export * from './instance.module';
