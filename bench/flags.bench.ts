/**
 * Runtime flags against each other: two or more Meridian servers, differing only in their
 * NODE_OPTIONS or environment (or node binary), side by side on one PostgreSQL database
 * (`--items` work items), timed in alternating rounds (the order rotating each round) for GET one
 * and for creates, so that a busy machine weighs on them alike. Prints requests/s, p50/p99, the
 * server's CPU time per request (user + system, from /proc: what contention distorts least) and the
 * peak RSS of each server under each load.
 *
 *   npm run build
 *   node dist/bench/flags.bench.js --variant 'default' --variant 'semi 8;opts=--max-semi-space-size=8' \
 *        [--variant 'arena 2;env=MALLOC_ARENA_MAX=2'] [--rounds 4] [--seconds 5] [--connections 32] [--items 20000]
 *        [--only 'GET one']
 *   another build: `--variant 'base;main=../base/dist/server/main.js'` (the bundle of another checkout)
 *
 * Each server starts as `npm run start:prod` does (`mode=image` is the default here: the image's
 * environment, then the variant's `opts` after the image's NODE_OPTIONS, so they win). Each server's
 * pool has `--connections` connections: keep variants × connections under PostgreSQL's
 * `max_connections` (100 by default), or requests fail with "too many clients". A benchmark, not a test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import {
  benchHeader,
  cpuMs,
  median,
  opt,
  scratchDatabase,
  Server,
  setUp,
  startServer,
  statusKiB,
  variantsFromArgs,
} from './harness';
import { load, LoadRequest, LoadResult } from './load';
import { postgresSeedConnection, seedProject } from './seed';

const ROUNDS = Number(opt('rounds', '4'));
const SECONDS = Number(opt('seconds', '5'));
const CONNECTIONS = Number(opt('connections', '32'));
const ITEMS = Number(opt('items', '20000'));
/** time only the scenarios whose name contains this text (e.g. `GET one`) */
const ONLY = opt('only', '');

async function peakDuring<T>(pid: number, fn: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const take = () => (peak = Math.max(peak, statusKiB(pid, 'VmRSS') / 1024 || 0));
  const timer = setInterval(take, 250);
  try {
    const r = await fn();
    take();
    return [r, peak];
  } finally {
    clearInterval(timer);
  }
}

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');

async function main() {
  const vs = variantsFromArgs();
  if (vs.length < 2) throw new Error('give two or more --variant');
  console.log(benchHeader('flags bench'));
  const scratch = await scratchDatabase('meridian_flags');
  const env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: String(CONNECTIONS) };
  const servers: Server[] = [];
  try {
    const first = await startServer({ mode: 'image', node: process.execPath, env });
    const t = await setUp(first.base);
    const ids = await seedProject(t, first, ITEMS, () => postgresSeedConnection(env.DATABASE_URL));
    for (const v of vs)
      servers.push(
        await startServer({
          mode: v.mode,
          node: v.node,
          main: v.main,
          env: { ...env, ...v.env },
          nodeOptions: v.nodeOptions,
        }),
      );
    const headers = { 'x-api-key': t.key };
    const list = `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/`;
    const scenarios: Array<[string, number, (n: number) => LoadRequest]> = [
      ['GET one work item', 200, (n) => ({ method: 'GET', path: `${list}${ids[n % ids.length]}/`, headers })],
      [
        'POST create',
        201,
        (n) => ({ method: 'POST', path: list, headers, body: JSON.stringify({ name: `Flags ${n}` }) }),
      ],
      ['list, per_page=100', 200, () => ({ method: 'GET', path: `${list}?per_page=100`, headers })],
    ];
    const rows: string[] = [];
    for (const [scenario, ok, next] of scenarios.filter(([name]) => name.includes(ONLY))) {
      const results = vs.map(() => [] as LoadResult[]);
      const peaks = vs.map(() => 0);
      /** the server's CPU ms per request, each round (what a busy machine distorts least) */
      const cpu = vs.map(() => [] as number[]);
      for (const s of servers) await load(s.base, next, CONNECTIONS, 1, ok); // warm
      for (let r = 0; r < ROUNDS; r++) {
        for (let k = 0; k < vs.length; k++) {
          const i = (k + r) % vs.length;
          const c0 = cpuMs(servers[i].pid);
          const [res, peak] = await peakDuring(servers[i].pid, () =>
            load(servers[i].base, next, CONNECTIONS, SECONDS, ok),
          );
          cpu[i].push((cpuMs(servers[i].pid) - c0) / res.requests);
          results[i].push(res);
          peaks[i] = Math.max(peaks[i], peak);
        }
      }
      vs.forEach((v, i) => {
        const rps = results[i].map((x) => x.rps);
        const errors = results[i].reduce((s, x) => s + x.errors, 0);
        const firstError = results[i].find((x) => x.firstError)?.firstError;
        if (firstError) console.log(`  ${scenario}, ${v.label}: first error ${firstError}`);
        rows.push(
          `| ${scenario} | ${v.label} | ${f(median(rps))} (${rps.map((x) => f(x)).join(', ')}) | ${f(median(results[i].map((x) => x.p50)), 1)} / ${f(median(results[i].map((x) => x.p99)), 1)} | ${f(median(cpu[i]), 2)} | ${f(peaks[i])} | ${errors} |`,
        );
      });
      console.log(`  ${scenario} done`);
    }
    console.log(
      `\n${ROUNDS} rounds × ${SECONDS} s per variant and scenario, ${CONNECTIONS} connections, interleaved; load average at the end ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    for (const [i, v] of vs.entries())
      console.log(
        `${v.label}: node ${servers[i].node}, NODE_OPTIONS ${JSON.stringify(
          fs
            .readFileSync(`/proc/${servers[i].pid}/environ`, 'utf8')
            .split('\0')
            .filter((e) => /^(NODE_OPTIONS|MALLOC_ARENA_MAX)=/.test(e)),
        )}`,
      );
    console.log(
      '| scenario | variant | req/s, median (rounds) | p50 / p99 ms | server CPU ms per request, median | peak RSS MiB | errors |\n|---|---|---|---|---|---|---|',
    );
    console.log(rows.join('\n'));
  } finally {
    for (const s of servers) await s.stop();
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
