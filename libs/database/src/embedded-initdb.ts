import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Whether `pgDir` holds an initialised PostgreSQL cluster. PGlite makes the same check
 * (`PG_VERSION` in the data directory) to decide between resuming and running initdb.
 */
export function isInitialisedCluster(pgDir: string): boolean {
  return fs.existsSync(path.join(pgDir, 'PG_VERSION'));
}

/**
 * Runs PGlite's initdb for a new embedded data directory in a short-lived child process, so the
 * server process never holds what initdb needs.
 *
 * Why: PGlite 0.5 runs initdb on a second, temporary PGlite instance inside the process that opens
 * a new directory. That instance's WebAssembly memory grows to several hundred MiB during the
 * bootstrap, and WebAssembly memory never shrinks: a server that started on a fresh `DATA_DIR`
 * stayed at ~850 MiB RSS until restarted, where a restart on the same directory uses ~400 MiB
 * (BENCHMARKS.md "Embedded database memory"). In a child process the memory goes back to the
 * system when it exits; the server then opens the directory as on any restart.
 *
 * The cluster is built in a sibling directory and renamed into place once complete, so a crash
 * during initdb never leaves a half-initialised `pgDir` that the next start would try to resume.
 * The caller must hold the data directory's lock. A no-op when `pgDir` is already initialised. Throws with the child's output when initdb fails.
 */
export async function initEmbeddedCluster(pgDir: string): Promise<void> {
  if (isInitialisedCluster(pgDir)) return;
  const parent = path.dirname(pgDir);
  fs.mkdirSync(parent, { recursive: true });
  // leftovers of an interrupted first start (the caller holds the data directory's lock)
  const prefix = `${path.basename(pgDir)}.initdb-`;
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(prefix)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const staging = `${pgDir}.initdb-${process.pid}`;
  try {
    await runChild(staging);
    if (!isInitialisedCluster(staging)) throw new Error(`initdb left no cluster in ${staging}`);
    // an empty pgDir (PGlite creates the directory before initdb) is replaced; a non-empty one
    // without PG_VERSION is not ours to delete, and the rename fails with ENOTEMPTY
    if (fs.existsSync(pgDir)) fs.rmdirSync(pgDir);
    fs.renameSync(staging, pgDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function runChild(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // beside this file in tsc's output and in the server's bundle (scripts/bundle.js);
    // execArgv: [] so the parent's flags (`--test`, inspector, …) are not inherited
    const child = fork(path.join(__dirname, 'embedded-initdb-child.js'), [dir], {
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`PGlite initdb failed (${signal ?? `exit code ${code}`}): ${output.trim() || 'no output'}`));
    });
  });
}
