export * from './module.entity';
export * from './module.service';
export * from './module.view';
