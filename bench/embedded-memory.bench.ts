/**
 * Memory of the embedded database: the server's resident set (RSS) after a first start on an
 * empty `DATA_DIR` (initdb + every migration) and after a restart on the same directory.
 *
 * Each run starts `dist/server/main.js` (the server's bundle) as a child process on a new temporary directory,
 * waits until `/health` answers 200, lets it settle 2 s, reads `VmRSS` and `VmHWM` (peak) from
 * `/proc/<pid>/status` (Linux only), stops it with SIGTERM, and does the same again on that
 * directory. "ready" is the wall time from spawn to the first 200 from `/health`.
 *
 *   npm run build && node dist/bench/embedded-memory.bench.js [runs=3] [path/to/main.js]
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_SERVER = path.join(ROOT, 'server', 'main.js');

interface Sample {
  readyMs: number;
  rssMiB: number;
  peakMiB: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} for ${pid}`);
  return Number(line.replace(/\D+/g, ''));
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server not healthy within 120 s:\n${output()}`);
}

async function measure(server: string, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [server], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitHealthy(`http://127.0.0.1:${port}`, child, () => out);
    const readyMs = performance.now() - started;
    await sleep(2_000);
    const pid = child.pid!;
    return { readyMs, rssMiB: statusKiB(pid, 'VmRSS') / 1024, peakMiB: statusKiB(pid, 'VmHWM') / 1024 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

async function main() {
  const runs = Number(process.argv[2] ?? 3);
  const server = path.resolve(process.argv[3] ?? DEFAULT_SERVER);
  const fresh: Sample[] = [];
  const restart: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-mem-'));
    try {
      fresh.push(await measure(server, dir));
      restart.push(await measure(server, dir));
      console.log(
        `run ${i + 1}: fresh ${fresh[i].rssMiB.toFixed(0)} MiB (peak ${fresh[i].peakMiB.toFixed(0)}, ready ${(fresh[i].readyMs / 1000).toFixed(1)} s), ` +
          `restart ${restart[i].rssMiB.toFixed(0)} MiB (peak ${restart[i].peakMiB.toFixed(0)}, ready ${(restart[i].readyMs / 1000).toFixed(1)} s)`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\n${server}, ${runs} runs, ${os.cpus().length} cores`);
  console.log('| start | RSS after /health (median, range) | peak RSS (median) | time to /health (median, range) |');
  console.log('|---|---|---|---|');
  for (const [label, s] of [
    ['fresh DATA_DIR', fresh],
    ['restart', restart],
  ] as const) {
    const rss = s.map((x) => x.rssMiB);
    const ready = s.map((x) => x.readyMs / 1000);
    console.log(
      `| ${label} | ${median(rss).toFixed(0)} MiB (${range(rss)}) | ${median(s.map((x) => x.peakMiB)).toFixed(0)} MiB | ` +
        `${median(ready).toFixed(1)} s (${range(ready, 1)}) |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
