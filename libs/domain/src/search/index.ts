export * from './search.service';
