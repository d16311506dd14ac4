import { createHash } from 'node:crypto';
import { Socket } from 'node:net';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * How many distinct SQL texts run as named (prepared) statements. Most texts are fixed (the rooms'
 * `*.sql.ts`), but a list's text depends on which filters it has (`visiblePage`), and a client
 * chooses those. A named statement stays prepared for the life of each connection, in pg's client
 * (`parsedStatements`) and in the database session (on the embedded engine, in this process's
 * WebAssembly memory, which never shrinks), so past this bound a new text runs unnamed: parsed and
 * planned each time, kept nowhere.
 */
export const MAX_NAMED_STATEMENTS = 500;
const names = new Map<string, string>();

/** A stable statement name per SQL text (pg prepares a named statement once per connection); none past the bound. */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED_STATEMENTS)
    names.set(text, (name = `m_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

/**
 * Runs one fixed statement (the rooms' `*.sql.ts` texts) outside any transaction, straight on the driver's
 * pool as a named statement: parsed and planned once per connection, no query builder, no
 * TypeORM query runner. Both engines go through `pg` (PGlite through its node-postgres adapter).
 */
export async function hotQuery(ds: DataSource, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (ds.driver as unknown as { master?: PgQueryable }).master;
  if (!pool || typeof pool.query !== 'function') return ds.query(text, values);
  return (await pool.query({ name: statementName(text), text, values })).rows;
}

/** The transaction's `pg` client, when `em` is in an active transaction on a connected query runner. */
function txClient(em: EntityManager): PgQueryable | undefined {
  const qr = em.queryRunner as (QueryRunner & { databaseConnection?: PgQueryable }) | undefined;
  const client = qr?.isTransactionActive && !qr.isReleased ? qr.databaseConnection : undefined;
  return client && typeof client.query === 'function' ? client : undefined;
}

/**
 * Runs one fixed statement inside `em`'s transaction as a named statement on the transaction's
 * own connection (TypeORM's query runner holds the `pg` client as `databaseConnection` once
 * connected; on the embedded engine that is a `pg` client over PGlite's node-postgres adapter,
 * which supports named statements too). No TypeORM logging or query events, which these fixed
 * texts do not need. A driver error is rethrown as TypeORM's `QueryFailedError`, as `em.query`
 * does (so `isUniqueViolation` keeps working). With a manager that has no query runner (the data
 * source's own, outside any transaction) it runs as `hotQuery`; with a query runner not in a
 * transaction, or a connection that has no `query`, it falls back to `em.query`.
 */
export async function hotTxQuery(em: EntityManager, text: string, values: unknown[]): Promise<Row[]> {
  const client = txClient(em);
  if (!client) return em.queryRunner ? em.query(text, values) : hotQuery(em.connection, text, values);
  try {
    return (await client.query({ name: statementName(text), text, values })).rows;
  } catch (err) {
    throw new QueryFailedError(text, values, err as Error);
  }
}

/** A `pg` client (8.2x) with its pipeline switch, and the socket it talks over. */
interface PipelinedClient extends PgQueryable {
  pipeline?: boolean;
  connection?: { stream?: unknown };
}

/** A `pg` pool client, as the driver's pool hands it out. */
interface PooledClient extends PipelinedClient {
  release(destroy?: boolean | Error): void;
}

/**
 * Runs fixed statements as one transaction of their own on a connection taken from the driver's
 * pool, without TypeORM (no query runner, no transaction events: the caller knows that nothing
 * listens for these writes), and answers their rows. Over a socket to PostgreSQL, BEGIN, the
 * statements and COMMIT are written at once in `pg`'s pipeline mode (see `hotTxPipeline`): one
 * round trip. Otherwise (the embedded engine) they run one after the other.
 *
 * Errors: the first failing statement's, as `QueryFailedError`; nothing of the transaction is kept
 * (in a pipeline PostgreSQL answers the COMMIT with ROLLBACK). A connection that failed for any
 * other reason is not given back to the pool.
 */
export async function hotTransaction(
  ds: DataSource,
  statements: Array<[text: string, values: unknown[]]>,
): Promise<Row[][]> {
  const pool = (ds.driver as unknown as { master?: { connect(): Promise<PooledClient> } }).master;
  if (!pool || typeof pool.connect !== 'function') throw new Error('hotTransaction needs the pg driver pool');
  const client = await pool.connect();
  let broken: unknown;
  try {
    if (client.pipeline === false && client.connection?.stream instanceof Socket) {
      const rows = await runPipeline(client, [['BEGIN', null], ...statements, ['COMMIT', null]]);
      return rows.slice(1, -1);
    }
    const run = async (text: string, values: unknown[] | null): Promise<Row[]> => {
      try {
        return (await client.query(values ? { name: statementName(text), text, values } : { text, values: [] })).rows;
      } catch (err) {
        throw new QueryFailedError(text, values ?? [], err as Error);
      }
    };
    await run('BEGIN', null);
    const out: Row[][] = [];
    try {
      for (const [text, values] of statements) out.push(await run(text, values));
    } catch (err) {
      await run('ROLLBACK', null);
      throw err;
    }
    await run('COMMIT', null);
    return out;
  } catch (err) {
    // an error PostgreSQL answered (it has an SQLSTATE) leaves the connection idle; anything else (a lost socket) may not
    const code =
      err instanceof QueryFailedError ? (err.driverError as { code?: unknown } | undefined)?.code : undefined;
    if (typeof code !== 'string') broken = err;
    throw err;
  } finally {
    client.release(broken instanceof Error ? broken : broken !== undefined);
  }
}

/**
 * Runs fixed statements in order inside `em`'s transaction, as `hotTxQuery` does, and answers
 * their rows. Over a socket to PostgreSQL they are written at once in `pg`'s pipeline mode (each
 * with its own Sync, so the server still runs them one after the other, each statement starting
 * when the previous one is done): the server goes from one to the next without waiting for this
 * process. That is what a short lock hold needs: after a statement that takes a lock, the next
 * one does not wait for the event loop to read the answer and send it. The first failure is thrown
 * (as `QueryFailedError`) once all have answered; in a transaction the later ones then fail too.
 *
 * On the embedded engine (no socket: PGlite's adapter stream) and with a `pg` without pipeline
 * mode, they run one after the other with `hotTxQuery`.
 */
export async function hotTxPipeline(
  em: EntityManager,
  statements: Array<[text: string, values: unknown[]]>,
): Promise<Row[][]> {
  const client = pipelinable(em);
  if (!client) {
    const out: Row[][] = [];
    for (const [text, values] of statements) out.push(await hotTxQuery(em, text, values));
    return out;
  }
  return runPipeline(client, statements);
}

/** The transaction's client when it can pipeline: `pg` with pipeline mode, not in it, over a socket. */
function pipelinable(em: EntityManager): PipelinedClient | undefined {
  const client = txClient(em) as PipelinedClient | undefined;
  return client && client.pipeline === false && client.connection?.stream instanceof Socket ? client : undefined;
}

/** Writes `statements` at once (named; `null` values: a plain text statement such as COMMIT) and reads all answers. */
async function runPipeline(
  client: PipelinedClient,
  statements: Array<[text: string, values: unknown[] | null]>,
): Promise<Row[][]> {
  client.pipeline = true;
  let settled: Array<PromiseSettledResult<{ rows: Row[] }>>;
  try {
    settled = await Promise.allSettled(
      statements.map(([text, values]) =>
        values ? client.query({ name: statementName(text), text, values }) : client.query({ text, values: [] }),
      ),
    );
  } finally {
    // every answer has been read: the client is idle again, and leaves pipeline mode for TypeORM's next query
    client.pipeline = false;
  }
  const failed = settled.findIndex((r) => r.status === 'rejected');
  if (failed >= 0) {
    const [text, values] = statements[failed];
    throw new QueryFailedError(text, values ?? [], (settled[failed] as PromiseRejectedResult).reason as Error);
  }
  return settled.map((r) => (r as PromiseFulfilledResult<{ rows: Row[] }>).value.rows);
}
