import { AccessCacheModule, AppConfig, AppConfigModule, loadConfig, MeridianError } from '#common';
import { DatabaseModule, ReadyDatabase, startDatabase, withJobLimits } from '#database';
import { DomainModule } from '#domain';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { formatSummary, KINDS, PlaneImporter } from './plane-importer';
import { PlaneSource, SourceError } from './plane-source';

export const IMPORT_USAGE = `  import plane --url URL --api-key KEY --workspace SLUG [--into SLUG] [--as EMAIL]
                             reads a workspace through Plane's External API v1 (members, projects,
                             states, labels, estimates, work items with links, comments and
                             relations, cycles, modules, intake) and writes it into a Meridian
                             workspace (--into, default the same slug; it must exist) as --as (an
                             Admin of it; default its owner). Idempotent: run it again to resume
                             after a failure; nothing is created twice. The key may come from
                             PLANE_API_KEY instead of --api-key. Progress on stderr, a summary on
                             stdout; exit 1 when something failed (run it again), 2 when a re-run
                             cannot help (a key the source refuses, a workspace that does not exist,
                             a URL that is not Plane's API: fix the command first).`;

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

/**
 * Why an import stopped, and whether running it again can help. A re-run cannot fix (`permanent`,
 * exit 2): the source refusing the key (401, 403), a source workspace or path it does not have (404)
 * or another 4xx it will answer the same way again, an answer that is not Plane's JSON (a wrong
 * `--url`), and Meridian refusing the target (`--into` unknown, `--as` not an Admin of it: any error
 * whose status is below 500). Everything else is transient (exit 1, "run the same command again"):
 * network errors, timeouts, 5xx and 429 still failing after the retries, `--max-requests`, the
 * database being unavailable.
 */
export function whyStopped(
  err: unknown,
  options: { workspace: string; into: string },
): { message: string; permanent: boolean; advice: string } {
  if (err instanceof SourceError) {
    const { status } = err;
    if (status === 401)
      return {
        message: err.message,
        permanent: true,
        advice: 'The source refused the API key: pass a valid key of the source (PLANE_API_KEY or --api-key).',
      };
    if (status === 403)
      return {
        message: err.message,
        permanent: true,
        advice: `The source refused the key for workspace "${options.workspace}": use the key of an Admin of that workspace, and check --workspace.`,
      };
    if (status === 404)
      return {
        message: err.message,
        permanent: true,
        advice: `The source has no such workspace or route: check --workspace ("${options.workspace}") and --url.`,
      };
    if (status < 200 || status >= 300) {
      if (status >= 400 && status < 500 && status !== 408 && status !== 429)
        return {
          message: err.message,
          permanent: true,
          advice: 'The source refuses the request as it is: a re-run gets the same answer.',
        };
      return { message: err.message, permanent: false, advice: 'Run the same command again to continue.' };
    }
    return {
      message: err.message,
      permanent: true,
      advice:
        "The source's answer is not Plane's API (JSON): check --url (the address of Plane's API, not of another site).",
    };
  }
  if (err instanceof MeridianError && err.status < 500)
    return {
      message: `${err.code}: ${err.detail}`,
      permanent: true,
      advice: `Check --into ("${options.into}": a Meridian workspace that exists) and --as (an Admin of it).`,
    };
  const message =
    err instanceof MeridianError ? `${err.code}: ${err.detail}` : ((err as Error)?.message ?? String(err));
  return { message, permanent: false, advice: 'Run the same command again to continue.' };
}

/**
 * `meridian import plane …`: see `IMPORT_USAGE`. Exit codes: 0 all done, 1 something failed (a
 * re-run continues), 2 usage, or a stop a re-run cannot fix (`whyStopped`).
 */
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
  let stopped: ReturnType<typeof whyStopped> | null = null;
  // a run that stalls with nothing left to wait for (a bug) must not end as a success
  const stalled = () => {
    io.err('meridian: import stopped unexpectedly (nothing left to wait for). Run it again to continue.');
    process.exit(1);
  };
  process.once('beforeExit', stalled);
  try {
    await importer.run();
  } catch (err) {
    stopped = whyStopped(err, { workspace: options.workspace, into: options.into ?? options.workspace });
  } finally {
    process.removeListener('beforeExit', stalled);
    await context.close(); // closes the database too
  }
  io.out(formatSummary(importer.summary));
  io.out(
    `${source.requests} request(s) to the source, ${source.throttled} rate-limited, ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (stopped) {
    io.err(`meridian: import stopped: ${stopped.message}\n${stopped.advice}`);
    return stopped.permanent ? 2 : 1;
  }
  const failed = KINDS.reduce((n, k) => n + importer.summary[k].failed, 0);
  if (failed) io.err(`meridian: ${failed} object(s) failed (see above); run again after fixing them.`);
  return failed ? 1 : 0;
}
