export * from './data-source';
export * from './data-dir-lock';
export * from './snake-naming.strategy';
export * from './database.module';
export * from './embedded-backup';
export { initEmbeddedCluster } from './embedded-initdb';
export { MAX_PREPARED_TEXTS } from './preparing-client';
export { pgliteExtensions } from './embedded-settings';
