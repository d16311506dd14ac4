export * from './instance-settings.service';
export * from './instance.entity';
export * from './secret-box';
