import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

/**
 * Meridian's own version: `version` of the project's package.json (found by walking up from this
 * file, so it works from the sources, from `dist/` and in the container image). Not Plane's
 * `current_version`, which `GET /api/instances/` reports for Plane's clients.
 */
export function meridianVersion(): string {
  if (cached !== undefined) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'meridian' && pkg.version) return (cached = pkg.version);
    }
    if (path.dirname(dir) === dir) return (cached = 'unknown');
  }
}
