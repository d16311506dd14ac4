/**
 * Memory over a long mixed load: the server's resident set (RSS) sampled every second while
 * `--connections` keep-alive clients send a mix of lists, single reads, creates, updates, comments
 * and App API reads for `--minutes`, then `--idle` seconds without load. Reports the maximum
 * (`VmRSS` sampled, and the kernel's own peak `VmHWM`), and the curve: each minute's maximum, the
 * slope of the second half, what is left when the load stops.
 *
 *   npm run build
 *   node dist/bench/soak.bench.js --engine postgres [--minutes 10] [--node /path/to/node]
 *        [--start start:prod|npm-start|image] [--items 20000] [--connections 32] [--probe]
 *        [--node-options "…"] [--env K=V,K=V] [--data-dir DIR] [--out FILE.json]
 *        [--db NAME] [--mix base|full] [--main OTHER/dist/server/main.js]
 *
 * `--mix base` (the default) is the mix of every earlier run (see `mix`). `--mix full` adds what a
 * team's day has besides: the workspace search (`search/`, the command palette) and v1
 * `work-items/search/`, the inbox (its first page of 30 and the unread counts, as the web app asks
 * them) and work items created through the App API by another member (signed up for the run and
 * added to the project) and assigned to the bench user, which fill that user's inbox as the run
 * goes. `--db NAME` (PostgreSQL): no seeding; the kept database NAME on the server of
 * BENCH_DATABASE_URL, as `workspace.bench --keep-db` leaves it (workspace `bench`, project `BENCH`,
 * bench@example.com, signed in again for a token and a new API key); the run's creates, updates and
 * comments stay in it.
 *
 * The server is started the way users start it (`--start`, default `npm run start:prod`, with the
 * `--node` binary first on PATH; `image` = `node dist/server/main.js` with the Dockerfile's
 * ENV). PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a
 * database `meridian_soak_<pid>` is created and dropped. Embedded: a new temporary DATA_DIR, or
 * `--data-dir DIR` (created and seeded when empty, kept). `--probe` preloads dist/bench/mem-probe.js
 * into the server (bench only) and reports V8's heap, `external` and the rest (native) at the
 * sample of the maximum. Linux only (reads /proc). A benchmark, not a test.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Agent } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { cpuMs, http, median, opt, Server, setUp, signIn, startServer, StartMode, statusKiB } from './harness';
import { LoadRequest, once } from './load';
import { embeddedSeedConnection, postgresSeedConnection, SeedTarget, seedProject } from './seed';

const ENGINE = opt('engine', 'postgres') as 'postgres' | 'embedded';
const MINUTES = Number(opt('minutes', '10'));
const IDLE_S = Number(opt('idle', '30'));
const NODE = path.resolve(opt('node', process.execPath));
const START = opt('start', 'start:prod') as StartMode;
const ITEMS = Number(opt('items', '20000'));
const CONNECTIONS = Number(opt('connections', '32'));
const PROBE = process.argv.includes('--probe');
const NODE_OPTIONS = opt('node-options', '');
/** `--main FILE` (with `--start image`): another build's entry point, to compare builds on one database */
const MAIN_FILE = opt('main', '') ? path.resolve(opt('main', '')) : undefined;
if (MAIN_FILE && START !== 'image') throw new Error('--main is for --start image');
const EXTRA_ENV = Object.fromEntries(
  opt('env', '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const DATA_DIR = opt('data-dir', '');
const KEPT_DB = opt('db', '');
const MIX = opt('mix', 'base') as 'base' | 'full';
if (MIX !== 'base' && MIX !== 'full') throw new Error(`--mix ${MIX}: base or full`);
if (KEPT_DB && ENGINE !== 'postgres') throw new Error('--db is for --engine postgres');
const PROBE_SCRIPT = path.join(__dirname, 'mem-probe.js');

type Target = Omit<SeedTarget, 'base'>;

interface Prepared {
  env: Record<string, string>;
  t: Target;
  ids: string[];
  cleanup: () => void | Promise<void>;
}

interface Kind {
  name: string;
  weight: number;
  ok: number;
  next: (n: number) => LoadRequest;
}

/**
 * The mix: what a team and its integrations ask for, by weight; with `--mix full` (`peer`: another
 * member's Bearer token) also the searches, the inbox and the peer's creates (`fullExtras`).
 */
function mix(t: Target, ids: string[], peer?: string): Kind[] {
  const kinds = baseMix(t, ids);
  return peer ? [...kinds, ...fullExtras(t, peer)] : kinds;
}

/** The mix of every run before `--mix full` (weights sum to 93). */
function baseMix(t: Target, ids: string[]): Kind[] {
  const v1 = { 'x-api-key': t.key };
  const app = { authorization: `Bearer ${t.token}` };
  const list = `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/`;
  const appIssues = `/api/workspaces/${t.slug}/projects/${t.projectId}/issues/`;
  const pick = (n: number) => ids[(n * 7919) % ids.length];
  const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'];
  return [
    {
      name: 'v1 list, per_page=100',
      weight: 12,
      ok: 200,
      next: () => ({ method: 'GET', path: `${list}?per_page=100`, headers: v1 }),
    },
    {
      name: 'v1 list, default page (1,000)',
      weight: 2,
      ok: 200,
      next: () => ({ method: 'GET', path: list, headers: v1 }),
    },
    {
      name: 'v1 GET one',
      weight: 22,
      ok: 200,
      next: (n) => ({ method: 'GET', path: `${list}${pick(n)}/`, headers: v1 }),
    },
    {
      name: 'v1 comments of one',
      weight: 4,
      ok: 200,
      next: (n) => ({ method: 'GET', path: `${list}${pick(n)}/comments/`, headers: v1 }),
    },
    {
      name: 'v1 create',
      weight: 10,
      ok: 201,
      next: (n) => ({
        method: 'POST',
        path: list,
        headers: v1,
        body: JSON.stringify({ name: `Soak ${n}`, priority: PRIORITIES[n % 5] }),
      }),
    },
    {
      name: 'v1 update',
      weight: 10,
      ok: 200,
      next: (n) => ({
        method: 'PATCH',
        path: `${list}${pick(n)}/`,
        headers: v1,
        body: JSON.stringify({ priority: PRIORITIES[n % 5], name: `Updated ${n}` }),
      }),
    },
    {
      name: 'v1 comment',
      weight: 8,
      ok: 201,
      next: (n) => ({
        method: 'POST',
        path: `${list}${pick(n)}/comments/`,
        headers: v1,
        body: JSON.stringify({ comment_html: `<p>soak comment ${n}</p>` }),
      }),
    },
    {
      name: 'App list, page 0',
      weight: 8,
      ok: 200,
      next: () => ({ method: 'GET', path: `${appIssues}?per_page=100&cursor=100:0:0`, headers: app }),
    },
    {
      name: 'App board by state, page 0',
      weight: 3,
      ok: 200,
      next: () => ({ method: 'GET', path: `${appIssues}?group_by=state_id&per_page=50&cursor=50:0:0`, headers: app }),
    },
    {
      name: 'App GET one',
      weight: 8,
      ok: 200,
      next: (n) => ({ method: 'GET', path: `${appIssues}${pick(n)}/`, headers: app }),
    },
    {
      name: 'App history of one',
      weight: 4,
      ok: 200,
      next: (n) => ({ method: 'GET', path: `${appIssues}${pick(n)}/history/`, headers: app }),
    },
    { name: 'App users/me', weight: 2, ok: 200, next: () => ({ method: 'GET', path: '/api/users/me/', headers: app }) },
  ];
}

/**
 * What `--mix full` adds (weights sum to 14): the searches, for a name's substring (`item 4242`), a
 * bare number and a key (`BENCH-4242`) in turn; the inbox as the web app loads it (the unread counts,
 * then the first 30 of the unread and read, neither snoozed nor archived); and a work item created by
 * another member through the App API, assigned to the bench user (one more notification in the inbox).
 */
function fullExtras(t: Target, peer: string): Kind[] {
  const app = { authorization: `Bearer ${t.token}` };
  const v1 = { 'x-api-key': t.key };
  const ws = `/api/workspaces/${t.slug}`;
  const term = (n: number) => {
    const k = 1 + ((n * 104729) % 100_000);
    return encodeURIComponent([`item ${k}`, String(k), `BENCH-${k}`][n % 3]);
  };
  return [
    {
      name: 'App search/ (command palette)',
      weight: 3,
      ok: 200,
      next: (n) => ({ method: 'GET', path: `${ws}/search/?search=${term(n)}`, headers: app }),
    },
    {
      name: 'v1 work-items/search/',
      weight: 2,
      ok: 200,
      next: (n) => ({
        method: 'GET',
        path: `/api/v1/workspaces/${t.slug}/work-items/search/?search=${term(n)}`,
        headers: v1,
      }),
    },
    {
      name: 'App inbox unread counts',
      weight: 3,
      ok: 200,
      next: () => ({ method: 'GET', path: `${ws}/users/notifications/unread/`, headers: app }),
    },
    {
      name: 'App inbox, first page (30)',
      weight: 3,
      ok: 200,
      next: () => ({
        method: 'GET',
        path: `${ws}/users/notifications/?snoozed=false&archived=false&per_page=30&cursor=30:0:0`,
        headers: app,
      }),
    },
    {
      name: 'App create by a peer, assigned',
      weight: 3,
      ok: 201,
      next: (n) => ({
        method: 'POST',
        path: `${ws}/projects/${t.projectId}/issues/`,
        headers: { authorization: `Bearer ${peer}` },
        body: JSON.stringify({ name: `Peer ${n}`, assignee_ids: [t.userId] }),
      }),
    },
  ];
}

interface Tally {
  n: number;
  errors: number;
  firstError?: string;
  latencies: number[];
}

/** Closed loop: each connection sends its next request (drawn by weight) when the answer is read. */
async function mixedLoad(base: string, kinds: Kind[], seconds: number): Promise<Map<string, Tally>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const total = kinds.reduce((s, k) => s + k.weight, 0);
  const tallies = new Map(kinds.map((k) => [k.name, { n: 0, errors: 0, latencies: [] } as Tally]));
  // a fixed, evenly mixed sequence (no randomness between runs)
  const deck: Kind[] = [];
  for (const k of kinds) for (let i = 0; i < k.weight; i++) deck.push(k);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = (i * 48271) % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const i = n++;
      const kind = deck[i % total];
      const tally = tallies.get(kind.name)!;
      const t0 = performance.now();
      try {
        const res = await once(base, kind.next(i), agent);
        if (res.status !== kind.ok) {
          tally.errors++;
          tally.firstError ??= `${res.status} ${res.body.slice(0, 200)}`;
        }
      } catch (err) {
        tally.errors++;
        tally.firstError ??= String(err);
      }
      tally.n++;
      tally.latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return tallies;
}

interface Sample {
  t: number;
  rss: number;
  hwm: number;
  anon: number;
  file: number;
  cpu: number;
  load: boolean;
}

function sampler(pid: number, t0: number) {
  const samples: Sample[] = [];
  let loading = true;
  const take = () => {
    const rss = statusKiB(pid, 'VmRSS') / 1024;
    if (!Number.isFinite(rss)) return;
    samples.push({
      t: (performance.now() - t0) / 1000,
      rss,
      hwm: statusKiB(pid, 'VmHWM') / 1024,
      anon: statusKiB(pid, 'RssAnon') / 1024,
      file: statusKiB(pid, 'RssFile') / 1024,
      cpu: cpuMs(pid),
      load: loading,
    });
  };
  take();
  const timer = setInterval(take, 1000);
  return {
    samples,
    idle: () => (loading = false),
    stop: () => {
      take();
      clearInterval(timer);
    },
  };
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

interface ProbeLine {
  t: number;
  rss: number;
  heap_total: number;
  heap_used: number;
  external: number;
  array_buffers: number;
  spaces: Record<string, number>;
}

function report(server: Server, samples: Sample[], tallies: Map<string, Tally>, probe: ProbeLine[], out: string) {
  const loadSamples = samples.filter((s) => s.load);
  const idleSamples = samples.filter((s) => !s.load);
  const max = loadSamples.reduce((m, s) => (s.rss > m.rss ? s : m), loadSamples[0]);
  const hwm = Math.max(...samples.map((s) => s.hwm));
  const seconds = MINUTES * 60;
  console.log(
    `\n${ENGINE}, node ${server.node} (heap limit ${server.heapLimitMiB} MiB), started by ${START}${MAIN_FILE ? ` (${MAIN_FILE})` : ''}` +
      `${NODE_OPTIONS ? `, extra NODE_OPTIONS "${NODE_OPTIONS}"` : ''}${Object.keys(EXTRA_ENV).length ? `, env ${JSON.stringify(EXTRA_ENV)}` : ''}` +
      `, ${CONNECTIONS} connections, ${MINUTES} min, mix ${MIX}${KEPT_DB ? `, kept database ${KEPT_DB}` : ''}${PROBE ? ', probe on' : ''}`,
  );
  console.log(
    `RSS: max sampled ${f0(max.rss)} MiB at ${f0(max.t)} s (anon ${f0(max.anon)}, file ${f0(max.file)}); kernel peak (VmHWM) ${f0(hwm)} MiB; ` +
      `at start ${f0(samples[0].rss)}; after ${IDLE_S} s idle ${f0(idleSamples.at(-1)?.rss ?? NaN)} MiB`,
  );
  // the curve: maximum, median and minimum of each minute
  const rows: string[] = [];
  const perMinuteMax: number[] = [];
  for (let m = 0; m < Math.ceil(seconds / 60); m++) {
    const xs = loadSamples.filter((s) => s.t >= m * 60 && s.t < (m + 1) * 60).map((s) => s.rss);
    if (!xs.length) continue;
    perMinuteMax.push(Math.max(...xs));
    rows.push(`| ${m + 1} | ${f0(Math.min(...xs))} | ${f0(median(xs))} | ${f0(Math.max(...xs))} |`);
  }
  console.log('| minute | min RSS MiB | median | max |\n|---|---|---|---|\n' + rows.join('\n'));
  const half = loadSamples.filter((s) => s.t >= seconds / 2);
  if (half.length > 10)
    console.log(
      `second half: slope ${f1(
        slope(
          half.map((s) => s.t / 60),
          half.map((s) => s.rss),
        ),
      )} MiB/min, ` +
        `max of the first half ${f0(Math.max(...loadSamples.filter((s) => s.t < seconds / 2).map((s) => s.rss)))} MiB, of the second ${f0(Math.max(...half.map((s) => s.rss)))} MiB`,
    );
  const cpu = (loadSamples.at(-1)!.cpu - loadSamples[0].cpu) / 1000;
  let requests = 0;
  console.log('\n| request | count | per s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|');
  for (const [name, t] of tallies) {
    requests += t.n;
    const l = t.latencies.sort((a, b) => a - b);
    const pct = (p: number) => l[Math.min(l.length - 1, Math.floor(l.length * p))];
    console.log(`| ${name} | ${t.n} | ${f0(t.n / seconds)} | ${f1(pct(0.5))} | ${f1(pct(0.99))} | ${t.errors} |`);
    if (t.firstError) console.log(`  first error: ${t.firstError}`);
  }
  console.log(
    `all: ${requests} requests, ${f0(requests / seconds)}/s; server CPU ${f0(cpu)} s (${f1((cpu * 1000) / requests)} ms per request)`,
  );
  if (probe.length) {
    const at = probe.reduce((m, p) => (p.rss > m.rss ? p : m), probe[0]);
    const native = (p: ProbeLine) => p.rss - p.heap_total - (p.external - p.array_buffers) - p.array_buffers;
    console.log(
      `probe at its max RSS (${f0(at.rss)} MiB, ${at.t} s): V8 heap ${f0(at.heap_total)} (used ${f0(at.heap_used)}; ` +
        Object.entries(at.spaces)
          .filter(([, v]) => v >= 1)
          .map(([k, v]) => `${k.replace('_space', '')} ${f0(v)}`)
          .join(', ') +
        `), external ${f0(at.external)} (array buffers ${f0(at.array_buffers)}), the rest (code, native, stacks) ${f0(native(at))} MiB`,
    );
    const pm: string[] = [];
    for (let m = 0; m * 60 <= Math.max(...probe.map((p) => p.t)); m++) {
      const xs = probe.filter((p) => p.t >= m * 60 && p.t < (m + 1) * 60);
      if (!xs.length) continue;
      const top = xs.reduce((a, b) => (b.rss > a.rss ? b : a));
      pm.push(
        `| ${m + 1} | ${f0(top.rss)} | ${f0(top.heap_total)} | ${f0(top.heap_used)} | ${f0(Math.max(...xs.map((x) => x.spaces.new_space ?? 0)))} | ${f0(top.external)} | ${f0(native(top))} |`,
      );
    }
    console.log(
      '| minute | max RSS | heap total there | heap used | new space (max) | external | rest |\n|---|---|---|---|---|---|---|\n' +
        pm.join('\n'),
    );
  }
  fs.writeFileSync(
    out,
    JSON.stringify(
      { engine: ENGINE, node: server.node, start: START, minutes: MINUTES, mix: MIX, db: KEPT_DB, samples, probe },
      null,
      0,
    ),
  );
  console.log(`samples: ${out}`);
}

async function prepareEmbedded(): Promise<Prepared> {
  const dir = DATA_DIR ? path.resolve(DATA_DIR) : fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-soak-'));
  const saved = path.join(dir, 'bench-target.json');
  const env = { DATA_DIR: dir };
  const cleanup = () => (DATA_DIR ? undefined : fs.rmSync(dir, { recursive: true, force: true }));
  if (fs.existsSync(saved)) {
    const { t, ids } = JSON.parse(fs.readFileSync(saved, 'utf8')) as { t: Target; ids: string[] };
    console.log(`embedded: reusing ${dir}`);
    return { env, t, ids, cleanup };
  }
  fs.mkdirSync(dir, { recursive: true });
  const first = await startServer({ mode: START, main: MAIN_FILE, node: NODE, env });
  const t = await setUp(first.base);
  const ids = await seedProject(t, first, ITEMS, () => embeddedSeedConnection(dir));
  fs.writeFileSync(saved, JSON.stringify({ t, ids }));
  console.log(`embedded: seeded ${ITEMS + 200} work items in ${dir}`);
  return { env, t, ids, cleanup };
}

async function preparePostgres(): Promise<Prepared> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `meridian_soak_${process.pid}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString() };
  const cleanup = async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
  try {
    const first = await startServer({ mode: START, main: MAIN_FILE, node: NODE, env });
    const t = await setUp(first.base);
    const ids = await seedProject(t, first, ITEMS, () => postgresSeedConnection(env.DATABASE_URL));
    console.log(`postgres: seeded ${ITEMS + 200} work items in ${name}`);
    return { env, t, ids, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** `--db NAME`: the kept, seeded database (no seeding); the bench user signs in for a token and a new API key. */
async function prepareKept(): Promise<Prepared> {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${KEPT_DB}`;
  const env = { DATABASE_URL: url.toString() };
  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    const one = async (text: string, params: unknown[] = []) => {
      const { rows } = await db.query(text, params);
      if (!rows.length) throw new Error(`${KEPT_DB}: nothing for ${text}`);
      return rows[0] as Record<string, string>;
    };
    const ws = await one(`SELECT id FROM workspaces WHERE slug = 'bench'`);
    const me = await one(`SELECT id FROM users WHERE email = 'bench@example.com'`);
    const project = await one(`SELECT id FROM projects WHERE workspace_id = $1 AND identifier = 'BENCH'`, [ws.id]);
    const ids = (
      await db.query(
        `SELECT id FROM issues WHERE project_id = $1 AND deleted_at IS NULL AND archived_at IS NULL AND is_draft = false
         ORDER BY random() LIMIT 1000`,
        [project.id],
      )
    ).rows.map((r: { id: string }) => r.id);
    const counts = await one(
      `SELECT (SELECT count(*) FROM issues WHERE workspace_id = $1)::int AS workspace,
         (SELECT count(*) FROM issues WHERE project_id = $2)::int AS project`,
      [ws.id, project.id],
    );
    const first = await startServer({ mode: START, main: MAIN_FILE, node: NODE, env });
    let auth: { token: string; key: string };
    try {
      auth = await signIn(first.base);
    } finally {
      await first.stop();
    }
    console.log(
      `postgres: kept database ${KEPT_DB}, ${counts.workspace} work items in the workspace, ${counts.project} in project BENCH`,
    );
    const t: Target = { ...auth, slug: 'bench', workspaceId: ws.id, projectId: project.id, userId: me.id };
    return { env, t, ids, cleanup: () => console.log(`kept database ${KEPT_DB}`) };
  } finally {
    await db.end();
  }
}

/**
 * `--mix full`: another member of the project (signed up for this run: a new user each time) and
 * their Bearer token, through a server started for it and stopped.
 */
async function addPeer(env: Record<string, string>, t: Target): Promise<string> {
  const s = await startServer({ mode: START, main: MAIN_FILE, node: NODE, env });
  try {
    const name = `soak-peer-${Date.now()}`;
    const email = `${name}@example.com`;
    const up = await http(s.base, 'POST', '/auth/sign-up/', { email, password: 'soak peer password 1' });
    assert.equal(up.status, 201, up.body);
    const added = await http(
      s.base,
      'POST',
      `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/members/`,
      { email, display_name: name, role: 15 },
      { 'x-api-key': t.key },
    );
    assert.equal(added.status, 201, added.body);
    return up.json().access_token as string;
  } finally {
    await s.stop();
  }
}

async function main() {
  console.log(
    `soak bench: ${new Date().toISOString()}, ${os.cpus().length} cores, ${f0(os.totalmem() / 2 ** 30)} GiB; uptime: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const prepared = KEPT_DB
    ? await prepareKept()
    : ENGINE === 'embedded'
      ? await prepareEmbedded()
      : await preparePostgres();
  const peer = MIX === 'full' ? await addPeer(prepared.env, prepared.t) : undefined;
  const probeFile = path.join(os.tmpdir(), `meridian-mem-probe-${process.pid}.jsonl`);
  fs.rmSync(probeFile, { force: true });
  let server: Server | undefined;
  try {
    server = await startServer({
      mode: START,
      main: MAIN_FILE,
      node: NODE,
      env: { ...prepared.env, ...EXTRA_ENV, ...(PROBE ? { MEM_PROBE_FILE: probeFile } : {}) },
      nodeOptions: `${NODE_OPTIONS}${PROBE ? ` --require ${PROBE_SCRIPT}` : ''}`.trim(),
    });
    console.log(
      `server pid ${server.pid}, node ${server.node}, ready in ${f0(server.readyMs)} ms; NODE_OPTIONS as started: ${JSON.stringify(
        fs
          .readFileSync(`/proc/${server.pid}/environ`, 'utf8')
          .split('\0')
          .filter((e) => /^(NODE_OPTIONS|MALLOC_ARENA_MAX)=/.test(e)),
      )}`,
    );
    const t0 = performance.now();
    const s = sampler(server.pid, t0);
    const tallies = await mixedLoad(server.base, mix(prepared.t, prepared.ids, peer), MINUTES * 60);
    s.idle();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    s.stop();
    const probe =
      PROBE && fs.existsSync(probeFile)
        ? fs
            .readFileSync(probeFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as ProbeLine)
        : [];
    const out =
      opt('out', '') ||
      path.join(
        os.tmpdir(),
        `soak-${ENGINE}-node${server.node.split('.')[0].slice(1)}-${new Date().toISOString().slice(11, 19).replace(/:/g, '')}.json`,
      );
    report(server, s.samples, tallies, probe, out);
    console.log(
      `uptime at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server?.stop();
    fs.rmSync(probeFile, { force: true });
    await prepared.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
