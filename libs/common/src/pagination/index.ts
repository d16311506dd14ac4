export * from './cursor';
export * from './page';
export * from './keyset-paginator';
export * from './page-query.decorator';
export * from './keyset-sql';
export * from './double-key';
export * from './chunked-reads';
export * from './page-bookmarks';
