export * from './search.service';
export * from './search.module';
