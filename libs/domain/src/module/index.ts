export * from './module.entity';
export * from './module.service';
export * from './module.view';
export * from './module.module';
