import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export class DataDirLockedError extends Error {}

interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
}

const LOCK_FILE = 'meridian.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's data directory for this process. PGlite has no lock of its own
 * and a second process on the same directory silently loses writes (docs/reference/embedded-database.md §3).
 *
 * The lock is a file created with O_EXCL that names the owner's pid and host. A lock whose
 * owner is no longer running on this host is stale (a crash) and is taken over at once. Another
 * live owner raises `DataDirLockedError`. Returns the release function; it also runs on exit.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        try {
          const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
          if (owner.pid === me.pid && owner.host === me.host) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner: LockOwner | null = null;
      try {
        owner = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
      } catch {
        owner = null; // unreadable or half-written: treat as stale
      }
      if (owner && owner.host === me.host && owner.pid !== me.pid && alive(owner.pid)) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is in use by process ${owner.pid} (since ${owner.started_at}). ` +
            'Stop that process, or point DATA_DIR elsewhere, or set DATABASE_URL to use PostgreSQL.',
        );
      }
      if (owner && owner.host !== me.host) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is locked by host ${owner.host} (pid ${owner.pid}). ` +
            `If that host is gone, delete ${file}.`,
        );
      }
      fs.rmSync(file, { force: true }); // stale lock from a process that is no longer running
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${file}.`);
}
