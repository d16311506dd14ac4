import * as fs from 'node:fs';
import { pgliteExtensions } from './embedded-settings';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { lockDataDir } from './data-dir-lock';
import { isInitialisedCluster } from './embedded-initdb';

/** A backup or restore that cannot be made as asked; the CLI prints the message and exits 1. */
export class BackupError extends Error {}

/** Where the embedded engine keeps its cluster inside `DATA_DIR` (as `openDatabase` does). */
function clusterDir(dataDir: string): string {
  return path.join(dataDir, 'pg');
}

/**
 * The same gzipped tar with relative member names (`PG_VERSION`, `base/1/…`). PGlite's
 * `dumpDataDir` names every member from the root of its in-memory file system (`/PG_VERSION`), which
 * `tar -x` warns about and strips, and which an archive meant to be unpacked anywhere should not
 * carry. Rewrites each ustar header's `name` and `prefix` fields without their leading slashes and
 * its checksum; the data is untouched. PGlite's `loadDataDir` (`restoreEmbedded`) reads both forms.
 */
export function withRelativeMemberNames(gzipped: Buffer): Buffer {
  const tar = gunzipSync(gzipped);
  const stripField = (header: Buffer, offset: number, length: number): boolean => {
    const field = header.subarray(offset, offset + length);
    let slashes = 0;
    while (slashes < length && field[slashes] === 0x2f) slashes++;
    if (slashes === 0) return false;
    const rest = Buffer.from(field.subarray(slashes));
    field.fill(0);
    rest.copy(field, 0);
    return true;
  };
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const ustar = header.subarray(257, 262).toString('latin1') === 'ustar';
    const prefixed = ustar && header[345] !== 0;
    const changed = prefixed ? stripField(header, 345, 155) : stripField(header, 0, 100);
    if (changed) {
      header.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
      const sum = header.reduce((n, b) => n + b, 0);
      header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return gzipSync(tar);
}

/**
 * Writes a backup of the embedded database in `dataDir` to `file`: PGlite's `dumpDataDir('gzip')`,
 * a gzipped tar of the cluster's files with relative names (`tar -tzf` lists them), readable by `restoreEmbedded` and by
 * `PGlite.create({ loadDataDir })`.
 *
 * Consistent by construction: it takes the data directory's lock first, so it refuses with
 * `DataDirLockedError` ("in use by process N") while a server runs on it, and no server can start
 * while it runs; the cluster it copies is closed, not changing. The file is written beside its
 * final name and renamed into place, so an interrupted backup never leaves a truncated file under
 * that name (an existing file is replaced only once the new one is complete). Returns its size in bytes.
 */
export async function backupEmbedded(dataDir: string, file: string): Promise<number> {
  const pgDir = clusterDir(dataDir);
  if (!isInitialisedCluster(pgDir)) {
    throw new BackupError(`There is no embedded database in ${dataDir} (no ${path.join('pg', 'PG_VERSION')}).`);
  }
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const release = lockDataDir(dataDir);
  const partial = `${target}.partial-${process.pid}`;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create({ dataDir: pgDir, extensions: await pgliteExtensions() });
    let blob: Blob;
    try {
      await pglite.exec('CHECKPOINT');
      blob = await pglite.dumpDataDir('gzip');
    } finally {
      await pglite.close();
    }
    const archive = withRelativeMemberNames(Buffer.from(await blob.arrayBuffer()));
    fs.writeFileSync(partial, archive);
    fs.renameSync(partial, target);
    return archive.length;
  } finally {
    fs.rmSync(partial, { force: true });
    release();
  }
}

/**
 * Restores a backup made by `backupEmbedded` into `dataDir`, which must hold no database yet (a new
 * or empty directory): unless `replace`, an existing cluster is refused; with `replace`, it is moved
 * aside to `pg.before-restore-<time>` (never deleted) and reported. Takes the data directory's lock
 * (refused while a server runs on it). The backup is unpacked by PGlite into a staging directory,
 * opened and checked (Meridian's migrations table is there) before it is renamed into place, so a
 * bad file leaves `dataDir` as it was. The server started on it afterwards applies any migration the
 * backup predates. Returns the directory the old cluster was moved to, if any.
 */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
  options: { replace?: boolean } = {},
): Promise<{ movedAside: string | null }> {
  const source = path.resolve(file);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new BackupError(`No backup file at ${source}.`);
  const pgDir = clusterDir(dataDir);
  const release = lockDataDir(dataDir);
  const staging = `${pgDir}.restore-${process.pid}`;
  try {
    const existing = isInitialisedCluster(pgDir);
    if (existing && !options.replace) {
      throw new BackupError(
        `${dataDir} already holds a database. Restore into a new DATA_DIR, or pass --replace to move the current one aside (it is kept as pg.before-restore-<time>).`,
      );
    }
    fs.rmSync(staging, { recursive: true, force: true });
    const { PGlite } = await import('@electric-sql/pglite');
    let pglite: InstanceType<typeof PGlite>;
    try {
      pglite = await PGlite.create({
        dataDir: staging,
        extensions: await pgliteExtensions(),
        loadDataDir: new Blob([fs.readFileSync(source)]),
      });
    } catch (err) {
      throw new BackupError(`${source} is not a backup of an embedded database: ${(err as Error).message}`);
    }
    try {
      const result = await pglite.query<{ present: boolean }>(
        `SELECT to_regclass('typeorm_migrations') IS NOT NULL AS present`,
      );
      const present = result.rows[0]?.present === true;
      if (!present)
        throw new BackupError(`${source} holds a database, but not Meridian's (no typeorm_migrations table).`);
    } finally {
      await pglite.close();
    }
    let movedAside: string | null = null;
    if (existing) {
      movedAside = `${pgDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(pgDir, movedAside);
    } else if (fs.existsSync(pgDir)) {
      fs.rmdirSync(pgDir); // an empty directory (a non-empty one without PG_VERSION is not ours: ENOTEMPTY)
    }
    fs.renameSync(staging, pgDir);
    return { movedAside };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    release();
  }
}
