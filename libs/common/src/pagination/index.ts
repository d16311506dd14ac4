export * from './cursor';
export * from './page';
export * from './keyset-paginator';
export * from './page-query.decorator';
export * from './page-envelope.interceptor';
export * from './keyset-sql';
