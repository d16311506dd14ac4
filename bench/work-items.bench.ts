/**
 * Work items at scale: Meridian against a bare `node:http` + `pg` server (bench/bare-server.ts)
 * that runs the same SQL and writes the same JSON bytes, interleaved in one run on one database.
 *
 *   npm run build && node dist/bench/work-items.bench.js [--items 100000] [--seconds 6] [--rounds 2]
 *        [--warm 1] [--connections 32] [--api-items 200] [--embedded] [--skip-postgres] [--keep-db]
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database
 * `meridian_bench_<pid>` is created and dropped. `--embedded` also measures Meridian on an
 * embedded database (PGlite) with the same data shape, against the bare server's PostgreSQL numbers.
 *
 * Before timing, the bench asserts that both servers answer the same bytes (GET one, first page,
 * a deep page) and that bulk-seeded rows equal API-created ones column by column. Prints
 * requests/s, p50/p99 latency, the Meridian/bare ratio, peak RSS and cold starts, then the medians of
 * the interleaved rounds (requests/s, each round's ratio, each server's CPU per request from /proc)
 * with the load average. A benchmark, not a test: nothing here fails on a slow machine.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { cpuMs, freePort, imageEnv, listeningOn, median, setUp } from './harness';
import { load, LoadRequest, LoadResult, once, pooled } from './load';
import { checkBulkMatchesApi, SeedTarget, seedBulk, seedViaApi, spreadOverStates, Sql } from './seed';

const ROOT = path.resolve(__dirname, '..', '..');
/** the server's bundle, as the image runs it */
const SERVER = path.join(ROOT, 'dist', 'server', 'main.js');
const BARE = path.join(__dirname, 'bare-server.js');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const ITEMS = arg('items', 100_000);
const API_ITEMS = arg('api-items', 200);
const SECONDS = arg('seconds', 3);
const ROUNDS = arg('rounds', 4);
const CONNECTIONS = arg('connections', 32);
/**
 * `--warm <s>`: each server's load before a scenario's timed rounds (default 1). Meridian's JIT is
 * still compiling its request path for a minute after its start (V8's `--trace-opt`: about 300
 * functions optimized in the 8 s after a 5 s warm-up, 40 after a 60 s one), the bare server's far
 * smaller code much sooner: a longer warm-up times both settled.
 */
const WARM = arg('warm', 1);
const EMBEDDED = process.argv.includes('--embedded');
/** `--name value` as text, undefined when absent */
function strArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
/**
 * `--only <text>`: time only the scenarios whose name contains it (e.g. `App`), or one of its
 * `|`-separated parts (`'per_page=100, first|App board'`); the checks still run
 */
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? process.argv[i + 1] : '';
})();
const selected = (name: string) => !ONLY || ONLY.split('|').some((part) => name.includes(part));
const PER_PAGE = 100;
/** the board's page per state column */
const BOARD_PAGE = 50;

interface Running {
  child: ChildProcess;
  base: string;
  /** ms from spawn to the first 200 on /health (Meridian) or to listening (bare) */
  coldStartMs: number;
  /** Meridian's own account of its start (the `startup_ms` of its "listening" line), as text */
  phases: string;
  stop(): Promise<void>;
}

function serverEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return {
    ...base,
    NODE_ENV: 'production',
    SECRET_KEY: 'b'.repeat(64),
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEY_RATE_LIMIT: '100000000/minute',
    ...env,
  };
}

/**
 * The NODE_OPTIONS `npm run start:prod` (and the image) starts Meridian with: the bench starts it the
 * same way, without npm in front. The bench's own NODE_OPTIONS come after them, so they win.
 */
const MERIDIAN_NODE_OPTIONS = (() => {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const m = /^NODE_OPTIONS="([^"$]*?)\s*\$NODE_OPTIONS"/.exec(scripts['start:prod']);
  assert.ok(m, `start:prod: ${scripts['start:prod']}`);
  return m[1];
})();

/**
 * `--bare-flags meridian`: the bare server runs with Meridian's runtime flags (its NODE_OPTIONS and
 * MALLOC_ARENA_MAX, above) instead of Node's defaults, so that the ratio compares code on the same
 * runtime settings (the young generation's size moves list pages by a tenth or more, BENCHMARKS.md
 * "Round 8").
 */
const BARE_FLAGS = strArg('bare-flags') ?? 'node';
if (!['node', 'meridian'].includes(BARE_FLAGS)) throw new Error('--bare-flags node|meridian');

async function start(script: string, env: Record<string, string>, health: boolean): Promise<Running> {
  const port = String(await freePort());
  const t0 = performance.now();
  // Meridian as production starts it; the bare server with Node's defaults
  const meridianFlags = {
    NODE_OPTIONS: `${MERIDIAN_NODE_OPTIONS} ${process.env.NODE_OPTIONS ?? ''}`.trim(),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? imageEnv().MALLOC_ARENA_MAX ?? '',
  };
  const nodeOptions: Record<string, string> =
    script === SERVER ? meridianFlags : BARE_FLAGS === 'meridian' ? meridianFlags : {};
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: serverEnv({ ...env, ...nodeOptions, PORT: port }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = await listeningOn(child, 180_000);
  const base = started.url;
  if (health) {
    for (;;) {
      const res = await once(base, { method: 'GET', path: '/health', headers: {} }).catch(() => ({ status: 0 }));
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const coldStartMs = performance.now() - t0;
  const phases = /"startup_ms":\{([^}]*)\}/.exec(started.output())?.[1].replace(/"/g, '') ?? '';
  return {
    child,
    base,
    coldStartMs,
    phases,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Peak resident set size (MiB) of a process while `fn` runs. */
async function withRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; rssMiB: number }> {
  let peak = 0;
  const sample = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      /* not on Linux, or gone */
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await fn();
    sample();
    return { result, rssMiB: peak };
  } finally {
    clearInterval(timer);
  }
}

interface Scenario {
  name: string;
  ok: number;
  next: (n: number) => LoadRequest;
}

function scenarios(
  t: Omit<SeedTarget, 'base'>,
  deepCursor: string,
  ids: string[],
  reads: boolean,
  writes: boolean,
): Scenario[] {
  const headers = { 'x-api-key': t.key };
  const list = `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/`;
  const all: Scenario[] = [];
  if (reads) {
    all.push(
      {
        name: `list, per_page=${PER_PAGE}, first page`,
        ok: 200,
        next: () => ({ method: 'GET', path: `${list}?per_page=${PER_PAGE}`, headers }),
      },
      {
        name: `list, page ${Math.floor((ITEMS + API_ITEMS) / PER_PAGE) - 1} (cursor)`,
        ok: 200,
        next: () => ({ method: 'GET', path: `${list}?per_page=${PER_PAGE}&cursor=${deepCursor}`, headers }),
      },
      {
        name: 'GET one work item',
        ok: 200,
        next: (n) => ({ method: 'GET', path: `${list}${ids[n % ids.length]}/`, headers }),
      },
    );
  }
  if (reads && t.token) {
    // the App API: the web app's list (paged by number) and its board, by state
    const app = { authorization: `Bearer ${t.token}` };
    const issues = `/api/workspaces/${t.slug}/projects/${t.projectId}/issues/`;
    const deep = Math.floor((ITEMS + API_ITEMS) / PER_PAGE / 2);
    const board = Math.floor((ITEMS + API_ITEMS) / BOARD_PAGE / 6 / 2);
    for (const [name, query] of [
      [`App list, per_page=${PER_PAGE}, page 0`, `per_page=${PER_PAGE}&cursor=${PER_PAGE}:0:0`],
      [`App list, page ${deep}`, `per_page=${PER_PAGE}&cursor=${PER_PAGE}:${deep}:0`],
      [`App list, order_by=sort_order, page 0`, `per_page=${PER_PAGE}&cursor=${PER_PAGE}:0:0&order_by=sort_order`],
      [`App list, order_by=-priority, page 0`, `per_page=${PER_PAGE}&cursor=${PER_PAGE}:0:0&order_by=-priority`],
      [
        `App board, group_by=state_id, per_page=${BOARD_PAGE}, page 0`,
        `group_by=state_id&per_page=${BOARD_PAGE}&cursor=${BOARD_PAGE}:0:0`,
      ],
      [
        `App board, group_by=state_id, page ${board}`,
        `group_by=state_id&per_page=${BOARD_PAGE}&cursor=${BOARD_PAGE}:${board}:0`,
      ],
      [
        `App board, group_by=state_id, order_by=sort_order, page 0`,
        `group_by=state_id&per_page=${BOARD_PAGE}&cursor=${BOARD_PAGE}:0:0&order_by=sort_order`,
      ],
    ] as const) {
      all.push({ name, ok: 200, next: () => ({ method: 'GET', path: `${issues}?${query}`, headers: app }) });
    }
  }
  if (writes) {
    all.push({
      name: `POST create (${CONNECTIONS} concurrent, one project)`,
      ok: 201,
      next: (n) => ({ method: 'POST', path: list, headers, body: JSON.stringify({ name: `Load ${n}` }) }),
    });
  }
  return all;
}

/** Both servers answer the same bytes for the same reads. */
async function assertSameBodies(
  meridian: string,
  bare: string,
  t: Omit<SeedTarget, 'base'>,
  deepCursor: string,
  id: string,
) {
  const headers = { 'x-api-key': t.key };
  const list = `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/`;
  const appHeaders = { authorization: `Bearer ${t.token}` };
  for (const [p, h] of [
    [`${list}${id}/`, headers],
    [`${list}?per_page=${PER_PAGE}`, headers],
    [`${list}?per_page=${PER_PAGE}&cursor=${deepCursor}`, headers],
    ...scenarios(t, deepCursor, [id], true, false)
      .filter((s) => s.name.startsWith('App'))
      .map((s) => [s.next(0).path, appHeaders] as const),
  ] as Array<readonly [string, Record<string, string>]>) {
    const [a, b] = await Promise.all([
      once(meridian, { method: 'GET', path: p, headers: h }),
      once(bare, { method: 'GET', path: p, headers: h }),
    ]);
    assert.equal(a.status, 200, a.body.slice(0, 300));
    assert.equal(
      a.body,
      b.body,
      `bodies differ for ${p}:\nmeridian ${a.body.slice(0, 400)}\nbare     ${b.body.slice(0, 400)}`,
    );
  }
  // a create: same keys and values but for what must differ
  const [a, b] = await Promise.all([
    once(meridian, { method: 'POST', path: list, headers, body: JSON.stringify({ name: 'Same' }) }),
    once(bare, { method: 'POST', path: list, headers, body: JSON.stringify({ name: 'Same' }) }),
  ]);
  assert.equal(a.status, 201, a.body);
  assert.equal(b.status, 201, b.body);
  const strip = (s: string) =>
    JSON.stringify(JSON.parse(s), (k, v) =>
      ['id', 'sequence_id', 'sort_order', 'created_at', 'updated_at'].includes(k) ? '…' : v,
    );
  assert.equal(strip(a.body), strip(b.body), 'create bodies differ');
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

interface Row {
  scenario: string;
  bare?: LoadResult;
  meridian: LoadResult;
}

/** One scenario's interleaved rounds: each server's requests/s and CPU per request (ms, /proc) by round. */
interface Rounds {
  scenario: string;
  rps: Record<'bare' | 'meridian', number[]>;
  cpu: Record<'bare' | 'meridian', number[]>;
  /** the 1-minute load average before the scenario's first round and after its last */
  load: [number, number];
}

/**
 * Medians of the rounds (the machine may be shared: a round's figures move with what else runs):
 * requests/s, the ratio of each round's pair, and each server's CPU per request.
 */
function printRounds(all: Rounds[]) {
  console.log(
    '\n| scenario | bare req/s | Meridian req/s | Meridian / bare (rounds) | CPU ms per request, bare / Meridian | load average |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of all) {
    const ratios = r.rps.meridian.map((m, i) => m / r.rps.bare[i]);
    console.log(
      `| ${r.scenario} | ${fmt(median(r.rps.bare), 0)} | ${fmt(median(r.rps.meridian), 0)} | ${fmt(median(ratios), 2)} (${ratios.map((x) => fmt(x, 2)).join(', ')}) | ${fmt(median(r.cpu.bare), 2)} / ${fmt(median(r.cpu.meridian), 2)} | ${fmt(r.load[0])} → ${fmt(r.load[1])} |`,
    );
  }
}

function printTable(title: string, rows: Row[]) {
  console.log(`\n${title}`);
  console.log(
    '| scenario | bare req/s | Meridian req/s | Meridian / bare | bare p50 / p99 ms | Meridian p50 / p99 ms | errors |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.bare ? r.meridian.rps / r.bare.rps : NaN;
    console.log(
      `| ${r.scenario} | ${r.bare ? fmt(r.bare.rps, 0) : '–'} | ${fmt(r.meridian.rps, 0)} | ${fmt(ratio, 2)} | ${r.bare ? `${fmt(r.bare.p50)} / ${fmt(r.bare.p99)}` : '–'} | ${fmt(r.meridian.p50)} / ${fmt(r.meridian.p99)} | ${(r.bare?.errors ?? 0) + r.meridian.errors} |`,
    );
    for (const e of [r.bare?.firstError, r.meridian.firstError]) if (e) console.log(`  first error: ${e}`);
  }
}

/** Sums rounds: requests/s averaged, percentiles of the median round. */
function merge(results: LoadResult[]): LoadResult {
  const byRps = [...results].sort((a, b) => a.rps - b.rps);
  const mid = byRps[Math.floor(byRps.length / 2)];
  return {
    requests: results.reduce((s, r) => s + r.requests, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    rps: results.reduce((s, r) => s + r.rps, 0) / results.length,
    p50: mid.p50,
    p99: mid.p99,
    firstError: results.find((r) => r.firstError)?.firstError,
  };
}

/**
 * Lists and single reads at once: half the connections ask for the first list page, the other half
 * for single work items, for `seconds` (what a busy team does; on the embedded database every
 * statement waits for the one running). Answers both results.
 */
async function mixed(base: string, all: Scenario[], seconds: number): Promise<{ list: LoadResult; one: LoadResult }> {
  const list = all.find((s) => s.name.startsWith('list, per_page'))!;
  const one = all.find((s) => s.name === 'GET one work item')!;
  const half = Math.max(1, Math.floor(CONNECTIONS / 2));
  const [l, o] = await Promise.all([
    load(base, list.next, half, seconds, list.ok),
    load(base, one.next, CONNECTIONS - half, seconds, one.ok),
  ]);
  return { list: l, one: o };
}

function printMixed(who: string, r: { list: LoadResult; one: LoadResult }) {
  console.log(
    `mixed (${who}): list first page ${fmt(r.list.rps, 0)}/s p50 / p99 ${fmt(r.list.p50)} / ${fmt(r.list.p99)} ms; ` +
      `GET one ${fmt(r.one.rps, 0)}/s p50 / p99 ${fmt(r.one.p50)} / ${fmt(r.one.p99)} ms (${CONNECTIONS / 2} connections each)`,
  );
}

async function deepCursorOf(sql: Sql, projectId: string): Promise<string> {
  const [row] = await sql(
    `SELECT FLOOR(EXTRACT(EPOCH FROM created_at) * 1000000)::bigint AS us FROM issues
     WHERE project_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [projectId, (Math.floor((ITEMS + API_ITEMS) / PER_PAGE) - 2) * PER_PAGE],
  );
  return `${row.us}:0:0`;
}

async function postgres(): Promise<Map<string, LoadResult>> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `meridian_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const db = new Client({ connectionString: dbUrl });
  const servers: Running[] = [];
  const bareResults = new Map<string, LoadResult>();
  let target: Omit<SeedTarget, 'base'> | undefined;
  try {
    const env = { DATABASE_URL: dbUrl, DATABASE_POOL_SIZE: String(CONNECTIONS) };
    const first = await start(SERVER, env, true);
    servers.push(first);
    console.log(`PostgreSQL: first start (migrates an empty database) ${fmt(first.coldStartMs, 0)} ms`);
    await db.connect();
    const sql: Sql = async (text, params) => (await db.query(text, params as unknown[])).rows;
    const t = await setUp(first.base);
    target = t;
    let t0 = performance.now();
    await seedViaApi({ ...t, base: first.base }, API_ITEMS);
    console.log(`seeded ${API_ITEMS} work items through the API in ${fmt((performance.now() - t0) / 1000)} s`);
    t0 = performance.now();
    await seedBulk(sql, { ...t, base: first.base }, ITEMS);
    await checkBulkMatchesApi(sql, t.projectId);
    await spreadOverStates(sql, t.projectId);
    await sql('VACUUM ANALYZE');
    console.log(
      `seeded ${ITEMS} work items in bulk in ${fmt((performance.now() - t0) / 1000)} s (bulk rows equal API rows column by column)`,
    );
    await first.stop();
    servers.pop();

    const colds: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await start(SERVER, env, true);
      colds.push(s.coldStartMs);
      console.log(`  start ${i + 1}: ${fmt(s.coldStartMs, 0)} ms to /health; the server's steps (ms): ${s.phases}`);
      await s.stop();
    }
    console.log(
      `PostgreSQL: cold start to first 200 on /health, migrated database: ${colds.map((c) => fmt(c, 0)).join(', ')} ms`,
    );

    const meridian = await start(SERVER, env, true);
    servers.push(meridian);
    const bare = await start(BARE, { BARE_DATABASE_URL: dbUrl, BARE_POOL_SIZE: String(CONNECTIONS) }, false);
    servers.push(bare);
    const deep = await deepCursorOf(sql, t.projectId);
    const ids = (
      await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [t.projectId])
    ).map((r) => r.id as string);
    await assertSameBodies(meridian.base, bare.base, t, deep, ids[0]);
    console.log(
      'bodies: Meridian and the bare server answer the same bytes (GET one, first page, deep page; create alike)',
    );
    console.log(
      `runtime flags: Meridian NODE_OPTIONS "${MERIDIAN_NODE_OPTIONS}"; the bare server ${BARE_FLAGS === 'meridian' ? 'the same (--bare-flags meridian)' : "Node's defaults"}`,
    );

    const rows: Row[] = [];
    const rounds: Rounds[] = [];
    let rssMeridian = 0;
    let rssBare = 0;
    for (const s of scenarios(t, deep, ids, true, true).filter((x) => selected(x.name))) {
      const runs: Record<'bare' | 'meridian', LoadResult[]> = { bare: [], meridian: [] };
      const cpu: Rounds['cpu'] = { bare: [], meridian: [] };
      const load0 = os.loadavg()[0];
      // warm both
      await load(bare.base, s.next, CONNECTIONS, WARM, s.ok);
      await load(meridian.base, s.next, CONNECTIONS, WARM, s.ok);
      for (let r = 0; r < ROUNDS; r++) {
        const order: Array<['bare' | 'meridian', Running]> =
          r % 2
            ? [
                ['meridian', meridian],
                ['bare', bare],
              ]
            : [
                ['bare', bare],
                ['meridian', meridian],
              ];
        for (const [who, srv] of order) {
          const cpu0 = cpuMs(srv.child.pid!);
          const { result, rssMiB } = await withRss(srv.child.pid!, () =>
            load(srv.base, s.next, CONNECTIONS, SECONDS, s.ok),
          );
          cpu[who].push((cpuMs(srv.child.pid!) - cpu0) / result.requests);
          runs[who].push(result);
          if (who === 'meridian') rssMeridian = Math.max(rssMeridian, rssMiB);
          else rssBare = Math.max(rssBare, rssMiB);
        }
      }
      rounds.push({
        scenario: s.name,
        rps: { bare: runs.bare.map((x) => x.rps), meridian: runs.meridian.map((x) => x.rps) },
        cpu,
        load: [load0, os.loadavg()[0]],
      });
      const row = { scenario: s.name, bare: merge(runs.bare), meridian: merge(runs.meridian) };
      bareResults.set(s.name, row.bare);
      rows.push(row);
      console.log(
        `  ${s.name}: bare ${fmt(row.bare.rps, 0)}/s, Meridian ${fmt(row.meridian.rps, 0)}/s, ratio ${fmt(row.meridian.rps / row.bare.rps, 2)}`,
      );
    }
    let mixedRows: Array<[string, { list: LoadResult; one: LoadResult }]> = [];
    if (!ONLY || ONLY.split('|').some((part) => 'mixed'.includes(part))) {
      const all = scenarios(t, deep, ids, true, false);
      mixedRows = [
        ['bare, PostgreSQL', await mixed(bare.base, all, SECONDS * 2)],
        ['Meridian, PostgreSQL', await mixed(meridian.base, all, SECONDS * 2)],
      ];
    }
    const [dups] = await sql(
      `SELECT (SELECT COUNT(*) FROM (SELECT sequence_id FROM issues WHERE project_id = $1 GROUP BY sequence_id HAVING COUNT(*) > 1) d)::int AS seq,
              (SELECT COUNT(*) FROM (SELECT sort_order FROM issues WHERE project_id = $1 AND deleted_at IS NULL GROUP BY state_id, sort_order HAVING COUNT(*) > 1) d)::int AS sort,
              mine.items, mine.txs
       FROM (SELECT COUNT(*)::int AS items, COUNT(DISTINCT i.xmin::text)::int AS txs FROM issues i
             WHERE i.project_id = $1 AND i.name LIKE 'Load %' AND EXISTS (SELECT 1 FROM issue_subscribers s WHERE s.issue_id = i.id)) mine`,
      [t.projectId],
    );
    printTable(
      `PostgreSQL, ${ITEMS + API_ITEMS} work items in one project, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per server and scenario, interleaved`,
      rows,
    );
    printRounds(rounds);
    console.log(`peak RSS under load: Meridian ${fmt(rssMeridian, 0)} MiB, bare ${fmt(rssBare, 0)} MiB`);
    for (const [who, r] of mixedRows) printMixed(who, r);
    console.log(`after the creates: duplicate sequence_ids ${dups.seq}, duplicate sort orders in a state ${dups.sort}`);
    // Meridian's load creates are the ones with a subscriber row (the bare server writes none); one xmin per transaction
    console.log(
      `Meridian's creates: ${dups.items} work items in ${dups.txs} transactions (group commit: ${fmt(Number(dups.items) / Math.max(1, Number(dups.txs)), 1)} per transaction)`,
    );
    return bareResults;
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.end().catch(() => undefined);
    if (process.argv.includes('--keep-db'))
      console.log(`kept database ${name}${target ? ` (X-API-Key ${target.key}, project ${target.projectId})` : ''}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/** `uptime`'s load averages (1, 5, 15 min), written beside every embedded figure: the machine is shared. */
function loadAvg(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** What the embedded runs need of the seeded data directory (kept in it as `bench-target.json`). */
interface EmbeddedTarget {
  t: Omit<SeedTarget, 'base'>;
  deep: string;
  ids: string[];
  items: number;
}

/**
 * The embedded database: seeded once (a kept `--data-dir` is reused by the next run), then every
 * design of `--threads` (`EMBEDDED_DB_THREAD`: main, worker) measured in the same run, rounds
 * interleaved. One server runs at a time (the data directory's lock), so each round starts the
 * design's server, warms it for a second and times it, with the load average beside each figure.
 */
async function embedded(bare: Map<string, LoadResult>): Promise<void> {
  const keepDir = strArg('data-dir');
  const dir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
  const designs = (strArg('threads') ?? 'main').split(',').filter(Boolean);
  const targetFile = path.join(dir, 'bench-target.json');
  try {
    let seeded: EmbeddedTarget;
    if (fs.existsSync(targetFile)) {
      seeded = JSON.parse(fs.readFileSync(targetFile, 'utf8')) as EmbeddedTarget;
      console.log(`\nEmbedded: reusing the seeded data directory ${dir} (${seeded.items} work items)`);
    } else {
      const first = await start(SERVER, { DATA_DIR: dir }, true);
      console.log(`\nEmbedded: first start (creates and migrates) ${fmt(first.coldStartMs, 0)} ms`);
      const t = await setUp(first.base);
      await seedViaApi({ ...t, base: first.base }, API_ITEMS);
      await first.stop();
      // the data directory is the server's while it runs: bulk-load it in this process in between
      const { PGlite } = await import('@electric-sql/pglite');
      const pg = await PGlite.create({
        dataDir: path.join(dir, 'pg'),
        extensions: { pg_trgm: (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm },
      });
      const sql: Sql = async (text, params) =>
        (await pg.query<Record<string, unknown>>(text, params as unknown[])).rows;
      const t0 = performance.now();
      await seedBulk(sql, { ...t, base: '' }, ITEMS);
      await checkBulkMatchesApi(sql, t.projectId);
      await spreadOverStates(sql, t.projectId);
      await sql('VACUUM ANALYZE');
      const deep = await deepCursorOf(sql, t.projectId);
      const ids = (
        await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [t.projectId])
      ).map((r) => r.id as string);
      await pg.close();
      console.log(`seeded ${ITEMS} work items in bulk in ${fmt((performance.now() - t0) / 1000)} s`);
      seeded = { t, deep, ids, items: ITEMS + API_ITEMS };
      if (keepDir) fs.writeFileSync(targetFile, JSON.stringify(seeded));
    }
    const { t, deep, ids } = seeded;
    // a design: the thread (`main`, `worker`), `+first` for short reads first at the pool
    const envOf = (design: string) => ({
      DATA_DIR: dir,
      EMBEDDED_DB_THREAD: design.split('+')[0],
      DATABASE_SHORT_READS_FIRST: String(design.includes('+first')),
    });

    if (!process.argv.includes('--skip-cold')) {
      for (const design of designs) {
        const colds: number[] = [];
        for (let i = 0; i < 5; i++) {
          const s = await start(SERVER, envOf(design), true);
          colds.push(s.coldStartMs);
          console.log(
            `  ${design}: start ${i + 1}: ${fmt(s.coldStartMs, 0)} ms to /health; the server's steps (ms): ${s.phases}`,
          );
          await s.stop();
        }
        console.log(
          `Embedded (${design}): cold start to first 200 on /health, ${seeded.items} work items: ${colds.map((c) => fmt(c, 0)).join(', ')} ms (load ${loadAvg()})`,
        );
      }
    }

    const runs = new Map<string, LoadResult[]>(); // `${design}\t${scenario}`
    const mixedRuns = new Map<string, Array<{ list: LoadResult; one: LoadResult; load: string }>>();
    const rss = new Map<string, number>();
    const timed = scenarios(t, deep, ids, true, false).filter((x) => selected(x.name));
    const withMixed = !ONLY || ONLY.split('|').some((part) => 'mixed'.includes(part));
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [...designs].reverse() : designs;
      for (const design of order) {
        const meridian = await start(SERVER, envOf(design), true);
        try {
          for (const s of timed) {
            await load(meridian.base, s.next, CONNECTIONS, 1, s.ok);
            const { result, rssMiB } = await withRss(meridian.child.pid!, () =>
              load(meridian.base, s.next, CONNECTIONS, SECONDS, s.ok),
            );
            const key = `${design}\t${s.name}`;
            runs.set(key, [...(runs.get(key) ?? []), result]);
            rss.set(design, Math.max(rss.get(design) ?? 0, rssMiB));
          }
          if (withMixed) {
            const all = scenarios(t, deep, ids, true, false);
            await mixed(meridian.base, all, 1); // warm-up
            const before = loadAvg();
            const { result, rssMiB } = await withRss(meridian.child.pid!, () => mixed(meridian.base, all, SECONDS * 2));
            rss.set(design, Math.max(rss.get(design) ?? 0, rssMiB));
            const entry = { ...result, load: `${before} → ${loadAvg()}` };
            mixedRuns.set(design, [...(mixedRuns.get(design) ?? []), entry]);
            printMixed(`embedded, ${design}, round ${r + 1}, load ${entry.load}`, result);
          }
        } finally {
          await meridian.stop();
        }
      }
    }
    for (const design of designs) {
      const rows: Row[] = timed.map((s) => ({
        scenario: s.name,
        bare: bare.get(s.name),
        meridian: merge(runs.get(`${design}\t${s.name}`) ?? []),
      }));
      if (rows.length)
        printTable(
          `Embedded (PGlite, EMBEDDED_DB_THREAD=${design}), same data; "bare" is the bare server on PostgreSQL above`,
          rows,
        );
      console.log(`peak RSS under load: Meridian (embedded, ${design}) ${fmt(rss.get(design) ?? 0, 0)} MiB`);
      const m = mixedRuns.get(design);
      if (m?.length)
        printMixed(`embedded, ${design}, ${m.length} rounds pooled (p50/p99 over all their requests)`, {
          list: pooled(m.map((x) => x.list)),
          one: pooled(m.map((x) => x.one)),
        });
    }
  } finally {
    if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
    else console.log(`kept the embedded data directory ${dir}`);
  }
}

async function main() {
  console.log(
    `work-items bench: ${new Date().toISOString()}, ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}; Meridian with NODE_OPTIONS="${`${MERIDIAN_NODE_OPTIONS} ${process.env.NODE_OPTIONS ?? ''}`.trim()}"`,
  );
  const bare = process.argv.includes('--skip-postgres') ? new Map<string, LoadResult>() : await postgres();
  if (EMBEDDED) await embedded(bare);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
