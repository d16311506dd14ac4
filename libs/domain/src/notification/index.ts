export * from './notification-writer';
export * from './notification.entity';
export * from './notification.service';
export * from './notification.listener';
export * from './notification.module';
