export * from './estimate.entity';
export * from './estimate.service';
export * from './estimate.view';
export * from './estimate.module';
