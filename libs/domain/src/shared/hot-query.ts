import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

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

/** The same inside a transaction (TypeORM's entity manager; the text is fixed, so the plan cache of the server helps). */
export function txQuery(em: EntityManager, text: string, values: unknown[]): Promise<Row[]> {
  return em.query(text, values);
}
