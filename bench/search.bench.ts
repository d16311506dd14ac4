/**
 * The searches at scale: Plane's workspace search (`GET /api/workspaces/{slug}/search/`), the
 * mention and link pickers (`entity-search/`, `search-issues/`) and the v1 `work-items/search/`,
 * against GET one work item (Meridian's and the bare server's, bench/bare-server.ts) in the same
 * run on the same database.
 *
 *   npm run build && node dist/bench/search.bench.js [--items 200000] [--projects 4] [--seconds 3]
 *        [--rounds 2] [--connections 8] [--keep-db] [--db NAME] [--mark-rare] [--mark-common] [--only TEXT]
 *        [--rare zeppelin] [--substring eppeli] [--common payment] [--short e]
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database
 * `meridian_search_<pid>` is created, and dropped unless `--keep-db`. `--db NAME` reuses a kept
 * database of this bench or of bench/workspace.bench.ts (workspace `bench`, user
 * bench@example.com; no seeding: it signs in and makes an API key). Its names may not hold the
 * texts searched (the workspace bench names its work items `Bulk item N`): with `--mark-rare` and no
 * name holding the rare word yet, it is appended to the names of the work items whose sequence id
 * is a multiple of 10,007 (about 100 at a million); with `--mark-common`, the common word to those
 * whose sequence id is a multiple of 20 (one in 20, spread over time as in a seeded database;
 * then VACUUM ANALYZE). `--rare`, `--substring`, `--common`, `--short` choose the texts; `--only`
 * runs the scenarios whose name contains the text. Each search is also asked with an empty text.
 * The ratios are against GET one measured before and after the searches (the mean of the two
 * p50s). Seeds `--projects` projects (each through the
 * API), 200 work items through the API, then `--items` in bulk spread over the projects with
 * `seedBulk` (the API's rows, checked column by column against an API-made row), named from a
 * vocabulary of 64 words (a word in about 1 name in 20: a common term) and, in one name in
 * 10,007, the rare word `zeppelin`. A benchmark, not a test: nothing here fails on a slow machine.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { benchHeader, freePort, http, listeningOn, setUp } from './harness';
import { load, LoadRequest, LoadResult, once, pooled } from './load';
import { searchRequests, searchTexts } from './search-scenarios';
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
function sarg(name: string, fallback: string): string;
function sarg(name: string): string | undefined;
function sarg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const REUSE = sarg('db');
const ONLY = sarg('only');
const RARE = sarg('rare', 'zeppelin');
const SUBSTRING = sarg('substring', 'eppeli');
const COMMON = sarg('common', 'payment');
const SHORT = sarg('short', 'e');

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
  const { url } = await listeningOn(child, 180_000);
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

/** What the measurements need: the bench user's credentials, the workspace and its projects. */
interface Target {
  key: string;
  token: string;
  slug: string;
  projectId: string;
  projects: Array<{ id: string; identifier: string }>;
}

/** Seeds a new database (see the header) through `first`, and answers what the measurements need. */
async function seed(sql: Sql, first: Running): Promise<Target> {
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
  return { ...t, token: t.token!, projects };
}

/** A kept database (`--db`): the bench user signs in again and makes an API key; the rare word marked with `--mark-rare`. */
async function reuse(sql: Sql, first: Running): Promise<Target> {
  const res = await http(first.base, 'POST', '/auth/sign-in/', {
    email: 'bench@example.com',
    password: 'bench password 123',
  });
  assert.equal(res.status, 200, res.body);
  const token = res.json().access_token as string;
  const key = await http(
    first.base,
    'POST',
    '/api/workspaces/bench/api-tokens/',
    { label: `search bench ${Date.now()}` },
    { authorization: `Bearer ${token}` },
  );
  assert.equal(key.status, 201, key.body);
  const projects = (
    await sql(
      `SELECT p.id, p.identifier FROM projects p JOIN workspaces w ON w.id = p.workspace_id
       WHERE w.slug = 'bench' AND p.deleted_at IS NULL ORDER BY p.identifier <> 'BENCH', p.identifier`,
    )
  ).map((r) => ({ id: r.id as string, identifier: r.identifier as string }));
  assert.equal(projects[0]?.identifier, 'BENCH');
  // a word in one name in 10,007 (`--mark-rare`) or in one in 20 (`--mark-common`), where no name holds it yet
  const marks: Array<[string, string, number]> = [
    ['--mark-rare', RARE, 10_007],
    ['--mark-common', COMMON, 20],
  ];
  let marked = false;
  for (const [flag, word, every] of marks) {
    if (!process.argv.includes(flag)) continue;
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM issues WHERE name ILIKE $1`, [`%${word}%`]);
    if ((n as number) > 0) continue;
    const rows = await sql(
      `UPDATE issues SET name = name || ' ' || $1 WHERE sequence_id % $2 = 0 AND workspace_id =
         (SELECT id FROM workspaces WHERE slug = 'bench') RETURNING 1`,
      [word, every],
    );
    console.log(`marked ${rows.length} names with "${word}"`);
    marked = true;
  }
  if (marked) await sql('VACUUM ANALYZE issues');
  return { key: key.json().token as string, token, slug: 'bench', projectId: projects[0].id, projects };
}

async function main() {
  console.log(benchHeader('search.bench'));
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = REUSE ?? `meridian_search_${process.pid}`;
  if (!REUSE) await admin.query(`CREATE DATABASE "${name}"`);
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
    const t = REUSE ? await reuse(sql, first) : await seed(sql, first);
    const projects = t.projects;
    await first.stop();
    servers.pop();

    const meridian = await start(SERVER, env);
    servers.push(meridian);
    const bare = await start(BARE, { BARE_DATABASE_URL: dbUrl, BARE_POOL_SIZE: String(CONNECTIONS) });
    servers.push(bare);

    const ids = (
      await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [t.projectId])
    ).map((r) => r.id as string);
    const keyProject = projects[1 % projects.length];
    const [{ seq }] = await sql(`SELECT max(sequence_id) / 2 AS seq FROM issues WHERE project_id = $1`, [
      keyProject.id,
    ]);
    const hits = async (q: string) =>
      (await sql(`SELECT count(*)::int AS n FROM issues WHERE name ILIKE $1`, [`%${q}%`]))[0].n as number;
    const [{ total }] = await sql(`SELECT count(*)::int AS total FROM issues`);
    console.log(
      `${total} work items; hits: "${RARE}" ${await hits(RARE)}, "${SUBSTRING}" ${await hits(SUBSTRING)}, "${COMMON}" ${await hits(COMMON)}, "${SHORT}" ${await hits(SHORT)}`,
    );
    const v1 = { 'x-api-key': t.key };
    const app = { authorization: `Bearer ${t.token}` };
    const key = `${keyProject.identifier}-${seq}`;
    const texts = searchTexts({
      rare: RARE,
      substring: SUBSTRING,
      common: COMMON,
      key,
      number: Number(seq),
      short: SHORT,
    });
    const scenarios = searchRequests(t.slug, t.projectId, texts).map((r) => ({
      name: r.name,
      next: (_n: number): LoadRequest => ({ method: 'GET', path: r.path, headers: r.auth === 'v1' ? v1 : app }),
    }));
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
    const meridianFirst = await run(meridian.base, getOne(meridian).next);
    const rows: Array<[string, LoadResult]> = [];
    for (const s of scenarios) {
      if (ONLY && !s.name.includes(ONLY)) continue;
      const r = await run(meridian.base, s.next);
      rows.push([s.name, r]);
      console.log(`  ${s.name}: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms`);
    }
    const meridianLast = await run(meridian.base, getOne(meridian).next);
    const meridianOne = { ...meridianLast, p50: (meridianFirst.p50 + meridianLast.p50) / 2 };
    console.log(
      `\nPostgreSQL, ${total} work items in ${projects.length} projects, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per scenario; load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log('| scenario | req/s | p50 ms | p99 ms | p50 / Meridian GET one | p50 / bare GET one |');
    console.log('|---|---:|---:|---:|---:|---:|');
    const line = (n: string, r: LoadResult) =>
      console.log(
        `| ${n} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.p50 / meridianOne.p50, 2)} | ${fmt(r.p50 / bareOne.p50, 2)} |`,
      );
    line('GET one work item, bare server', bareOne);
    line('GET one work item, Meridian, before the searches', meridianFirst);
    line('GET one work item, Meridian, after the searches', meridianLast);
    for (const [n, r] of rows) line(n, r);
    const errors = rows.reduce((s, [, r]) => s + r.errors, 0);
    if (errors) console.log(`errors: ${errors} (${rows.find(([, r]) => r.firstError)?.[1].firstError})`);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.end().catch(() => undefined);
    if (process.argv.includes('--keep-db') || REUSE) console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
