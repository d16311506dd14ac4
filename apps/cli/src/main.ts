import 'reflect-metadata';
import { ConfigError, loadConfig, loadDotEnv } from '#common';
import { DataDirLockedError, DatabaseUnavailableError, openDatabase, runMigrationsLocked } from '#database';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { DataSource, MigrationExecutor } from 'typeorm';

const USAGE = `Usage: meridian <command>

Commands:
  migration:run              apply pending migrations (inside the migration advisory lock)
  migration:revert           undo the most recent migration
  migration:show             list migrations and whether each is applied
  migration:generate NAME    write libs/database/src/migrations/<timestamp>-NAME.ts from entity changes

The database is chosen as the server chooses it: DATABASE_URL, else the embedded one in DATA_DIR
(stop the server first: the embedded database allows one process at a time).`;

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

async function withDataSource<T>(fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const opened = await openDatabase(loadConfig());
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
      await withDataSource((ds) => ds.undoLastMigration({ transaction: 'each' }));
      console.log('Reverted the most recent migration.');
      return 0;
    }
    case 'migration:show': {
      await withDataSource(async (ds) => {
        const executor = new MigrationExecutor(ds);
        for (const m of await executor.getExecutedMigrations()) console.log(`[X] ${m.name}`);
        for (const m of await executor.getPendingMigrations()) console.log(`[ ] ${m.name}`);
      });
      return 0;
    }
    case 'migration:generate': {
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
          '-d', path.join(ROOT, 'dist', 'ormconfig.js'),
          '--pretty',
          path.join(ROOT, 'libs', 'database', 'src', 'migrations', name),
        ],
        { stdio: 'inherit', cwd: ROOT },
      );
      return result.status ?? 1;
    }
    default:
      console.log(USAGE);
      return command ? 2 : 0;
  }
}

loadDotEnv();
run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError) {
      console.error(`meridian: ${err.message}`);
    } else {
      console.error(err);
    }
    process.exit(1);
  },
);
