import { createHash } from 'node:crypto';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

const names = new Map<string, string>();

/** A stable statement name per SQL text (pg prepares a named statement once per connection). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `m_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

/**
 * Runs one fixed statement (see `hot-sql.ts`) outside any transaction, straight on the driver's
 * pool as a named statement: parsed and planned once per connection, no query builder, no
 * TypeORM query runner. Both engines go through `pg` (PGlite through its node-postgres adapter).
 */
export async function hotQuery(ds: DataSource, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (ds.driver as unknown as { master?: PgQueryable }).master;
  if (!pool || typeof pool.query !== 'function') return ds.query(text, values);
  return (await pool.query({ name: statementName(text), text, values })).rows;
}

/**
 * Runs one fixed statement inside `em`'s transaction as a named statement on the transaction's
 * own connection (TypeORM's query runner holds the `pg` client as `databaseConnection` once
 * connected; on the embedded engine that is a `pg` client over PGlite's node-postgres adapter,
 * which supports named statements too). No TypeORM logging or query events, which these fixed
 * texts do not need. A driver error is rethrown as TypeORM's `QueryFailedError`, as `em.query`
 * does (so `isUniqueViolation` keeps working). Without an active transaction, or with a
 * connection that has no `query`, it falls back to `em.query`.
 */
export async function hotTxQuery(em: EntityManager, text: string, values: unknown[]): Promise<Row[]> {
  const qr = em.queryRunner as (QueryRunner & { databaseConnection?: PgQueryable }) | undefined;
  const client = qr?.isTransactionActive && !qr.isReleased ? qr.databaseConnection : undefined;
  if (!client || typeof client.query !== 'function') return em.query(text, values);
  try {
    return (await client.query({ name: statementName(text), text, values })).rows;
  } catch (err) {
    throw new QueryFailedError(text, values, err as Error);
  }
}
