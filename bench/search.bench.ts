/**
 * The searches at scale: Plane's workspace search (`GET /api/workspaces/{slug}/search/`), the
 * mention and link pickers (`entity-search/`, `search-issues/`) and the v1 `work-items/search/`,
 * against GET one work item (Meridian's and the bare server's, bench/bare-server.ts) in the same
 * run on the same database.
 *
 *   npm run build && node dist/bench/search.bench.js [--items 200000] [--projects 4] [--seconds 3]
 *        [--rounds 2] [--connections 8] [--keep-db]
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database
 * `meridian_search_<pid>` is created and dropped. Seeds `--projects` projects (each through the
 * API), 200 work items through the API, then `--items` in bulk spread over the projects with
 * `seedBulk` (the API's rows, checked column by column against an API-made row), named from a
 * vocabulary of 64 words (a word in about 1 name in 20: a common term) and, in one name in
 * 10,007, the rare word `zeppelin`. A benchmark, not a test: nothing here fails on a slow machine.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { benchHeader, freePort, http, setUp } from './harness';
import { load, LoadRequest, LoadResult, once, pooled } from './load';
import { checkBulkMatchesApi, seedBulk, seedViaApi, Sql } from './seed';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'server', 'main.js');
const BARE = path.join(__dirname, 'bare-server.js');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const ITEMS = arg('items', 200_000);
const PROJECTS = arg('projects', 4);
const SECONDS = arg('seconds', 3);
const ROUNDS = arg('rounds', 2);
const CONNECTIONS = arg('connections', 8);

const WORDS = `login payment invoice dashboard export import upload avatar session token webhook label cycle module
  sprint backlog release search filter sort cache index query report chart email mobile desktop sidebar modal button
  tooltip editor comment mention reaction sticker theme layout router server client worker queue schedule calendar
  estimate priority assignee state workflow archive restore delete create update timeline roadmap milestone budget
  storage network portal gateway`
  .split(/\s+/)
  .filter(Boolean);
assert.equal(WORDS.length, 64);

/** A name of three words of the vocabulary (and `zeppelin` in one row in 10,007), as SQL over `g` and `$5`. */
const NAME_SQL = `initcap((ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + (($5::int + g) * 7) % 64]) || ' '
  || (ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + (($5::int + g) * 13 / 64) % 64] || ' '
  || (ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + (($5::int + g) * 31 / 4096) % 64]
  || CASE WHEN ($5::int + g) % 10007 = 0 THEN ' zeppelin' ELSE '' END`;

interface Running {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

async function start(script: string, env: Record<string, string>): Promise<Running> {
  const port = String(await freePort());
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: {
      ...base,
      NODE_ENV: 'production',
      SECRET_KEY: 'b'.repeat(64),
      HOST: '127.0.0.1',
      API_KEY_RATE_LIMIT: '100000000/minute',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), 180_000);
    const onData = (d: Buffer) => {
      if (out.length < 20_000) out += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  for (let i = 0; script === SERVER; i++) {
    const res = await once(url, { method: 'GET', path: '/health', headers: {} }).catch(() => ({ status: 0 }));
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    child,
    base: url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const fmt = (x: number, d = 1) => x.toFixed(d);

async function main() {
  console.log(benchHeader('search.bench'));
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `meridian_search_${process.pid}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const db = new Client({ connectionString: dbUrl });
  const servers: Running[] = [];
  try {
    const env = { DATABASE_URL: dbUrl, DATABASE_POOL_SIZE: String(CONNECTIONS) };
    const first = await start(SERVER, env);
    servers.push(first);
    await db.connect();
    const sql: Sql = async (text, params) => (await db.query(text, params as unknown[])).rows;
    const t = await setUp(first.base);
    const projects = [{ id: t.projectId, identifier: 'BENCH' }];
    for (let i = 1; i < PROJECTS; i++) {
      const identifier = `PRJ${i}`;
      const res = await http(
        first.base,
        'POST',
        `/api/v1/workspaces/${t.slug}/projects/`,
        { name: `Project ${i}`, identifier },
        { 'x-api-key': t.key },
      );
      assert.equal(res.status, 201, res.body);
      projects.push({ id: res.json().id as string, identifier });
    }
    const t0 = performance.now();
    await seedViaApi({ ...t, base: first.base }, 200);
    for (const [i, p] of projects.entries()) {
      const n = Math.floor(ITEMS / PROJECTS) + (i < ITEMS % PROJECTS ? 1 : 0);
      // each project's rows numbered apart, so that the names differ across projects
      await seedBulk(
        sql,
        { ...t, projectId: p.id, base: first.base },
        n,
        20_000,
        NAME_SQL.replaceAll('$5::int', `($5::int + ${i * 1_000_003})`),
      );
    }
    await checkBulkMatchesApi(sql, t.projectId);
    await sql('VACUUM ANALYZE');
    console.log(
      `seeded ${ITEMS} work items in bulk over ${PROJECTS} projects in ${fmt((performance.now() - t0) / 1000)} s (bulk rows equal API rows column by column)`,
    );
    await first.stop();
    servers.pop();

    const meridian = await start(SERVER, env);
    servers.push(meridian);
    const bare = await start(BARE, { BARE_DATABASE_URL: dbUrl, BARE_POOL_SIZE: String(CONNECTIONS) });
    servers.push(bare);

    const ids = (
      await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [t.projectId])
    ).map((r) => r.id as string);
    const [{ seq }] = await sql(`SELECT max(sequence_id) / 2 AS seq FROM issues WHERE project_id = $1`, [
      projects[1 % PROJECTS].id,
    ]);
    const [{ rare }] = await sql(`SELECT count(*)::int AS rare FROM issues WHERE name ILIKE '%zeppelin%'`);
    const [{ common }] = await sql(`SELECT count(*)::int AS common FROM issues WHERE name ILIKE '%payment%'`);
    console.log(`hits: "zeppelin" ${rare}, "payment" ${common}`);
    const v1 = { 'x-api-key': t.key };
    const app = { authorization: `Bearer ${t.token}` };
    const ws = `/api/workspaces/${t.slug}`;
    const key = `${projects[1 % PROJECTS].identifier}-${seq}`;
    const queries: Array<[string, string]> = [
      ['rare word', 'zeppelin'],
      ['inner substring', 'eppeli'],
      ['common word', 'payment'],
      ['key', key],
      ['number', String(seq)],
    ];
    const scenarios: Array<{ name: string; next: (n: number) => LoadRequest }> = [];
    for (const [what, q] of queries) {
      const e = encodeURIComponent(q);
      scenarios.push(
        { name: `search/ (${what})`, next: () => ({ method: 'GET', path: `${ws}/search/?search=${e}`, headers: app }) },
        {
          name: `entity-search/ issue (${what})`,
          next: () => ({
            method: 'GET',
            path: `${ws}/entity-search/?query_type=issue&count=10&query=${e}`,
            headers: app,
          }),
        },
        {
          name: `search-issues/ workspace (${what})`,
          next: () => ({
            method: 'GET',
            path: `${ws}/projects/${t.projectId}/search-issues/?workspace_search=true&search=${e}`,
            headers: app,
          }),
        },
        {
          name: `v1 work-items/search/ (${what})`,
          next: () => ({
            method: 'GET',
            path: `/api/v1/workspaces/${t.slug}/work-items/search/?search=${e}`,
            headers: v1,
          }),
        },
      );
    }
    // the answers: the key's work item first
    const byKey = JSON.parse(
      (await once(meridian.base, scenarios.find((s) => s.name.includes('(key)'))!.next(0))).body,
    );
    assert.equal(`${byKey.results.issue[0].project__identifier}-${byKey.results.issue[0].sequence_id}`, key);

    const getOne = (base: Running) => ({
      name: 'GET one work item',
      next: (n: number) => ({
        method: 'GET' as const,
        path: `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/${ids[n % ids.length]}/`,
        headers: v1,
      }),
      base,
    });
    const run = async (base: string, next: (n: number) => LoadRequest) => {
      await load(base, next, CONNECTIONS, 1, 200);
      const rounds: LoadResult[] = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await load(base, next, CONNECTIONS, SECONDS, 200));
      return pooled(rounds);
    };
    const bareOne = await run(bare.base, getOne(bare).next);
    const meridianOne = await run(meridian.base, getOne(meridian).next);
    const rows: Array<[string, LoadResult]> = [];
    for (const s of scenarios) {
      const r = await run(meridian.base, s.next);
      rows.push([s.name, r]);
      console.log(`  ${s.name}: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms`);
    }
    console.log(
      `\nPostgreSQL, ${ITEMS + 200} work items in ${PROJECTS} projects, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per scenario`,
    );
    console.log('| scenario | req/s | p50 ms | p99 ms | p50 / Meridian GET one | p50 / bare GET one |');
    console.log('|---|---:|---:|---:|---:|---:|');
    const line = (n: string, r: LoadResult) =>
      console.log(
        `| ${n} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.p50 / meridianOne.p50, 2)} | ${fmt(r.p50 / bareOne.p50, 2)} |`,
      );
    line('GET one work item, bare server', bareOne);
    line('GET one work item, Meridian', meridianOne);
    for (const [n, r] of rows) line(n, r);
    const errors = rows.reduce((s, [, r]) => s + r.errors, 0);
    if (errors) console.log(`errors: ${errors} (${rows.find(([, r]) => r.firstError)?.[1].firstError})`);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.end().catch(() => undefined);
    if (process.argv.includes('--keep-db')) console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
