import { AccessCacheModule, AppConfig, AppConfigModule, loadConfig } from '#common';
import { DatabaseModule, ReadyDatabase, startDatabase, withJobLimits } from '#database';
import { DomainModule, JobBusyError, JobRunner, JobStatus, UnknownJobError } from '#domain';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

export const JOBS_USAGE = `  jobs list                  the scheduled jobs (docs/jobs.md): name, schedule, last run (when it
                             ended, how long it took, its outcome and result), next run
  jobs run NAME              runs the job NAME now, once, in this process (as a scheduled run is
                             recorded; its schedule is left alone); exit 0 when it succeeded, 1
                             when it failed or another process is running it, 2 for an unknown NAME`;

/** The domain without HTTP and without the runner's loop: only what the command asks runs. */
@Module({})
class JobsModule {
  static forRoot(config: AppConfig, database: ReadyDatabase): DynamicModule {
    return {
      module: JobsModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        AccessCacheModule.forRoot(),
        DomainModule,
      ],
    };
  }
}

/** Where the command writes (the process's stdout and stderr by default). */
export interface JobsIo {
  out(line: string): void;
  err(line: string): void;
}

const PROCESS_IO: JobsIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

const iso = (d: Date | null) => (d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

function lastRun(j: JobStatus): string {
  if (j.running) return 'running';
  if (!j.lastOutcome) return 'never';
  const result = j.lastResult ? ' ' + JSON.stringify(j.lastResult) : '';
  const error = j.lastError ? ` (${j.lastError.split('\n')[0].slice(0, 120)})` : '';
  return `${iso(j.lastFinishedAt)} ${j.lastOutcome} in ${j.lastDurationMs ?? 0} ms${result}${error}`;
}

/**
 * `meridian jobs list` and `meridian jobs run NAME` (see `JOBS_USAGE`). Exit codes: 0 done (or the
 * job succeeded), 1 the job failed or is running elsewhere, 2 usage or an unknown job name.
 */
export async function jobsCommand(args: string[], io: JobsIo = PROCESS_IO): Promise<number> {
  const [sub, name, ...rest] = args;
  if ((sub !== 'list' && sub !== 'run') || (sub === 'list' && name) || (sub === 'run' && (!name || rest.length))) {
    io.err(
      sub && sub !== 'list' && sub !== 'run' ? `meridian: unknown command "jobs ${sub}"` : `Usage:\n${JOBS_USAGE}`,
    );
    return 2;
  }
  const loaded = withJobLimits(loadConfig());
  const config = { ...loaded, jobs: { ...loaded.jobs, runner: false } };
  const database = await startDatabase(config);
  let context;
  try {
    context = await NestFactory.createApplicationContext(JobsModule.forRoot(config, database), { logger: false });
  } catch (err) {
    await database.close();
    throw err;
  }
  try {
    const runner = context.get(JobRunner, { strict: false });
    if (sub === 'list') {
      const jobs = await runner.list();
      const rows = [
        ['NAME', 'SCHEDULE', 'LAST RUN', 'NEXT RUN'],
        ...jobs.map((j) => [j.name, j.schedule, lastRun(j), iso(j.nextRunAt)]),
      ];
      const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
      for (const r of rows) io.out(r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('  '));
      return 0;
    }
    try {
      const run = await runner.runNow(name);
      const result = run.result ? ' ' + JSON.stringify(run.result) : '';
      if (run.outcome === 'success') {
        io.out(`${run.name}: success in ${run.durationMs} ms${result}`);
        return 0;
      }
      io.err(`meridian: ${run.name}: ${run.outcome} after ${run.durationMs} ms: ${run.error ?? ''}`);
      return 1;
    } catch (err) {
      if (err instanceof UnknownJobError) {
        io.err(`meridian: ${err.message}`);
        return 2;
      }
      if (err instanceof JobBusyError) {
        io.err(`meridian: ${err.message}`);
        return 1;
      }
      throw err;
    }
  } finally {
    await context.close(); // closes the database too
  }
}
