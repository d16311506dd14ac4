export * from './sticky.entity';
export * from './sticky.service';
export * from './sticky.module';
