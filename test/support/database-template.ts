import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';

/**
 * A migrated database that `npm test` (scripts/test.js) builds once per run, and from which every
 * `startTestApp` copies its database instead of running all migrations again:
 *
 * - embedded: a data directory (`DATA_DIR`) whose PGlite cluster has every migration applied;
 *   a test app starts on a copy of it (PGlite has no template databases). Beside it, `empty`: a
 *   cluster just out of initdb, no migration applied, which `freshDatabaseEnv` copies (an initdb costs
 *   about 6 CPU-seconds in a child process; a copy, a tenth of one).
 * - PostgreSQL: a database on the `TEST_DATABASE_URL` server, closed to connections
 *   (`ALLOW_CONNECTIONS false`: `CREATE DATABASE … TEMPLATE` needs a template nobody is connected to);
 *   a test app gets `CREATE DATABASE x TEMPLATE <it>`.
 *
 * The runner names the template (unique per run, so runs sharing a server do not collide), passes it
 * to the test processes in `TEST_DATABASE_TEMPLATE` (JSON), and drops it at the end. Without that
 * variable (a test file run directly with `node --test`), each test app migrates its own database.
 */
export type DatabaseTemplate =
  /**
   * `dir`: the template's DATA_DIR; `copies`: the directory the test apps' copies go in; `empty`: a
   * DATA_DIR whose cluster is initialised and unmigrated (absent in runners that predate it)
   */
  { engine: 'embedded'; dir: string; copies: string; empty?: string } | { engine: 'postgres'; name: string };

export const TEMPLATE_ENV = 'TEST_DATABASE_TEMPLATE';

/** The template handed over by the runner, when it is for the engine under test. */
export function templateFromEnv(): DatabaseTemplate | null {
  const raw = process.env[TEMPLATE_ENV];
  if (!raw) return null;
  const template = JSON.parse(raw) as DatabaseTemplate;
  const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';
  return template.engine === engine ? template : null;
}

/** `name` with the path of `base` (a PostgreSQL URL) replaced. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(base: string, text: string): Promise<void> {
  const client = new Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Creates the template: an empty database (or data directory) brought to the latest migration by
 * the server's own start-up path (`startDatabase`), then closed. Run in a process of its own
 * (`node database-template.js create <json>`), so the runner never holds PGlite's memory.
 */
export async function createTemplate(template: DatabaseTemplate, base = process.env.TEST_DATABASE_URL): Promise<void> {
  const { loadConfig } = await import('#common');
  const { initEmbeddedCluster, startDatabase } = await import('#database');
  let env: Record<string, string>;
  if (template.engine === 'postgres') {
    if (!base) throw new Error('a PostgreSQL template needs TEST_DATABASE_URL');
    await adminQuery(base, `CREATE DATABASE "${template.name}"`);
    env = { DATABASE_URL: databaseUrl(base, template.name) };
  } else {
    if (template.empty) {
      // initdb once, kept unmigrated for `freshDatabaseEnv`; the migrated template starts from a copy
      await initEmbeddedCluster(path.join(template.empty, 'pg'));
      fs.cpSync(template.empty, template.dir, { recursive: true });
    }
    env = { DATA_DIR: template.dir };
  }
  const database = await startDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }));
  await database.close();
  if (template.engine === 'postgres')
    await adminQuery(base!, `ALTER DATABASE "${template.name}" WITH ALLOW_CONNECTIONS false`);
}

export async function dropTemplate(template: DatabaseTemplate, base = process.env.TEST_DATABASE_URL): Promise<void> {
  if (template.engine === 'embedded') fs.rmSync(template.copies, { recursive: true, force: true });
  else if (base) await adminQuery(base, `DROP DATABASE IF EXISTS "${template.name}" WITH (FORCE)`);
}

/** `node database-template.js create|drop <json>`: exits 0 when done, 1 with the error on stderr. */
if (require.main === module) {
  const [command, json] = process.argv.slice(2);
  const template = JSON.parse(json) as DatabaseTemplate;
  const run =
    command === 'create'
      ? createTemplate(template)
      : command === 'drop'
        ? dropTemplate(template)
        : Promise.reject(new Error(`unknown command ${command}`));
  run.then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
