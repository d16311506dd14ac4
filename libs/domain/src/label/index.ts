export * from './label.entity';
export * from './label.service';
export * from './label.view';
export * from './label.module';
