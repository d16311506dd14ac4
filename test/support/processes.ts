import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
/** the server as `npm run start:prod` and the image start it: its bundle (scripts/bundle.js) */
export const SERVER = path.join(ROOT, 'dist', 'server', 'main.js');
/** the ops CLI as `npm run cli` and the image run it: its bundle (scripts/bundle.js) */
export const CLI = path.join(ROOT, 'dist', 'server', 'cli.js');
export const TYPEORM = require.resolve('typeorm/cli.js');

/**
 * Node's flags for the server and CLI processes the tests start: WebAssembly compiled by V8's baseline
 * compiler only (Liftoff), without the optimizing tier-up. A process that lives for one test pays
 * for optimizing PGlite's hottest functions (about 1 CPU-second a start) and ends before the faster
 * code pays it back; what the process does is the same (BENCHMARKS.md "Test suite"). Production
 * starts keep V8's default.
 */
export const TEST_NODE_FLAGS = ['--liftoff-only'];

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child: the parent's, minus database settings, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return { ...base, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env };
}

/** Runs a node script to completion (bounded by `timeoutMs`). */
export function runNode(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, ...args], { cwd: ROOT, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: node ${args.join(' ')}\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Starts the server and resolves once it logs that it listens (an `info` line: `LOG_LEVEL` is `info`
 * unless `env` says otherwise; `listeningUrl(output())` gives the address).
 */
export function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, SERVER], {
      cwd: ROOT,
      env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

export function waitExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** One stdout line of the server: a pino JSON object. */
export interface LogLine {
  level: number;
  time: number;
  pid: number;
  msg: string;
  context?: string;
  [key: string]: unknown;
}

/**
 * Parses a server's stdout as JSON lines; throws on any line that is not JSON. Lines npm prints
 * before a script (`> meridian@… start`, `> exec node …`) and blank lines are skipped.
 */
export function jsonLines(stdout: string): LogLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('> '))
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON line on stdout: ${line}`);
      }
    });
}

/** The address from the server's `listening on …` line (it reports the bound port, so PORT=0 works). */
export function listeningUrl(stdout: string): string {
  const line = jsonLines(stdout).find((l) => l.msg.startsWith('listening on'));
  if (!line || typeof line.url !== 'string') throw new Error(`no "listening on" line:\n${stdout}`);
  return line.url;
}
