import * as fs from 'node:fs';
import * as path from 'node:path';

/** The project's package.json as read by `projectRoot` (its directory, name and version). */
let found: { root: string; version: string | undefined } | null | undefined;

function findProject(): { root: string; version: string | undefined } | null {
  if (found !== undefined) return found;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'meridian') return (found = { root: dir, version: pkg.version });
    }
    if (path.dirname(dir) === dir) return (found = null);
  }
}

/**
 * The project's directory: the one holding Meridian's package.json, found by walking up from this
 * file, so it is the same from the sources, from tsc's `dist/`, from the bundles (`dist/server/`)
 * and in the container image. Null when there is none above (a copied file on its own).
 */
export function projectRoot(): string | null {
  return findProject()?.root ?? null;
}

/**
 * Meridian's own version: `version` of the project's package.json (`projectRoot`), `unknown` without
 * one. Not Plane's `current_version`, which `GET /api/instances/` reports for Plane's clients.
 */
export function meridianVersion(): string {
  return findProject()?.version ?? 'unknown';
}
