export * from './cycle.entity';
export * from './cycle.service';
export * from './cycle.view';
export * from './planning';
export * from './zoned-date';
export * from './cycle.module';
