import { DataSource, EntityManager } from 'typeorm';

/**
 * The background jobs' `statement_timeout` (`DATABASE_JOB_STATEMENT_TIMEOUT_MS`, ms; 0: none), as
 * libs/database puts it in the data source's `extra` (the pool's options, which `pg` ignores); 0
 * when the data source carries none.
 */
export function jobStatementTimeoutMs(ds: DataSource): number {
  const ms = (ds.options as { extra?: { jobStatementTimeoutMs?: unknown } }).extra?.jobStatementTimeoutMs;
  return typeof ms === 'number' && ms >= 0 ? ms : 0;
}

/**
 * Runs `fn` in a transaction under the background jobs' limits instead of a request's
 * (`DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_LOCK_TIMEOUT_MS`): `statement_timeout` is
 * `DATABASE_JOB_STATEMENT_TIMEOUT_MS` and `lock_timeout` is off (the statement timeout bounds lock
 * waits too), both `SET LOCAL`, so the connection has the server's limits again when the
 * transaction ends. For the work no request waits on: an export's batches, the webhook outbox's
 * pruning. One statement more per transaction; on the embedded engine the settings are accepted
 * and have no effect (it cancels nothing).
 */
export function jobTransaction<T>(ds: DataSource, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return ds.transaction(async (em) => {
    await em.query(`SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', '0', true)`, [
      String(jobStatementTimeoutMs(ds)),
    ]);
    return fn(em);
  });
}
