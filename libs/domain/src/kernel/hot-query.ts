import { PLANNED_EACH_TIME, StatementNames } from '#common';
import { performance } from 'node:perf_hooks';
import { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { types as pgTypes } from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** How `pg` turns a column's text into a value: its `types` option, per statement. */
export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (text: string) => unknown;
}

interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[]; types?: TypeParsers }): Promise<{ rows: Row[] }>;
}

/** `pg`'s own parser of a type (`oid`), for its text format. */
function pgParser(oid: number): (text: string) => unknown {
  return pgTypes.getTypeParser(oid as Parameters<typeof pgTypes.getTypeParser>[0], 'text') as (text: string) => unknown;
}

/** `pg`'s parsers but the text format of type `oid`, which `parser` reads instead. */
function pgParsersBut(oid: number, parser: (text: string) => unknown): TypeParsers {
  return {
    getTypeParser: (o, format = 'text') =>
      o === oid && format === 'text'
        ? parser
        : (pgTypes.getTypeParser(o, format as 'text') as (text: string) => unknown),
  };
}

/** PostgreSQL's `timestamptz` type. */
const TIMESTAMPTZ_OID = 1184;
/** `timestamptz` as PostgreSQL writes it in a UTC session: `2026-11-27 04:47:00.123456+00` (0 to 6 fraction digits). */
const UTC_TIMESTAMPTZ = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
const parseTimestamptz = pgParser(TIMESTAMPTZ_OID);

/**
 * A `timestamptz` column's text as `Date#toISOString` would write the `Date` that `pg` parses from
 * it (`2026-11-27T04:47:00.123Z`: UTC, milliseconds, the further digits cut off as `Date` cuts
 * them), without the `Date`: a page of 100 work items has 400 of them, parsed and written back each
 * time (BENCHMARKS.md "Round 5"). Text of any other form (another session time zone, BC, infinity,
 * a year past 9999) is parsed by `pg`'s own parser (a `Date`, which `iso` writes as before).
 */
export function isoTimestamptz(text: string): string | unknown {
  if (!UTC_TIMESTAMPTZ.test(text)) return parseTimestamptz(text);
  // three fraction digits or more (the common case): the time through the milliseconds is one
  // slice of the text. Joined, not added: `+` would leave a tree of four strings per time (V8's
  // cons strings, about 160 bytes) alive in every row until the page is written, a joined
  // string is one of 40 (a page holds 400 times)
  if (text.length >= 26) return [text.slice(0, 10), 'T', text.slice(11, 23), 'Z'].join('');
  const ms = text.length === 22 ? '000' : `${text.slice(20, -3)}00`.slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

/**
 * `pg`'s parsers but `timestamptz`, read as ISO 8601 text (`isoTimestamptz`): for the hot statements
 * whose rows are only written out (`iso` passes text through; `Time`).
 */
export const ISO_TIMES = pgParsersBut(TIMESTAMPTZ_OID, isoTimestamptz);

/** PostgreSQL's `uuid[]` type. */
const UUID_ARRAY_OID = 2951;
/** A one-dimensional `uuid[]` without NULL elements, as PostgreSQL writes it: `{}` or `{a0ee…,b1…}` (never quoted). */
const FLAT_UUID_ARRAY = /^\{[0-9a-f,-]*\}$/;
const parseUuidArray = pgParser(UUID_ARRAY_OID);

/**
 * A `uuid[]` column's text as the array of strings `pg`'s parser returns, split instead of scanned
 * character by character: uuids are never quoted or escaped. A page of the App API's list reads
 * three per work item (assignee, label and module ids), most of them empty. Anything else (NULL
 * elements, more dimensions) goes to `pg`'s own parser.
 */
export function uuidArray(text: string): unknown {
  if (text === '{}') return [];
  return FLAT_UUID_ARRAY.test(text) ? text.slice(1, -1).split(',') : parseUuidArray(text);
}

/**
 * Ids of rows (uuids as PostgreSQL writes them: hex digits and dashes) as one `uuid[]` literal,
 * `{a0ee…,b1…}`: what `pg` would send for the array, without quoting and escaping each element (a
 * page's statements bind 100 of them).
 */
export function uuidArrayLiteral(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}

/** `pg`'s parsers but `uuid[]`, split (`uuidArray`): for the App API's values of a page (`SQL_APP_VALUES`). */
export const UUID_ARRAYS = pgParsersBut(UUID_ARRAY_OID, uuidArray);

/** `ISO_TIMES` and `UUID_ARRAYS` together: for a page's rows read with their App API values. */
export const ISO_TIMES_UUID_ARRAYS: TypeParsers = {
  getTypeParser: (oid, format = 'text') =>
    format !== 'text'
      ? (pgTypes.getTypeParser(oid, format as 'text') as (text: string) => unknown)
      : oid === TIMESTAMPTZ_OID
        ? isoTimestamptz
        : oid === UUID_ARRAY_OID
          ? uuidArray
          : (pgTypes.getTypeParser(oid, 'text') as (text: string) => unknown),
};

/**
 * How many distinct SQL texts run as named (prepared) statements. Most texts are fixed (the rooms'
 * `*.sql.ts`), but a list's text depends on which filters it has (`visiblePage`), and a client
 * chooses those. A named statement stays prepared for the life of each connection, in pg's client
 * (`parsedStatements`) and in the database session (on the embedded engine, in this process's
 * WebAssembly memory, which never shrinks), so past this bound a new text runs unnamed: parsed and
 * planned each time, kept nowhere.
 */
export const MAX_NAMED_STATEMENTS = 500;
/** A stable statement name per SQL text (pg prepares a named statement once per connection); none past the bound. */
const statementNames = new StatementNames('m_', MAX_NAMED_STATEMENTS);
/** How a text that must be planned each time starts (`PLANNED_EACH_TIME`): it runs unnamed. */
const UNPREPARED = `/* ${PLANNED_EACH_TIME} */`;

/**
 * Runs one fixed statement (the rooms' `*.sql.ts` texts) outside any transaction, straight on the driver's
 * pool as a named statement: parsed and planned once per connection, no query builder, no
 * TypeORM query runner (a text that starts with the comment `PLANNED_EACH_TIME` runs unnamed:
 * planned each time). Both engines go through `pg` (PGlite through its node-postgres adapter).
 * `types`: the columns' parsers (`ISO_TIMES`), else `pg`'s.
 */
export async function hotQuery(ds: DataSource, text: string, values: unknown[], types?: TypeParsers): Promise<Row[]> {
  const pool = (ds.driver as unknown as { master?: PgQueryable }).master;
  if (!pool || typeof pool.query !== 'function') return ds.query(text, values);
  return (await pool.query(statement(text, values, types))).rows;
}

/** A named statement's `pg` query config, with `types` when given. */
function statement(text: string, values: unknown[], types?: TypeParsers) {
  const name = text.startsWith(UNPREPARED) ? undefined : statementNames.of(text);
  return types ? { name, text, values, types } : { name, text, values };
}

/** A waiting acquisition in `pg-pool`'s queue (its `_pendingQueue`), as `connectFirst` marks it. */
interface PendingAcquisition {
  /** `performance.now()` when it was queued */
  queuedAt?: number;
  /** queued by `connectFirst` */
  first?: boolean;
}

interface QueueingPool {
  connect(): Promise<PooledClient>;
  _pendingQueue?: PendingAcquisition[];
}

/**
 * How long an acquisition may wait before a short read (`hotRead`) no longer passes it (ms): short
 * reads go first, but a list's statement is not pushed back indefinitely.
 */
export const SHORT_READ_MAX_PASS_MS = 250;

const stamped = new WeakSet<PendingAcquisition[]>();

/** Stamps every acquisition the pool queues with the time it was queued (once per pool). */
function stampQueue(queue: PendingAcquisition[]): void {
  if (stamped.has(queue)) return;
  stamped.add(queue);
  const push = queue.push;
  queue.push = function (this: PendingAcquisition[], ...items: PendingAcquisition[]) {
    const now = performance.now();
    for (const item of items) item.queuedAt ??= now;
    return push.apply(this, items);
  };
}

/**
 * A connection from the pool for a short read: when every connection is busy (always the case
 * under load on the embedded engine, whose pool has one), its place in the queue is ahead of
 * the acquisitions queued for other statements, behind earlier short reads and behind any
 * acquisition that has already waited `SHORT_READ_MAX_PASS_MS`. Reorders `pg-pool`'s pending queue
 * (`_pendingQueue`, an array it shifts from the front); with a pool without one it is `connect()`.
 */
async function connectFirst(pool: QueueingPool): Promise<PooledClient> {
  const queue = pool._pendingQueue;
  if (!Array.isArray(queue)) return pool.connect();
  stampQueue(queue);
  const before = queue.length;
  const acquired = pool.connect();
  if (queue.length === before + 1) {
    const item = queue.pop()!;
    item.first = true;
    const oldest = performance.now() - SHORT_READ_MAX_PASS_MS;
    let at = 0;
    while (at < queue.length && (queue[at].first || (queue[at].queuedAt ?? 0) <= oldest)) at++;
    queue.splice(at, 0, item);
  }
  return acquired;
}

/**
 * `hotQuery` for a short read: one row (or a few) by key, such as a work item by id or a
 * credential's lookup. The short reads waiting at the same time share one acquisition
 * (`ShortReads`), which goes ahead of the acquisitions queued for other statements
 * (`connectFirst`): a single read does not wait for every list page asked before it, nor for a
 * turn of its own behind the other single reads. The answer is the same as `hotQuery`'s. With
 * `DATABASE_SHORT_READS_FIRST=false` it is `hotQuery`. `types` as for `hotQuery`.
 */
export async function hotRead(ds: DataSource, text: string, values: unknown[], types?: TypeParsers): Promise<Row[]> {
  const pool = (ds.driver as unknown as { master?: QueueingPool }).master;
  if (!pool || typeof pool.connect !== 'function') return ds.query(text, values);
  // `DATABASE_SHORT_READS_FIRST=false` (libs/database puts it in the pool's options): in turn
  const first = (ds.options as { extra?: { shortReadsFirst?: boolean } }).extra?.shortReadsFirst !== false;
  if (!first) return hotQuery(ds, text, values, types);
  let reads = shortReads.get(pool);
  if (!reads) shortReads.set(pool, (reads = new ShortReads(pool)));
  return reads.run(text, values, types);
}

interface ShortRead {
  text: string;
  values: unknown[];
  types?: TypeParsers;
  resolve(rows: Row[]): void;
  reject(err: unknown): void;
}

const shortReads = new WeakMap<QueueingPool, ShortReads>();

/**
 * The short reads of one pool: those that arrive while one acquisition is waiting join it, and
 * run together once it has the connection, in `pg`'s pipeline mode over a stream (a socket to
 * PostgreSQL, or the embedded engine's worker thread: one round trip for all of them, each with
 * its own Sync, so one failing does not fail the others), else one after the other. A read that
 * arrives after the connection was taken waits for the next acquisition.
 */
class ShortReads {
  private waiting: ShortRead[] = [];

  constructor(private readonly pool: QueueingPool) {}

  run(text: string, values: unknown[], types: TypeParsers | undefined): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ text, values, types, resolve, reject });
      if (this.waiting.length === 1) void this.acquire();
    });
  }

  private async acquire(): Promise<void> {
    let client: PooledClient;
    try {
      client = await connectFirst(this.pool);
    } catch (err) {
      for (const read of this.waiting.splice(0)) read.reject(err);
      return;
    }
    await settleOn(client, this.waiting.splice(0));
  }
}

/**
 * Runs `batch` on `client` (pipelined when there are several and the client has a stream, else one
 * after the other), settles each read with its rows or its error, and gives the connection back:
 * as `pool.query` does, a connection that failed without an SQLSTATE is released as broken.
 */
async function settleOn(client: PooledClient, batch: ShortRead[]): Promise<void> {
  let broken: unknown;
  try {
    const settled =
      batch.length > 1 && canPipeline(client)
        ? await pipelined(
            client,
            batch.map((r) => [r.text, r.values, r.types]),
          )
        : await inTurn(client, batch);
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') batch[i].resolve(result.value.rows);
      else {
        if (typeof (result.reason as { code?: unknown })?.code !== 'string') broken ??= result.reason;
        batch[i].reject(result.reason);
      }
    });
  } finally {
    client.release(broken instanceof Error ? broken : broken !== undefined);
  }
}

async function inTurn(client: PooledClient, batch: ShortRead[]): Promise<Array<PromiseSettledResult<{ rows: Row[] }>>> {
  const out: Array<PromiseSettledResult<{ rows: Row[] }>> = [];
  for (const r of batch) {
    try {
      out.push({
        status: 'fulfilled',
        value: await client.query(statement(r.text, r.values, r.types)),
      });
    } catch (reason) {
      out.push({ status: 'rejected', reason });
    }
  }
  return out;
}

/** Writes the statements at once in pipeline mode and answers each one's outcome. */
async function pipelined(
  client: PipelinedClient,
  statements: Array<[text: string, values: unknown[] | null, types?: TypeParsers]>,
): Promise<Array<PromiseSettledResult<{ rows: Row[] }>>> {
  client.pipeline = true;
  // one write for all of them: `pg` corks and uncorks the stream per statement, inside this cork
  const stream = client.connection?.stream as { cork?(): void; uncork?(): void } | undefined;
  stream?.cork?.();
  try {
    let answers: Array<Promise<{ rows: Row[] }>>;
    try {
      answers = statements.map(([text, values, types]) =>
        values ? client.query(statement(text, values, types)) : client.query({ text, values: [] }),
      );
    } finally {
      stream?.uncork?.();
    }
    return await Promise.allSettled(answers);
  } finally {
    // every answer has been read: the client is idle again, and leaves pipeline mode
    client.pipeline = false;
  }
}

/**
 * Whether `client` can pipeline: `pg` with pipeline mode, not in it, over a stream (a socket to
 * PostgreSQL or the embedded engine's `WorkerSocket`; PGlite's in-process adapter has none).
 */
function canPipeline(client: PipelinedClient): boolean {
  return client.pipeline === false && client.connection?.stream instanceof Duplex;
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
    return (await client.query(statement(text, values))).rows;
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
        return (await client.query(values ? statement(text, values) : { text, values: [] })).rows;
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
      statements.map(([text, values]) => client.query(values ? statement(text, values) : { text, values: [] })),
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

/**
 * The independent reads of one request, sent together: every `query` made in the same turn of the
 * event loop (before the first one's microtask runs: the calls of one `Promise.all`) shares one
 * connection from the pool, in its turn (not ahead, unlike `hotRead`), and over a stream (a
 * socket to PostgreSQL, the embedded engine's worker) they are written at once in `pg`'s pipeline
 * mode: one round trip, each statement with its own Sync (one failing does not fail the others; the
 * server runs them one after the other). Without a stream they run one after the other on that
 * connection. A query made after the batch left starts the next one. Texts are named statements
 * (prepared once per connection) unless they start with the `PLANNED_EACH_TIME` comment; rows as
 * `hotQuery` answers them (the driver's parsers). Per request, not per pool: the statements of
 * concurrent requests still spread over the pool's connections.
 *
 * The search room makes one per request and passes it to the rooms whose statements it gathers
 * (workspaces, projects, cycles, modules, work items, pages); each room's repository sends its own
 * statement through it (`query(ds, …)`), so the SQL stays in its room.
 */
export class ReadBatch {
  private queued: ShortRead[] = [];
  private ds: DataSource | undefined;

  /**
   * `text` with `$n` placeholders and its `values` (as `SelectQueryBuilder#getQueryAndParameters`
   * gives them); `types`: the columns' parsers, as for `hotQuery`.
   */
  query(ds: DataSource, text: string, values: unknown[], types?: TypeParsers): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      this.ds ??= ds;
      this.queued.push({ text, values, types, resolve, reject });
      if (this.queued.length === 1) queueMicrotask(() => void this.send());
    });
  }

  private async send(): Promise<void> {
    const batch = this.queued.splice(0);
    const ds = this.ds!;
    const pool = (ds.driver as unknown as { master?: QueueingPool }).master;
    if (!pool || typeof pool.connect !== 'function') {
      for (const r of batch) ds.query(r.text, r.values).then(r.resolve, r.reject);
      return;
    }
    let client: PooledClient;
    try {
      client = await pool.connect();
    } catch (err) {
      for (const r of batch) r.reject(err);
      return;
    }
    await settleOn(client, batch);
  }
}

/**
 * One read of a repository's fixed text: in `batch` when given (see `ReadBatch`), else as `hotQuery`
 * (named, on the pool). For the statements a search gathers from several rooms.
 */
export function readIn(batch: ReadBatch | undefined, ds: DataSource, text: string, values: unknown[]): Promise<Row[]> {
  return batch ? batch.query(ds, text, values) : hotQuery(ds, text, values);
}
