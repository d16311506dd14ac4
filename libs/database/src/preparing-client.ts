import { PLANNED_EACH_TIME, StatementNames } from '#common';
import pg from 'pg';

/**
 * How many distinct SQL texts a `PreparingClient` runs as named (prepared) statements, per process.
 * Each stays prepared for the life of its connection (in `pg`'s client and in the database session:
 * on the embedded engine, in WebAssembly memory that never shrinks), so past this bound a new text
 * runs unnamed as before: parsed and planned each time. TypeORM's texts are few (its query builder
 * writes the same text for the same query), but an `IN (…)` list makes one per length.
 */
export const MAX_PREPARED_TEXTS = 500;
const names = new StatementNames('p_', MAX_PREPARED_TEXTS);
/** How a text that must be planned each time starts (`PLANNED_EACH_TIME`, as TypeORM writes a query builder's comment). */
const UNPREPARED = `/* ${PLANNED_EACH_TIME} */`;

/**
 * The embedded engine's `pg` client (the pool's `Client` option): a statement sent as text with
 * parameters (`query(text, values)`: TypeORM's repositories, query builders and `query()` calls) runs
 * as a named statement, so PGlite parses and plans it once per connection instead of on every call.
 * In WebAssembly planning costs several times what executing costs: a typical lookup by key took
 * 1.2–1.7 ms unnamed and 0.2–0.5 ms named (BENCHMARKS.md "Round 6"). Statements with parameters are
 * already sent with the extended protocol (one statement each), so naming them changes only what
 * the session keeps; texts without parameters (transaction control, migrations' DDL, several
 * statements at once) go as before, and so do query objects (`hotQuery` names its own) and texts
 * that start with the comment `PLANNED_EACH_TIME` (their plan depends on their values).
 *
 * The embedded worker discards each connection's session state when the connection closes
 * (`DISCARD ALL`), so a new connection never meets the names of an old one. A schema change that
 * alters what a prepared statement returns fails it until its connection is replaced, as on any
 * PostgreSQL; migrations run before the server's statements.
 */
export class PreparingClient extends pg.Client {
  // pg's `query` has many overloads; this one only turns (text, values[, callback]) into a named query config
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && !config.startsWith(UNPREPARED)) {
      const name = names.of(config);
      if (name) return super.query({ name, text: config, values }, callback);
    }
    if (typeof config === 'string' && FORGETS_PREPARED.test(config)) {
      // the session drops its prepared statements: so does `pg`'s record of them, once it has
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const result: any = super.query(config, values, callback);
      if (result && typeof result.then === 'function') return result.then((r: unknown) => (this.forget(), r));
      this.forget();
      return result;
    }
    return super.query(config, values, callback);
  }

  /** `pg`'s record of the statements this connection has prepared (`Connection#parsedStatements`), emptied. */
  private forget(): void {
    (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements = {};
  }
}

/** Statements after which the session has no prepared statement left. */
const FORGETS_PREPARED = /^\s*(DISCARD\s+ALL|DEALLOCATE\s+(PREPARE\s+)?ALL)\s*;?\s*$/i;
