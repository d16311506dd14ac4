export * from './sticky.entity';
export * from './sticky.service';
