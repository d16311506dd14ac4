export * from './data-source';
export * from './data-dir-lock';
export * from './snake-naming.strategy';
export * from './database.module';
export * from './embedded-backup';
export { initEmbeddedCluster } from './embedded-initdb';
