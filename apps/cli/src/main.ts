import 'reflect-metadata';
import { codeCacheOfEntry, ConfigError, loadConfig, loadDotEnv, MeridianError, projectRoot } from '#common';
import { setUpInstance } from '#domain';
import {
  BackupError,
  backupEmbedded,
  DataDirLockedError,
  DatabaseUnavailableError,
  openDatabase,
  restoreEmbedded,
  runMigrationsLocked,
  withJobLimits,
} from '#database';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { DataSource, MigrationExecutor } from 'typeorm';
import { IMPORT_USAGE, importCommand } from './import-plane/import-command';
import { JOBS_USAGE, jobsCommand } from './jobs-command';
import { parseOptions } from './options';

const USAGE = `Usage: meridian <command>     (npm run cli -- <command>)

Commands:
  migration:run              apply pending migrations (inside the migration advisory lock)
  migration:revert           undo the most recent migration, and name it
  migration:show             every migration, oldest first: [X] applied, [ ] pending
  migration:generate NAME    write libs/database/src/migrations/<timestamp>-NAME.ts from entity changes
  admin create --email EMAIL [--first-name NAME] [--last-name NAME] [--company-name NAME]
                             the instance's first set-up, as POST /api/instances/admins/sign-up/ does:
                             creates the user (or uses the existing one with that email and password),
                             makes it the first instance admin and marks the instance set up. Works
                             once, while no instance admin exists. Applies pending migrations first.
                             The password (8 to 128 characters) comes from MERIDIAN_ADMIN_PASSWORD, or
                             is asked for when the terminal is interactive. --password PASSWORD also
                             works but shows it in the process list, the shell history and npm's echo.
  backup FILE                the embedded database (DATA_DIR) into FILE, a gzipped tar of its files;
                             refused while a server runs on DATA_DIR (stop it first: a backup is then
                             consistent). For PostgreSQL use pg_dump (README "Backups").
  restore FILE [--replace]   a backup made by \`backup\` into DATA_DIR, which must hold no database;
                             --replace moves the current one aside (DATA_DIR/pg.before-restore-<time>)
${IMPORT_USAGE}
${JOBS_USAGE}
  help, --help, -h           this text

The database is chosen as the server chooses it: DATABASE_URL, else the embedded one in DATA_DIR
(stop the server first: the embedded database allows one process at a time).`;

/** The database, under the background jobs' limits (`DATABASE_JOB_STATEMENT_TIMEOUT_MS`): every command here is one. */
async function withDataSource<T>(fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const opened = await openDatabase(withJobLimits(loadConfig()));
  const ds = new DataSource(opened.options);
  try {
    await ds.initialize();
  } catch (err) {
    await opened.close();
    throw new DatabaseUnavailableError(`Cannot connect to the database: ${(err as Error).message}`);
  }
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
    await opened.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'migration:run': {
      const applied = await withDataSource((ds) => runMigrationsLocked(ds));
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations.');
      return 0;
    }
    case 'migration:revert': {
      const reverted = await withDataSource(async (ds) => {
        const executor = new MigrationExecutor(ds);
        const before = (await executor.getExecutedMigrations()).map((m) => m.name);
        if (!before.length) return null;
        await ds.undoLastMigration({ transaction: 'each' });
        const after = new Set((await executor.getExecutedMigrations()).map((m) => m.name));
        return before.filter((name) => !after.has(name));
      });
      if (reverted === null) {
        console.error('meridian: nothing to revert: no migration is applied.');
        return 1;
      }
      console.log(reverted.length ? `Reverted ${reverted.join(', ')}.` : 'No migration was reverted.');
      return reverted.length ? 0 : 1;
    }
    case 'migration:show': {
      await withDataSource(async (ds) => {
        // one order, oldest first (by the timestamp in the name), applied or not: TypeORM answers
        // the applied ones newest first and the pending ones oldest first
        const executor = new MigrationExecutor(ds);
        const rows = [
          ...(await executor.getExecutedMigrations()).map((m) => ({ ...m, applied: true })),
          ...(await executor.getPendingMigrations()).map((m) => ({ ...m, applied: false })),
        ].sort((a, b) => a.timestamp - b.timestamp || a.name.localeCompare(b.name));
        for (const m of rows) console.log(`${m.applied ? '[X]' : '[ ]'} ${m.name}`);
      });
      return 0;
    }
    case 'migration:generate': {
      // the sources' directory, the same from tsc's output and from the bundle (dist/server/cli-bundle.js)
      const ROOT = projectRoot();
      if (!ROOT) throw new Error(`no package.json of meridian above ${__dirname}`);
      const name = args[0];
      if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
        console.error('migration:generate needs a NAME in PascalCase, for example AddLabels');
        return 2;
      }
      const result = spawnSync(
        process.execPath,
        [
          require.resolve('typeorm/cli.js'),
          'migration:generate',
          '-d',
          path.join(ROOT, 'dist', 'ormconfig.js'),
          '--pretty',
          path.join(ROOT, 'libs', 'database', 'src', 'migrations', name),
        ],
        { stdio: 'inherit', cwd: ROOT },
      );
      return result.status ?? 1;
    }
    case 'backup':
    case 'restore':
      return backupOrRestore(command, args);
    case 'admin': {
      if (args[0] !== 'create') {
        console.error(
          args[0]
            ? `meridian: unknown command "admin ${args[0]}"`
            : 'Usage: meridian admin create --email EMAIL [--first-name NAME]',
        );
        return 2;
      }
      return adminCreate(args.slice(1));
    }
    case 'import':
      return importCommand(args, parseOptions);
    case 'jobs':
      return jobsCommand(args);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      console.error(`meridian: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

/** `backup FILE` and `restore FILE [--replace]`: the embedded database only (README "Backups"). */
async function backupOrRestore(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const replace = command === 'restore' && args.includes('--replace');
  const rest = args.filter((a) => !(command === 'restore' && a === '--replace'));
  if (rest.length !== 1 || rest[0].startsWith('-')) {
    console.error(`Usage: meridian ${command === 'backup' ? 'backup FILE' : 'restore FILE [--replace]'}`);
    return 2;
  }
  const config = loadConfig();
  if (config.database.url) {
    console.error(
      `meridian: ${command} is for the embedded database; with DATABASE_URL use PostgreSQL's own tools: ` +
        (command === 'backup'
          ? 'pg_dump --format=custom --file=FILE "$DATABASE_URL"'
          : 'pg_restore --no-owner --dbname="$DATABASE_URL" FILE (into an empty database)') +
        ' (README "Backups").',
    );
    return 2;
  }
  const dataDir = config.database.dataDir;
  try {
    if (command === 'backup') {
      const bytes = await backupEmbedded(dataDir, rest[0]);
      console.log(`Backed up the embedded database in ${dataDir} to ${path.resolve(rest[0])} (${bytes} bytes).`);
    } else {
      const { movedAside } = await restoreEmbedded(dataDir, rest[0], { replace });
      if (movedAside) console.log(`The database that was in ${dataDir} is kept in ${movedAside}.`);
      console.log(
        `Restored ${path.resolve(rest[0])} into ${dataDir}. Start the server on it; it applies any newer migration.`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(`meridian: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

/** Reads one line from the terminal without echoing it (raw mode). Ctrl-C aborts with exit code 130. */
function readHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    stdin.setRawMode(true); // echo off before the prompt shows, so nothing typed after it is echoed
    process.stderr.write(prompt);
    stdin.setEncoding('utf8');
    stdin.resume();
    let value = '';
    const finish = () => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function adminCreate(args: string[]): Promise<number> {
  const options = parseOptions(args);
  const known = ['email', 'password', 'first-name', 'last-name', 'company-name'];
  const unknown = options ? Object.keys(options).filter((k) => !known.includes(k)) : [];
  const email = options?.email?.trim() ?? '';
  if (!options || unknown.length || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    console.error(
      unknown.length
        ? `admin create: unknown option --${unknown[0]}`
        : 'admin create needs --email with a valid address, and a password: set MERIDIAN_ADMIN_PASSWORD (8 to 128 characters)',
    );
    return 2;
  }
  let password = options.password ?? process.env.MERIDIAN_ADMIN_PASSWORD;
  if (options.password !== undefined) {
    console.error(
      'meridian: warning: --password is visible in the process list and shell history; prefer MERIDIAN_ADMIN_PASSWORD or the prompt.',
    );
  }
  if (password === undefined || password === '') {
    if (!process.stdin.isTTY) {
      console.error(
        'admin create needs a password: set MERIDIAN_ADMIN_PASSWORD (8 to 128 characters), or run it in a terminal to be asked.',
      );
      return 2;
    }
    password = await readHidden('Password for the instance admin: ');
    if (password.length >= 8 && (await readHidden('The same password again: ')) !== password) {
      console.error('meridian: the two passwords differ.');
      return 2;
    }
  }
  if (password.length < 8 || password.length > 128) {
    console.error('admin create: the password must have 8 to 128 characters');
    return 2;
  }
  try {
    const { user, created } = await withDataSource(async (ds) => {
      await runMigrationsLocked(ds);
      return ds.transaction((em) =>
        setUpInstance(em, {
          email,
          password,
          first_name: options['first-name'] ?? '',
          last_name: options['last-name'] ?? '',
          company_name: options['company-name'] ?? null,
        }),
      );
    });
    console.log(
      `Instance set up: ${user.email} (${created ? 'new user' : 'existing user'}) is the first instance admin.`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MeridianError) {
      console.error(`meridian: ${err.code}: ${err.detail}`);
      return 1;
    }
    throw err;
  }
}

loadDotEnv();
run(process.argv.slice(2)).then(
  (code) => {
    // a successful command's compiled functions, for the next command (scripts/server-entry.js):
    // written once after a build, silently (a read-only installation just compiles every time)
    if (code === 0) codeCacheOfEntry()?.save();
    process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError) {
      console.error(`meridian: ${err.message}`);
    } else {
      console.error(err);
    }
    process.exit(1);
  },
);
