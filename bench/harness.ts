/**
 * What the soak and start-up benches share: starting Meridian the way its users start it
 * (`npm run start:prod`, `npm start`, or `node dist/server/main.js` with the container
 * image's environment), reading a process's memory and CPU from `/proc` (Linux only), and the
 * instance set-up every scenario needs (admin, user, workspace, API key, project).
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createServer as createNetServer } from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { once } from './load';
import type { SeedTarget } from './seed';

export const ROOT = path.resolve(__dirname, '..', '..');
/** the server's bundle (scripts/bundle.js): what `npm run start:prod`, `npm start` and the image run */
export const MAIN = path.join(ROOT, 'dist', 'server', 'main.js');

/**
 * How the server is started:
 * - `start:prod`: `npm run start:prod` (the production command in the README);
 * - `npm-start`: `npm start` (compiles first when dist/ is stale, then runs the server in-process);
 * - `image`: `node dist/server/main.js` with the environment the Dockerfile's `ENV` sets
 *   (NODE_OPTIONS, MALLOC_ARENA_MAX, …), as the container runs it.
 */
export type StartMode = 'start:prod' | 'npm-start' | 'image';

/** The `ENV` variables of the Dockerfile's runtime stage (the container's environment), but for paths and ports. */
export function imageEnv(): Record<string, string> {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = text.slice(text.lastIndexOf('FROM '));
  const env: Record<string, string> = {};
  // ENV A=1 \ B="x y" (continued lines)
  for (const m of runtime.matchAll(/^ENV\s+((?:[^\n]*\\\n)*[^\n]*)/gm)) {
    const body = m[1].replace(/\\\n/g, ' ');
    for (const kv of body.matchAll(/([A-Z_][A-Z0-9_]*)=("([^"]*)"|\S+)/g)) env[kv[1]] = kv[3] ?? kv[2];
  }
  for (const k of ['HOST', 'PORT', 'DATA_DIR']) delete env[k];
  return env;
}

export interface StartOptions {
  mode: StartMode;
  /** the server's entry point with `image` (another build's, to compare); default this checkout's */
  main?: string;
  /** the node binary: its directory goes first on PATH, so npm's scripts run it too */
  node: string;
  env: Record<string, string>;
  /** extra NODE_OPTIONS, after the start command's own (so they win) */
  nodeOptions?: string;
  /** wait for the first 200 on /health (else: for the "listening" line) */
  health?: boolean;
  timeoutMs?: number;
}

export interface Server {
  /** the launcher (npm, or the server itself) */
  child: ChildProcess;
  /** the server process (from its log lines' `pid`) */
  pid: number;
  base: string;
  /** ms from spawn to the first 200 on /health (or to "listening") */
  readyMs: number;
  /** user + system CPU ms of the server process when it was ready */
  readyCpuMs: number;
  /** its resident set (MiB) then */
  readyRssMiB: number;
  /** the server's own account of its start (the `startup_ms` of its "listening" line) */
  phases: Record<string, number>;
  /** how the bundle was compiled (`code_cache` of that line: hit, miss, rejected, off; '-' under tsc's output) */
  codeCache: string;
  /** what the server's "starting" line says: node version and heap limit */
  node: string;
  heapLimitMiB: number;
  output(): string;
  stop(): Promise<void>;
}

/** A port free right now (the server's start-up line names the configured port, so 0 will not do). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A process's `/proc/<pid>/status` field in KiB (VmRSS, VmHWM, RssAnon, RssFile, …); NaN when gone. */
export function statusKiB(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/**
 * The address a started server prints in its `listening on http://…` line (stdout or stderr), and
 * what it printed (the first 20 kB, still gathered afterwards: start-up fields are read from it).
 * Rejects when the process exits first or after `timeoutMs`, with that output.
 */
export function listeningOn(child: ChildProcess, timeoutMs: number): Promise<{ url: string; output(): string }> {
  let out = '';
  const output = () => out;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      if (out.length < 20_000) out += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
}

/** User + system CPU time of a process, in ms (`/proc/<pid>/stat`, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function serverEnv(opts: StartOptions, port: number): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'npm_config_prefix']) delete base[k];
  const env: NodeJS.ProcessEnv = {
    ...base,
    ...(opts.mode === 'image' ? imageEnv() : {}),
    NODE_ENV: 'production',
    SECRET_KEY: 'b'.repeat(64),
    HOST: '127.0.0.1',
    API_KEY_RATE_LIMIT: '100000000/minute',
    ...opts.env,
    PORT: String(port),
    PATH: `${path.dirname(opts.node)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  if (opts.nodeOptions) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${opts.nodeOptions}`.trim();
  return env;
}

export async function startServer(opts: StartOptions): Promise<Server> {
  const port = await freePort();
  const env = serverEnv(opts, port);
  const [cmd, args] =
    opts.mode === 'image'
      ? [opts.node, [opts.main ?? MAIN]]
      : ['npm', ['run', '--silent', opts.mode === 'start:prod' ? 'start:prod' : 'start']];
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<{ base: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within the timeout:\n${out}`)),
      opts.timeoutMs ?? 180_000,
    );
    // after the "listening" line the server's output is only kept (the first 200 kB, for errors): its
    // request log is drained without being scanned, so that reading it costs the machine as little as
    // any log reader would (it shares the cores with the server under test)
    const keep = (d: Buffer) => {
      if (out.length < 200_000) out += d;
    };
    const onData = (d: Buffer) => {
      keep(d);
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData).on('data', keep);
        child.stderr!.off('data', onData).on('data', keep);
        const line = out.split('\n').find((l) => l.includes('listening on'))!;
        resolve({ base: m[1], pid: (JSON.parse(line) as { pid: number }).pid });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  if (opts.health !== false) {
    for (;;) {
      const res = await once(listening.base, { method: 'GET', path: '/health', headers: {} }).catch(() => ({
        status: 0,
      }));
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const readyMs = performance.now() - t0;
  const readyCpuMs = cpuMs(listening.pid);
  const readyRssMiB = statusKiB(listening.pid, 'VmRSS') / 1024;
  const startingLine = out.split('\n').find((l) => l.includes('"heap_limit_mib"'));
  const starting = startingLine ? (JSON.parse(startingLine) as { node: string; heap_limit_mib: number }) : undefined;
  const phases = JSON.parse(/"startup_ms":(\{[^}]*\})/.exec(out)?.[1] ?? '{}') as Record<string, number>;
  const codeCache = /"code_cache":"(\w+)"/.exec(out)?.[1] ?? '-';
  const pid = listening.pid;
  return {
    child,
    pid,
    base: listening.base,
    readyMs,
    readyCpuMs,
    readyRssMiB,
    phases,
    codeCache,
    node: starting?.node ?? '?',
    heapLimitMiB: starting?.heap_limit_mib ?? NaN,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await exited;
    },
  };
}

export async function http(
  base: string,
  method: 'GET' | 'POST' | 'PATCH',
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await once(base, {
    method,
    path: p,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.body, json: () => JSON.parse(res.body) };
}

/** Instance set-up (the first admin), a user, a workspace, an API key and a project: the target of every scenario. */
export async function setUp(base: string): Promise<Omit<SeedTarget, 'base'>> {
  const claim = await http(base, 'POST', '/api/instances/admins/sign-up/', {
    email: 'bench-admin@example.com',
    password: 'bench admin password 1',
    first_name: 'Bench',
    company_name: 'Bench',
  });
  assert.ok(claim.status === 200 || claim.status === 201, claim.body);
  const signUp = await http(base, 'POST', '/auth/sign-up/', {
    email: 'bench@example.com',
    password: 'bench password 123',
  });
  assert.equal(signUp.status, 201, signUp.body);
  const token = signUp.json().access_token as string;
  const userId = signUp.json().user.id as string;
  const auth = { authorization: `Bearer ${token}` };
  const ws = await http(base, 'POST', '/api/workspaces/', { name: 'Bench', slug: 'bench' }, auth);
  assert.equal(ws.status, 201, ws.body);
  const key = await http(base, 'POST', '/api/workspaces/bench/api-tokens/', { label: 'bench' }, auth);
  assert.equal(key.status, 201, key.body);
  const apiKey = key.json().token as string;
  const project = await http(
    base,
    'POST',
    '/api/v1/workspaces/bench/projects/',
    { name: 'Bench', identifier: 'BENCH' },
    { 'x-api-key': apiKey },
  );
  assert.equal(project.status, 201, project.body);
  return { key: apiKey, slug: 'bench', workspaceId: ws.json().id, projectId: project.json().id, userId, token };
}

/**
 * The bench user's Bearer token and a new API key, on a database `setUp` prepared earlier (a kept
 * one: bench@example.com signs in again, workspace `bench`).
 */
export async function signIn(base: string): Promise<{ token: string; key: string }> {
  const res = await http(base, 'POST', '/auth/sign-in/', {
    email: 'bench@example.com',
    password: 'bench password 123',
  });
  assert.equal(res.status, 200, res.body);
  const token = res.json().access_token as string;
  const key = await http(
    base,
    'POST',
    '/api/workspaces/bench/api-tokens/',
    { label: `bench ${Date.now()}` },
    { authorization: `Bearer ${token}` },
  );
  assert.equal(key.status, 201, key.body);
  return { token, key: key.json().token as string };
}

/** A bench's first line: its name, the time, the cores and the load averages (the machine is shared). */
export function benchHeader(bench: string): string {
  return `${bench}: ${new Date().toISOString()}, ${os.cpus().length} cores; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
}

/**
 * A new database `<prefix>_<pid>` on the PostgreSQL server of `BENCH_DATABASE_URL` (default the
 * local one), its URL, and `drop()`, which drops it (connections and all) and disconnects.
 */
export async function scratchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  // a connection per statement: an idle one held for the whole run may be ended by the server meanwhile
  const asAdmin = async (sql: string) => {
    const admin = new Client({ connectionString: adminUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  const name = `${prefix}_${process.pid}`;
  await asAdmin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `--name value` from argv, else the fallback. */
export function opt(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** One `--variant` of the start-up and flags benches: what starts, how, with which environment. */
export interface Variant {
  label: string;
  /** the node binary */
  node: string;
  /** the server's entry point (with `mode` `image`) */
  main: string;
  mode: StartMode;
  /** extra NODE_OPTIONS */
  nodeOptions: string;
  env: Record<string, string>;
}

/**
 * The `--variant 'label;node=…;main=…;mode=…;opts=…;env=K=V,K2=V2'` arguments (each key optional:
 * this node, this build's server, `image`, none), or `fallback` alone when none is given.
 */
export function variantsFromArgs(fallback?: string): Variant[] {
  const specs: string[] = [];
  process.argv.forEach((a, i) => a === '--variant' && specs.push(process.argv[i + 1]));
  if (!specs.length && fallback) specs.push(fallback);
  return specs.map((spec) => {
    const [label, ...parts] = spec.split(';');
    const kv = Object.fromEntries(parts.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
    return {
      label,
      node: path.resolve(kv.node ?? process.execPath),
      main: path.resolve(kv.main ?? MAIN),
      mode: (kv.mode ?? 'image') as StartMode,
      nodeOptions: kv.opts ?? '',
      env: Object.fromEntries(
        (kv.env ?? '')
          .split(',')
          .filter(Boolean)
          .map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
      ),
    };
  });
}
