import type { AppConfig } from '#common';
import type { Extensions } from '@electric-sql/pglite';

/**
 * The PostgreSQL settings the embedded engine (PGlite) starts with, over its data directory's
 * `postgresql.conf`: `shared_buffers` from `EMBEDDED_SHARED_BUFFERS`.
 *
 * Why: PGlite's buffer pool lives in its WebAssembly memory, which is touched at start and never
 * given back; initdb's `shared_buffers = 128MB` made an embedded server hold about 450 MiB from its
 * first second (docs/decisions.md "The embedded engine's buffer pool"). A page that is not in the
 * pool is read from the data directory's file, which the operating system's page cache keeps.
 */
export function embeddedSettings(db: Pick<AppConfig['database'], 'embeddedSharedBuffers'>): Record<string, string> {
  return { shared_buffers: db.embeddedSharedBuffers };
}

/**
 * PGlite's `startParams`: its defaults (`PGlite.defaultStartParams`, which the option replaces)
 * followed by one `-c name=value` per setting, as `postgres -c` takes them (they win over
 * `postgresql.conf`).
 */
export function pgliteStartParams(defaults: readonly string[], settings: Record<string, string>): string[] {
  return [...defaults, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/**
 * The PostgreSQL extensions the embedded engine (PGlite) loads, for `PGlite.create({extensions})`:
 * `pg_trgm`, whose GIN indexes serve the searches' `ILIKE '%text%'` (migration `SearchTrigramIndexes`).
 * Every PGlite that opens a migrated data directory and writes work items needs them (an insert
 * updates the trigram index).
 */
export async function pgliteExtensions(): Promise<Extensions> {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}
