import 'reflect-metadata';
import { loadConfig, loadDotEnv } from '#common';
import { openDatabase } from '#database';
import { DataSource } from 'typeorm';

/**
 * The one DataSource definition for the TypeORM CLI (`npm run migration:*`), built by the same
 * `openDatabase` the server uses: PostgreSQL with `DATABASE_URL`, else embedded PGlite in
 * `DATA_DIR` (which must not be in use by a running server: the lock refuses it).
 */
loadDotEnv();
export default (async () => new DataSource((await openDatabase(loadConfig())).options))();
