/**
 * Start-up: time from spawn to the first 200 on `/health`, on a migrated PostgreSQL database or an
 * existing embedded database (`--items` work items, seeded once into `--data-dir` and kept), for
 * one or more variants, interleaved (each round starts every variant once, the order rotating), so
 * that a busy machine weighs on all of them alike. Reports per variant the median and range of the
 * wall time, the server process's CPU time when it answered (user + system: what a busy machine
 * inflates least), and the medians of the server's own steps (the `startup_ms` of its "listening"
 * line: `modules`, `database` and its parts, `app`, `listen`).
 *
 *   npm run build
 *   node dist/bench/startup.bench.js --engine postgres [--runs 5]
 *   node dist/bench/startup.bench.js --engine embedded --data-dir /var/tmp/meridian-100k [--items 100000]
 *   # variants: label, then what differs: node binary, server entry point (another build), start
 *   # mode, extra NODE_OPTIONS, extra env (comma-separated K=V)
 *   node dist/bench/startup.bench.js --engine postgres \
 *     --variant 'node20;node=/usr/bin/node' --variant 'node22;node=/path/to/node22' \
 *     --variant 'before;main=/tmp/base/dist/apps/server/src/main.js'
 *   # the bundle (the default entry point) against tsc's output of the same build
 *   node dist/bench/startup.bench.js --engine postgres \
 *     --variant 'bundle' --variant 'tsc;main=dist/apps/server/src/main.js'
 *
 * Default start mode `image` (`node dist/server/main.js`, the server's bundle, with the Dockerfile's
 * ENV: what the container runs, and `npm run start:prod` without npm's own start in front); `mode=start:prod`
 * measures through npm. PostgreSQL: BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres); a database `meridian_startup_<pid>` is created,
 * migrated by a first start, and dropped. A benchmark, not a test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { MAIN, median, opt, setUp, startServer, Variant, variantsFromArgs } from './harness';
import { embeddedSeedConnection, seedProject } from './seed';

const ENGINE = opt('engine', 'postgres') as 'postgres' | 'embedded';
const RUNS = Number(opt('runs', '5'));
const ITEMS = Number(opt('items', '100000'));
const DATA_DIR = opt('data-dir', '');

/** Starts `v` once on `env`'s database: wall ms, CPU ms, the server's steps. */
async function startOnce(v: Variant, env: Record<string, string>) {
  // another build: its own main.js under the image mode (npm's scripts always start this checkout's)
  if (v.main !== MAIN && v.mode !== 'image') throw new Error(`${v.label}: main= needs mode=image`);
  const server = await startServer({
    mode: v.mode,
    node: v.node,
    env: { ...env, ...v.env, LOG_LEVEL: 'info' },
    nodeOptions: v.nodeOptions,
    main: v.main,
  });
  await server.stop();
  return server;
}

async function embeddedDir(): Promise<{ env: Record<string, string>; cleanup: () => void }> {
  const dir = DATA_DIR ? path.resolve(DATA_DIR) : fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-startup-'));
  const cleanup = () => (DATA_DIR ? undefined : fs.rmSync(dir, { recursive: true, force: true }));
  const env = { DATA_DIR: dir };
  const marker = path.join(dir, 'bench-seeded.json');
  if (fs.existsSync(marker)) {
    console.log(`embedded: ${dir} (${fs.readFileSync(marker, 'utf8').trim()})`);
    return { env, cleanup };
  }
  fs.mkdirSync(dir, { recursive: true });
  const first = await startServer({ mode: 'image', node: process.execPath, env });
  const t = await setUp(first.base);
  await seedProject(t, first, ITEMS, () => embeddedSeedConnection(dir));
  fs.writeFileSync(marker, JSON.stringify({ items: ITEMS + 200, project: t.projectId }) + '\n');
  console.log(`embedded: seeded ${ITEMS + 200} work items into ${dir} (kept)`);
  return { env, cleanup };
}

async function postgresDb(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `meridian_startup_${process.pid}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString() };
  const first = await startServer({ mode: 'image', node: process.execPath, env });
  await first.stop();
  return {
    env,
    cleanup: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');

async function main() {
  const vs = variantsFromArgs('this build');
  console.log(
    `startup bench: ${new Date().toISOString()}, ${ENGINE}, ${os.cpus().length} cores; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const db = ENGINE === 'embedded' ? await embeddedDir() : await postgresDb();
  const results = new Map(vs.map((v) => [v.label, [] as Array<Awaited<ReturnType<typeof startOnce>>>]));
  try {
    // one start of each first (the page cache warm for all), not counted
    for (const v of vs) await startOnce(v, db.env);
    for (let r = 0; r < RUNS; r++) {
      for (let k = 0; k < vs.length; k++) {
        const v = vs[(k + r) % vs.length];
        const s = await startOnce(v, db.env);
        results.get(v.label)!.push(s);
        console.log(
          `  ${v.label} (${s.node}): ${f0(s.readyMs)} ms to /health, CPU ${f0(s.readyCpuMs)} ms, RSS ${f0(s.readyRssMiB)} MiB; code cache ${s.codeCache}; steps ${JSON.stringify(s.phases)}`,
        );
      }
    }
  } finally {
    await db.cleanup();
  }
  const keys = [...new Set([...results.values()].flatMap((ss) => ss.flatMap((s) => Object.keys(s.phases))))].filter(
    (k) => k !== 'total',
  );
  console.log(
    `\n${ENGINE}, ${RUNS} starts per variant, interleaved; load average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `| variant | to /health, median (range) ms | CPU ms, median | RSS MiB | code cache | ${keys.map((k) => `${k} ms`).join(' | ')} |\n|---|---|---|---|---|${keys.map(() => '---|').join('')}`,
  );
  for (const v of vs) {
    const ss = results.get(v.label)!;
    const wall = ss.map((s) => s.readyMs);
    console.log(
      `| ${v.label} | ${f0(median(wall))} (${f0(Math.min(...wall))}–${f0(Math.max(...wall))}) | ${f0(median(ss.map((s) => s.readyCpuMs)))} | ${f0(median(ss.map((s) => s.readyRssMiB)))} | ${[...new Set(ss.map((s) => s.codeCache))].join(', ')} | ${keys
        .map((k) => f0(median(ss.map((s) => s.phases[k]).filter((x) => x !== undefined))))
        .join(' | ')} |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
