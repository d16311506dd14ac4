/**
 * The searches' statements timed inside PostgreSQL: each search of `search-scenarios.ts` is sent
 * once to a server started from tsc's output with `statement-recorder.ts`, its statements recorded;
 * then each is run with `EXPLAIN (ANALYZE, BUFFERS)` `--runs` times after one unmeasured run (a
 * named statement as the server runs it: prepared, after six runs, so with the plan PostgreSQL
 * caches), and the medians of planning and execution time are summed per search, with the buffers
 * it touched. With `--before DIR` (another checkout, built), the same for its server, the two
 * builds' statements run alternately: figures robust to the machine's load, unlike HTTP latency.
 *
 *   npm run build && node dist/bench/search-statements.js --db NAME [--before DIR] [--runs 7]
 *        [--rare zeppelin] [--substring eppeli] [--common payment] [--short e] [--only TEXT]
 *
 * A kept database of search.bench.ts or workspace.bench.ts (`BENCH_DATABASE_URL` as there; the
 * bench user bench@example.com); the key and number searched as search.bench.ts chooses them. The
 * statements counted are those that read what is searched (an `ILIKE`, the work item search's
 * `planned-each-time` comment, or the work items table), not the sign-in's or the guards' (GET
 * one sends those too).
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { benchHeader, freePort, http, listeningOn } from './harness';
import { SearchRequest, searchRequests, searchTexts } from './search-scenarios';

const ROOT = path.resolve(__dirname, '..', '..');
const RECORDER = path.join(__dirname, 'statement-recorder.js');

function sarg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const DB = sarg('db');
const BEFORE = sarg('before');
const RUNS = Number(sarg('runs') ?? 7);
const ONLY = sarg('only');

interface Statement {
  text: string;
  values: unknown[];
  named: boolean;
  planning: number[];
  execution: number[];
  buffers: number;
  prepared?: string;
}

/** Starts `root`'s server (tsc's output) on `dbUrl` with the recorder writing to `file`. */
async function start(root: string, dbUrl: string, file: string): Promise<{ base: string; child: ChildProcess }> {
  const port = String(await freePort());
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'production',
    SECRET_KEY: 'b'.repeat(64),
    HOST: '127.0.0.1',
    PORT: port,
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '1',
    RATE_LIMIT_DISABLED: 'true',
    API_KEY_RATE_LIMIT: '100000000/minute',
    NODE_OPTIONS: `--require ${RECORDER}`,
    STATEMENT_RECORD_FILE: file,
  };
  delete env.DATA_DIR;
  const child = spawn(process.execPath, [path.join(root, 'dist', 'apps', 'server', 'src', 'main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url: base } = await listeningOn(child, 180_000);
  return { base, child };
}

/** Each request sent once to `root`'s server: the statements it sent that read what is searched. */
async function record(root: string, dbUrl: string, requests: SearchRequest[]): Promise<Map<string, Statement[]>> {
  const file = path.join(os.tmpdir(), `search-statements-${process.pid}-${Date.now()}.jsonl`);
  const { base, child } = await start(root, dbUrl, file);
  try {
    const signIn = await http(base, 'POST', '/auth/sign-in/', {
      email: 'bench@example.com',
      password: 'bench password 123',
    });
    const token = signIn.json().access_token as string;
    const app = { authorization: `Bearer ${token}` };
    const key = await http(
      base,
      'POST',
      '/api/workspaces/bench/api-tokens/',
      { label: `statements ${Date.now()}` },
      app,
    );
    const v1 = { 'x-api-key': key.json().token as string };
    for (const r of requests) {
      const res = await http(base, 'GET', r.path, undefined, r.auth === 'v1' ? v1 : app);
      if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${res.body}`);
    }
  } finally {
    child.kill();
  }
  const byUrl = new Map<string, Statement[]>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const s = JSON.parse(line) as { url: string; text: string; values: unknown[]; named: boolean };
    const reads = /ILIKE|planned-each-time|"issues" "i"|FROM issues i/.test(s.text);
    if (!reads || !/^\s*(\/\*[^*]*\*\/\s*)?(SELECT|WITH)\b/i.test(s.text)) continue;
    const list = byUrl.get(s.url) ?? [];
    list.push({ ...s, planning: [], execution: [], buffers: 0 });
    byUrl.set(s.url, list);
  }
  fs.rmSync(file, { force: true });
  return byUrl;
}

const literal = (v: unknown) =>
  v === null || v === undefined
    ? 'NULL'
    : `'${(Array.isArray(v) ? `{${v.join(',')}}` : String(v)).replace(/'/g, "''")}'`;
let prepared = 0;

/** One `EXPLAIN (ANALYZE, BUFFERS)` of `s` as the server runs it; its times kept when `keep`. */
async function explain(db: Client, s: Statement, keep: boolean): Promise<void> {
  const args = s.values.map(literal).join(', ');
  if (s.named && !s.prepared) {
    s.prepared = `search_statement_${prepared++}`;
    await db.query(`PREPARE ${s.prepared} AS ${s.text}`);
    for (let i = 0; i < 6; i++) await db.query(`EXECUTE ${s.prepared}(${args})`);
  }
  const res = s.prepared
    ? await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${s.prepared}(${args})`)
    : await db.query({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, values: s.values });
  const plan = (res.rows[0] as Record<string, unknown>)['QUERY PLAN'] as Array<Record<string, unknown>>;
  if (!keep) return;
  s.planning.push(plan[0]['Planning Time'] as number);
  s.execution.push(plan[0]['Execution Time'] as number);
  const top = plan[0].Plan as Record<string, number>;
  s.buffers = top['Shared Hit Blocks'] + top['Shared Read Blocks'];
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;

function summary(list: Statement[]): string {
  const sum = (f: (s: Statement) => number) => list.reduce((n, s) => n + f(s), 0);
  return `${list.length} | ${sum((s) => median(s.planning)).toFixed(2)} | ${sum((s) => median(s.execution)).toFixed(2)} | ${sum((s) => s.buffers)}`;
}

async function main() {
  if (!DB) throw new Error('--db NAME: a kept database of search.bench.ts or workspace.bench.ts');
  console.log(benchHeader('search-statements'));
  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${DB}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const sql = async (text: string, values: unknown[] = []) => (await db.query(text, values)).rows;
    const projects = await sql(
      `SELECT p.id, p.identifier FROM projects p JOIN workspaces w ON w.id = p.workspace_id
       WHERE w.slug = 'bench' AND p.deleted_at IS NULL ORDER BY p.identifier <> 'BENCH', p.identifier`,
    );
    const keyProject = projects[1 % projects.length];
    const [{ seq }] = await sql(`SELECT max(sequence_id) / 2 AS seq FROM issues WHERE project_id = $1`, [
      keyProject.id,
    ]);
    const texts = searchTexts({
      rare: sarg('rare') ?? 'zeppelin',
      substring: sarg('substring') ?? 'eppeli',
      common: sarg('common') ?? 'payment',
      key: `${keyProject.identifier}-${seq}`,
      number: Number(seq),
      short: sarg('short') ?? 'e',
    });
    const requests = searchRequests('bench', projects[0].id as string, texts).filter(
      (r) => !ONLY || r.name.includes(ONLY),
    );
    const after = await record(ROOT, url.toString(), requests);
    const before = BEFORE ? await record(path.resolve(BEFORE), url.toString(), requests) : undefined;
    const head = `| search | statements | planning ms | execution ms | buffers |`;
    console.log(`\n${RUNS} runs each (medians, summed over a search's statements)`);
    console.log(
      before
        ? `| search | before: statements | planning ms | execution ms | buffers | after: statements | planning ms | execution ms | buffers |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|`
        : `${head}\n|---|---:|---:|---:|---:|`,
    );
    for (const r of requests) {
      const now = after.get(r.path) ?? [];
      const then = before?.get(r.path) ?? [];
      for (const s of [...then, ...now]) await explain(db, s, false);
      for (let i = 0; i < RUNS; i++) {
        for (const s of then) await explain(db, s, true);
        for (const s of now) await explain(db, s, true);
      }
      console.log(before ? `| ${r.name} | ${summary(then)} | ${summary(now)} |` : `| ${r.name} | ${summary(now)} |`);
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await db.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
