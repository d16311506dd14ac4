import type { AppConfig } from '#common';
import {
  OpenedDatabase,
  openDatabase,
  pendingMigrations,
  ReadyDatabase,
  runMigrationsLocked,
  startDatabase,
} from '#database';
import type { DataSource } from 'typeorm';

/** a data source or a transaction's entity manager */
interface Sql {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(text: string, params?: unknown[]): Promise<any>;
}

/**
 * One open embedded database per test process (a lane of `scripts/test.js` runs many files in one
 * process), reused by the test apps one after the other instead of a copy of the template's data
 * directory and a new PGlite for each (about 0.6 CPU-s an app: the copy, `PGlite.create`, and the
 * shut-down checkpoint). docs/decisions.md "Test runs".
 *
 * The first app of the process gets the engine on a fresh copy of the template, and its state is
 * recorded (`Pristine`). Every later app gets it reset to that state (`reset`): the tables that
 * hold rows emptied (`DELETE` with the foreign keys' triggers off, `TRUNCATE … CASCADE` once a table
 * has grown: `TRUNCATE_FROM_PAGES`), the template's own rows (the migrations table) put back
 * if they changed, the sequences set back, the session discarded; then the whole state is checked
 * against the record, and a difference fails the app's start (a reset that missed something must
 * not let rows leak silently into the next test).
 *
 * Only one app at a time holds it: an app started while it is held, or with database settings of
 * its own (`DATA_DIR`, `DATABASE_*`, `EMBEDDED_*`, `MIGRATIONS_RUN`: anything in
 * `config.database` but the directory), gets a copy of its own as before (`acquire` returns null).
 */

/** What the template's database holds, as the first app found it. */
interface Pristine {
  /** every table of the non-system schemas, quoted (`"public"."users"`) */
  tables: string[];
  /** the tables that hold rows in the template: a digest of their rows, and the rows (JSON) */
  seeded: Map<string, { digest: string; rows: string }>;
  /** every sequence, quoted: `last_value/is_called` */
  sequences: Map<string, string>;
  /** counts of the catalog's objects (relations, functions, types, triggers, …): DDL shows here */
  catalog: string;
}

interface Lane {
  /** `config.database` of the apps that may share it, less `dataDir` (JSON) */
  settings: string;
  dataDir: string;
  /** removes the directory */
  drop(): void;
  opened: OpenedDatabase;
  pristine: Pristine | null;
  busy: boolean;
  /** the data source of the app that holds it */
  holder: DataSource | null;
  /** resets so far (for the test that checks them) */
  resets: number;
}

let lane: Lane | null = null;
let opening = false;

const settingsOf = (config: AppConfig) => JSON.stringify({ ...config.database, dataDir: undefined });

/** a quoted, schema-qualified name, for statements built from the catalog */
const quoted = (schema: string, name: string) => `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;

async function tablesAndSequences(ds: Sql): Promise<{ tables: string[]; sequences: string[] }> {
  const rows: { schema: string; name: string; kind: string }[] = await ds.query(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'S') AND c.relpersistence <> 't'
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY 1, 2`,
  );
  return {
    tables: rows.filter((r) => r.kind !== 'S').map((r) => quoted(r.schema, r.name)),
    sequences: rows.filter((r) => r.kind === 'S').map((r) => quoted(r.schema, r.name)),
  };
}

/** the tables of `tables` that hold at least one row */
async function nonEmpty(ds: Sql, tables: string[]): Promise<string[]> {
  if (!tables.length) return [];
  const [row]: Record<string, boolean>[] = await ds.query(
    `SELECT ${tables.map((t, i) => `EXISTS (SELECT 1 FROM ${t}) AS t${i}`).join(', ')}`,
  );
  return tables.filter((_, i) => row[`t${i}`]);
}

async function digests(ds: Sql, tables: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!tables.length) return out;
  const [row]: Record<string, string>[] = await ds.query(
    `SELECT ${tables
      .map((t, i) => `(SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) FROM ${t} x) AS t${i}`)
      .join(', ')}`,
  );
  tables.forEach((t, i) => out.set(t, row[`t${i}`]));
  return out;
}

async function sequenceStates(ds: Sql, sequences: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!sequences.length) return out;
  const rows: { i: number; state: string }[] = await ds.query(
    sequences.map((s, i) => `SELECT ${i} AS i, last_value || '/' || is_called AS state FROM ${s}`).join(' UNION ALL '),
  );
  for (const r of rows) out.set(sequences[r.i], r.state);
  return out;
}

async function catalog(ds: Sql): Promise<string> {
  const [row]: Record<string, string>[] = await ds.query(
    `SELECT concat_ws(' ', (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_attribute),
            (SELECT count(*) FROM pg_proc), (SELECT count(*) FROM pg_type), (SELECT count(*) FROM pg_trigger),
            (SELECT count(*) FROM pg_constraint), (SELECT count(*) FROM pg_namespace), (SELECT count(*) FROM pg_authid),
            (SELECT count(*) FROM pg_database), (SELECT count(*) FROM pg_extension), (SELECT count(*) FROM pg_db_role_setting),
            (SELECT count(*) FROM pg_attrdef), (SELECT count(*) FROM pg_policy), (SELECT count(*) FROM pg_rewrite)) AS c`,
  );
  return row.c;
}

async function record(ds: Sql): Promise<Pristine> {
  const { tables, sequences } = await tablesAndSequences(ds);
  const withRows = await nonEmpty(ds, tables);
  const sums = await digests(ds, withRows);
  const seeded = new Map<string, { digest: string; rows: string }>();
  for (const t of withRows) {
    const [{ rows }]: { rows: string }[] = await ds.query(
      `SELECT coalesce(json_agg(x), '[]')::text AS rows FROM ${t} x`,
    );
    seeded.set(t, { digest: sums.get(t)!, rows });
  }
  return { tables, seeded, sequences: await sequenceStates(ds, sequences), catalog: await catalog(ds) };
}

/** What differs from the record (empty: nothing). */
async function differences(ds: Sql, p: Pristine): Promise<string[]> {
  const out: string[] = [];
  const { tables, sequences } = await tablesAndSequences(ds);
  if (tables.join() !== p.tables.join()) out.push(`tables: ${tables.length} instead of ${p.tables.length}`);
  if (sequences.join() !== [...p.sequences.keys()].join()) out.push('sequences added or dropped');
  const withRows = await nonEmpty(ds, p.tables);
  for (const t of withRows) if (!p.seeded.has(t)) out.push(`${t} holds rows`);
  const sums = await digests(ds, [...p.seeded.keys()]);
  for (const [t, { digest }] of p.seeded) if (sums.get(t) !== digest) out.push(`${t}: rows differ`);
  const states = await sequenceStates(ds, [...p.sequences.keys()]);
  for (const [s, state] of p.sequences) if (states.get(s) !== state) out.push(`${s} at ${states.get(s)}, not ${state}`);
  const now = await catalog(ds);
  if (now !== p.catalog) out.push(`catalog counts ${now}, not ${p.catalog}`);
  return out;
}

/**
 * A dirty table of at least this many pages (8 KiB each) is emptied with `TRUNCATE`, a smaller one
 * with `DELETE`. `TRUNCATE` gives the table and each of its indexes new files, which costs PGlite
 * more than deleting a test's few rows (about 0.15–0.5 CPU-s an app over the twenty-odd tables a
 * test fills: BENCHMARKS.md "Test suite"); but PGlite runs no autovacuum, so the deleted rows stay
 * behind as dead tuples for every later app of the lane. A table's heap then only grows, until it
 * reaches this size and is truncated, which bounds what a later scan reads (a test that filled a
 * table with thousands of rows leaves nothing).
 */
const TRUNCATE_FROM_PAGES = 32;

/** the heap size, in pages, of each of `tables` */
async function relationPages(ds: Sql, tables: string[]): Promise<Map<string, number>> {
  const [row]: Record<string, string>[] = await ds.query(
    `SELECT ${tables.map((t, i) => `pg_relation_size('${t.replace(/'/g, "''")}') / 8192 AS t${i}`).join(', ')}`,
  );
  return new Map(tables.map((t, i) => [t, Number(row[`t${i}`])]));
}

/** Brings the database back to `p` (see the file's comment), then checks it. */
async function reset(ds: DataSource, p: Pristine): Promise<void> {
  await ds.query('DISCARD ALL'); // the previous app's session state (the worker does it too, per connection)
  const withRows = await nonEmpty(ds, p.tables);
  const sums = await digests(ds, [...p.seeded.keys()]);
  const changedSeeds = [...p.seeded].filter(([t, { digest }]) => sums.get(t) !== digest).map(([t]) => t);
  const dirty = [...new Set([...withRows.filter((t) => !p.seeded.has(t)), ...changedSeeds])];
  if (dirty.length) {
    const sizes = await relationPages(ds, dirty);
    const large = dirty.filter((t) => sizes.get(t)! >= TRUNCATE_FROM_PAGES);
    await ds.transaction(async (em) => {
      // foreign keys are triggers: off for this transaction, so the tables empty in any order
      await em.query('SET LOCAL session_replication_role = replica');
      for (const t of dirty) if (!large.includes(t)) await em.query(`DELETE FROM ${t}`);
      if (large.length) await em.query(`TRUNCATE ${large.join(', ')} CASCADE`);
      // CASCADE may have emptied a seeded table that references a large one: put back every seeded
      // table that is now not as recorded
      const after = await digests(em, [...p.seeded.keys()]);
      for (const [t, { digest, rows }] of p.seeded) {
        if (after.get(t) === digest) continue;
        await em.query(`DELETE FROM ${t}`);
        await em.query(
          `INSERT INTO ${t} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${t}, $1)`,
          [rows],
        );
      }
    });
  }
  const states = await sequenceStates(ds, [...p.sequences.keys()]);
  for (const [s, state] of p.sequences) {
    if (states.get(s) === state) continue;
    const [last, called] = state.split('/');
    await ds.query(`SELECT setval($1::regclass, $2::bigint, $3::boolean)`, [s, last, called === 'true']);
  }
  const left = await differences(ds, p);
  if (left.length)
    throw new Error(
      `the shared test database could not be reset to the template's state after the previous test app ` +
        `(a change the reset does not undo, such as DDL: give that test a database of its own): ${left.join('; ')}`,
    );
}

/**
 * The process's shared engine for an app with `config`, reset and marked busy, or null when the
 * app must get a database of its own (the engine is busy, or the app's database settings differ).
 * `fresh` makes the first copy (a DATA_DIR that is a copy of the template); `drop` removes it.
 */
export async function acquireLaneDatabase(
  config: AppConfig,
  fresh: () => { dir: string; drop(): void },
): Promise<{ database: ReadyDatabase; release(): void } | null> {
  if (config.database.url || process.env.TEST_LANE_DATABASE === 'off') return null;
  const settings = settingsOf(config);
  if (!lane) {
    if (opening) return null;
    opening = true;
    try {
      const copy = fresh();
      const laneConfig = { ...config, database: { ...config.database, dataDir: copy.dir } };
      const opened = await openDatabase(laneConfig, {});
      lane = {
        settings,
        dataDir: copy.dir,
        drop: copy.drop,
        opened,
        pristine: null,
        busy: false,
        holder: null,
        resets: 0,
      };
      process.once('exit', () => copy.drop());
    } finally {
      opening = false;
    }
  }
  const current = lane;
  if (current.busy || current.settings !== settings) return null;
  current.busy = true;
  let database: ReadyDatabase | undefined;
  try {
    // the reset first (the previous app may have changed the migrations table), then the migrations
    // as `startDatabase` would run them (none pending on the template's state)
    const started = await startDatabase(
      { ...config, database: { ...config.database, migrationsRun: false } },
      { opened: { ...current.opened, close: async () => undefined } },
    );
    database = started;
    if (current.pristine) {
      await reset(started.dataSource, current.pristine);
      current.resets++;
    }
    const appliedMigrations = config.database.migrationsRun ? await runMigrationsLocked(started.dataSource) : [];
    database = { ...started, appliedMigrations, pendingMigrations: await pendingMigrations(started.dataSource) };
    current.pristine ??= await record(started.dataSource);
  } catch (err) {
    await database?.close().catch(() => undefined);
    current.busy = false;
    if (lane === current) {
      // not to be trusted any more: the next app starts a new one on a new copy of the template
      lane = null;
      await current.opened.close().catch(() => undefined);
      current.drop();
    }
    throw err;
  }
  current.holder = database.dataSource;
  return {
    database,
    release: () => {
      current.busy = false;
      current.holder = null;
    },
  };
}

/** How many times this process's shared database was reset (0 before the second app). */
export function laneResets(): number {
  return lane?.resets ?? 0;
}

/** Whether `database` is the process's shared database (the app holding it now). */
export function onLaneDatabase(database: ReadyDatabase): boolean {
  return !!lane && lane.holder === database.dataSource;
}

/** What differs between the shared database, as `ds` (its holder's data source) sees it, and its record. */
export async function laneDifferences(ds: Sql): Promise<string[]> {
  if (!lane?.pristine) throw new Error('no shared test database recorded in this process');
  return differences(ds, lane.pristine);
}
