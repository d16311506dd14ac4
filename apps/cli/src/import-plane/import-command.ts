import { AccessCacheModule, AppConfig, AppConfigModule, loadConfig, MeridianError } from '#common';
import { DatabaseModule, ReadyDatabase, startDatabase, withJobLimits } from '#database';
import { DomainModule } from '#domain';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { formatSummary, KINDS, PlaneImporter } from './plane-importer';
import { PlaneSource, RequestLimitReached, SourceError } from './plane-source';

export const IMPORT_USAGE = `  import plane --url URL --api-key KEY --workspace SLUG [--into SLUG] [--as EMAIL]
                             reads a workspace through Plane's External API v1 (members, projects,
                             states, labels, estimates, work items with links, comments and
                             relations, cycles, modules, intake) and writes it into a Meridian
                             workspace (--into, default the same slug; it must exist) as --as (an
                             Admin of it; default its owner). Idempotent: run it again to resume
                             after a failure; nothing is created twice. The key may come from
                             PLANE_API_KEY instead of --api-key. Progress on stderr, a summary on
                             stdout; exit 1 when something failed.`;

/** The domain without HTTP: configuration, the database and the domain's services. */
@Module({})
class ImportModule {
  static forRoot(config: AppConfig, database: ReadyDatabase): DynamicModule {
    return {
      module: ImportModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        AccessCacheModule.forRoot(),
        DomainModule,
      ],
    };
  }
}

/**
 * Where the command reads its environment and writes its output: the process's by default; a test
 * that runs the command in its own process passes its own (test/e2e/import-plane.test.ts).
 */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  /** a line of the summary (stdout) */
  out(line: string): void;
  /** a line of progress or an error (stderr) */
  err(line: string): void;
}

const PROCESS_IO: CommandIo = {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** `meridian import plane …`: see `IMPORT_USAGE`. Exit codes: 0 all done, 1 something failed, 2 usage. */
export async function importCommand(
  args: string[],
  parseOptions: (a: string[]) => Record<string, string> | null,
  io: CommandIo = PROCESS_IO,
) {
  if (args[0] !== 'plane') {
    io.err(args[0] ? `meridian: unknown import source "${args[0]}" (only "plane")` : `Usage:\n${IMPORT_USAGE}`);
    return 2;
  }
  const options = parseOptions(args.slice(1));
  const known = ['url', 'api-key', 'workspace', 'into', 'as', 'max-requests'];
  const unknown = options ? Object.keys(options).filter((k) => !known.includes(k)) : [];
  const apiKey = options?.['api-key'] ?? io.env.PLANE_API_KEY ?? '';
  const maxRequests = options?.['max-requests'];
  if (
    !options ||
    unknown.length ||
    !/^https?:\/\/\S+$/.test(options.url ?? '') ||
    !apiKey ||
    !options.workspace ||
    (maxRequests !== undefined && !/^\d+$/.test(maxRequests))
  ) {
    io.err(
      unknown.length
        ? `import plane: unknown option --${unknown[0]}`
        : `import plane needs --url (http or https), --api-key (or PLANE_API_KEY) and --workspace\n\nUsage:\n${IMPORT_USAGE}`,
    );
    return 2;
  }
  const log = (line: string) => io.err(line);
  const source = new PlaneSource({
    url: options.url,
    apiKey,
    maxRequests: maxRequests === undefined ? undefined : Number(maxRequests),
    log,
  });
  const loaded = loadConfig(io.env);
  // the command's own work only: no job runner loop (scheduled jobs, webhook deliveries, exports) in it
  const config = { ...loaded, jobs: { ...loaded.jobs, runner: false } };
  // a background job: the import's statements run under DATABASE_JOB_STATEMENT_TIMEOUT_MS
  const database = await startDatabase(withJobLimits(config));
  let context;
  try {
    context = await NestFactory.createApplicationContext(ImportModule.forRoot(config, database), { logger: false });
  } catch (err) {
    await database.close();
    throw err;
  }
  const importer = new PlaneImporter(context, source, {
    workspace: options.workspace,
    into: options.into ?? options.workspace,
    as: options.as,
    log,
  });
  const started = Date.now();
  let stopped: string | null = null;
  // a run that stalls with nothing left to wait for (a bug) must not end as a success
  const stalled = () => {
    io.err('meridian: import stopped unexpectedly (nothing left to wait for). Run it again to continue.');
    process.exit(1);
  };
  process.once('beforeExit', stalled);
  try {
    await importer.run();
  } catch (err) {
    if (err instanceof MeridianError) stopped = `${err.code}: ${err.detail}`;
    else if (err instanceof SourceError || err instanceof RequestLimitReached) stopped = err.message;
    else stopped = (err as Error)?.message ?? String(err);
  } finally {
    process.removeListener('beforeExit', stalled);
    await context.close(); // closes the database too
  }
  io.out(formatSummary(importer.summary));
  io.out(
    `${source.requests} request(s) to the source, ${source.throttled} rate-limited, ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (stopped) {
    io.err(`meridian: import stopped: ${stopped}\nRun the same command again to continue.`);
    return 1;
  }
  const failed = KINDS.reduce((n, k) => n + importer.summary[k].failed, 0);
  if (failed) io.err(`meridian: ${failed} object(s) failed (see above); run again after fixing them.`);
  return failed ? 1 : 0;
}
