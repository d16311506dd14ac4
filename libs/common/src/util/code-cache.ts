/**
 * The code cache of a bundle's entry point (scripts/server-entry.js: `dist/server/main.js` for the
 * server, `dist/server/cli.js` for the ops CLI), published on a global symbol by that entry point.
 * Absent under tsc's output and in the tests' in-process applications.
 */
export interface CodeCache {
  /** hit, miss, rejected or off: how this process compiled its bundle */
  state(): string;
  /** writes the cache when this process had none or V8 refused it: hit, written, unwritable or off */
  save(): string;
}

/** The entry point's code cache, when the process runs from a bundle's entry point. */
export function codeCacheOfEntry(): CodeCache | undefined {
  return (globalThis as Record<symbol, CodeCache | undefined>)[Symbol.for('meridian.codeCache')];
}
