import 'reflect-metadata';
import { loadConfig, loadDotEnv } from '#common';
import { openDatabase, withJobLimits } from '#database';
import { DataSource } from 'typeorm';

/**
 * The one DataSource definition for the TypeORM CLI (`npm run migration:*`), built by the same
 * `openDatabase` the server uses: PostgreSQL with `DATABASE_URL`, else embedded PGlite in
 * `DATA_DIR` (which must not be in use by a running server: the lock refuses it). Its connections
 * run under the jobs' limits (`withJobLimits`: `DATABASE_JOB_STATEMENT_TIMEOUT_MS`, no
 * `lock_timeout`), as the ops CLI's do: a migration's backfill at a million rows outlasts a request's
 * 30 s.
 */
loadDotEnv();
export default (async () => new DataSource((await openDatabase(withJobLimits(loadConfig()))).options))();
