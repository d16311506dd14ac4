/**
 * GET one against the framework floor: Meridian, the bare server (bench/bare-server.ts: `node:http`
 * + `pg`, Meridian's SQL texts, four statements per read since it caches no access) and the stack
 * the design card fixes with nothing of Meridian's on it (bench/floor-server.ts: Express 5 alone, and
 * NestJS on `@nestjs/platform-express`, each sending the one statement Meridian sends for a read
 * once a key's access is cached). All on one PostgreSQL database, timed in alternating rounds (the
 * order rotating each round). Prints requests/s, p50/p99, the server's CPU time per request (user +
 * system, /proc) and the ratio of requests/s to the bare server's: how much of Meridian's cost per
 * read is the framework's and how much its own pipeline's (request log, authentication, access
 * checks, rate limits, headers).
 *
 *   npm run build
 *   node dist/bench/floor.bench.js [--items 2000] [--rounds 4] [--seconds 4] [--connections 16]
 *        [--variant 'label;opts=--max-semi-space-size=16'] …   (Meridian builds or flags, as in flags.bench)
 *        [--floor-flags node|meridian]
 *
 * Meridian starts as the image does (its NODE_OPTIONS and MALLOC_ARENA_MAX), the bare and floor
 * servers with Node's defaults, or with `--floor-flags meridian` with the image's runtime settings
 * too (the same heap limits for everyone: the young and old generations' sizes decide how often
 * each server collects; BENCHMARKS.md "GET one against the framework floor: guards at once").
 * A benchmark, not a test.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  benchHeader,
  cpuMs,
  imageEnv,
  median,
  opt,
  scratchDatabase,
  Server,
  setUp,
  startServer,
  variantsFromArgs,
} from './harness';
import { load, LoadRequest, LoadResult, once } from './load';
import { postgresSeedConnection, seedProject } from './seed';

const ROUNDS = Number(opt('rounds', '4'));
const SECONDS = Number(opt('seconds', '4'));
const CONNECTIONS = Number(opt('connections', '16'));
const ITEMS = Number(opt('items', '2000'));
const FLOOR_FLAGS = opt('floor-flags', 'node');
if (!['node', 'meridian'].includes(FLOOR_FLAGS)) throw new Error('--floor-flags node|meridian');

interface Target {
  label: string;
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A baseline script of this directory, started with Node's defaults (or the image's runtime
 * settings with `--floor-flags meridian`); resolves once it listens.
 */
async function baseline(label: string, script: string, env: Record<string, string>): Promise<Target> {
  const image = imageEnv();
  const flags =
    FLOOR_FLAGS === 'meridian'
      ? { NODE_OPTIONS: image.NODE_OPTIONS ?? '', MALLOC_ARENA_MAX: image.MALLOC_ARENA_MAX ?? '' }
      : { NODE_OPTIONS: '' };
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, script)], {
    env: { ...process.env, ...flags, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} exited ${code}:\n${out}`)));
  });
  return {
    label,
    base,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');

async function main() {
  const variants = variantsFromArgs('Meridian');
  console.log(benchHeader('floor bench'));
  console.log(
    `runtime flags of the bare and floor servers: ${FLOOR_FLAGS === 'meridian' ? `the image's (NODE_OPTIONS "${imageEnv().NODE_OPTIONS ?? ''}")` : "Node's defaults"}`,
  );
  const scratch = await scratchDatabase('meridian_floor');
  const db = scratch.url;
  const env = { DATABASE_URL: db, DATABASE_POOL_SIZE: String(CONNECTIONS) };
  const targets: Target[] = [];
  try {
    const first = await startServer({ mode: 'image', node: process.execPath, env });
    const t = await setUp(first.base);
    const ids = await seedProject(t, first, ITEMS, () => postgresSeedConnection(db));
    targets.push(
      await baseline('bare (node:http + pg, 4 statements)', 'bare-server.js', {
        BARE_DATABASE_URL: db,
        BARE_POOL_SIZE: String(CONNECTIONS),
      }),
    );
    for (const floor of ['express', 'nest'])
      targets.push(
        await baseline(
          floor === 'nest' ? 'floor: NestJS + Express, 1 statement' : 'floor: Express alone, 1 statement',
          'floor-server.js',
          { FLOOR: floor, FLOOR_DATABASE_URL: db, FLOOR_POOL_SIZE: String(CONNECTIONS) },
        ),
      );
    for (const v of variants) {
      const s: Server = await startServer({
        mode: v.mode,
        node: v.node,
        main: v.main,
        env: { ...env, ...v.env },
        nodeOptions: v.nodeOptions,
      });
      targets.push({ label: v.label, base: s.base, pid: s.pid, stop: () => s.stop() });
    }
    const headers = { 'x-api-key': t.key };
    const path = (id: string) => `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/${id}/`;
    const next = (n: number): LoadRequest => ({ method: 'GET', path: path(ids[n % ids.length]), headers });
    // the same bytes from every server
    const expected = await once(targets[0].base, next(0));
    assert.equal(expected.status, 200, expected.body);
    for (const s of targets.slice(1)) assert.equal((await once(s.base, next(0))).body, expected.body, s.label);

    const results = targets.map(() => [] as LoadResult[]);
    const cpu = targets.map(() => [] as number[]);
    for (const s of targets) await load(s.base, next, CONNECTIONS, 1, 200); // warm
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < targets.length; k++) {
        const i = (k + r) % targets.length;
        const c0 = cpuMs(targets[i].pid);
        const res = await load(targets[i].base, next, CONNECTIONS, SECONDS, 200);
        cpu[i].push((cpuMs(targets[i].pid) - c0) / res.requests);
        results[i].push(res);
      }
    }
    const bare = median(results[0].map((x) => x.rps));
    console.log(
      `\nGET one work item, ${ITEMS + 200} work items, ${ROUNDS} rounds × ${SECONDS} s per server, ${CONNECTIONS} connections, interleaved; load average at the end ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      '| server | req/s, median (rounds) | / bare | p50 / p99 ms | server CPU ms per request, median (rounds) | errors |\n|---|---|---|---|---|---|',
    );
    targets.forEach((s, i) => {
      const rps = results[i].map((x) => x.rps);
      const errors = results[i].reduce((n, x) => n + x.errors, 0);
      console.log(
        `| ${s.label} | ${f(median(rps))} (${rps.map((x) => f(x)).join(', ')}) | ${f(median(rps) / bare, 2)} | ${f(median(results[i].map((x) => x.p50)), 1)} / ${f(median(results[i].map((x) => x.p99)), 1)} | ${f(median(cpu[i]), 3)} (${cpu[i].map((x) => f(x, 2)).join(', ')}) | ${errors} |`,
      );
    });
  } finally {
    for (const s of targets) await s.stop();
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
