export * from './instance-settings.service';
export * from './instance.entity';
export * from './secret-box';
export * from './instance-config.module';
