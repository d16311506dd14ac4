import { APP_CONFIG, AppConfig, Metrics } from '#common';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
  Optional,
  SetMetadata,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { DataSource } from 'typeorm';
import { returnedRows } from './sql-result';
import { checkSchedule, currentSlot, describeSchedule, JobSchedule, nextSlot } from './schedule';

/** What a scheduled job declares (`@ScheduledJob`). */
export interface JobDefinition {
  /** Plane's task name, kebab-case: `hard-delete`; what `npm run cli -- jobs run <name>` takes */
  name: string;
  schedule: JobSchedule;
  /** one line for `jobs list` */
  description: string;
}

/** What a job's method is given. */
export interface JobContext {
  /** aborted when the process stops: a job that works in batches checks it between batches */
  signal: AbortSignal;
  /** `JOBS_BATCH_SIZE`: rows per statement */
  batchSize: number;
}

/** What a job reports: counts by name (`{deleted: 12}`), kept as the run's result; or nothing. */
export type JobResult = Record<string, number> | void;

/** A continuous worker on the runner's loop (webhook deliveries, exports). */
export interface WorkerDefinition {
  name: string;
  /** pause between rounds, in milliseconds */
  intervalMs: number;
  /** off: never polled (e.g. `WEBHOOK_WORKER=false`) */
  enabled: boolean;
  /**
   * One round: the number of items handled. When it is above 0 the next round follows at once
   * (the worker drains its queue) unless `drain` is false.
   */
  poll(signal: AbortSignal): Promise<number>;
  drain?: boolean;
}

/** One job as `jobs list` shows it. */
export interface JobStatus {
  name: string;
  description: string;
  schedule: string;
  running: boolean;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastDurationMs: number | null;
  lastOutcome: string | null;
  lastError: string | null;
  lastResult: Record<string, number> | null;
  runs: number;
  failures: number;
  /** the next slot's start; a slot missed (no process ran) is due now */
  nextRunAt: Date;
}

/** The outcome of one run. */
export interface JobRun {
  name: string;
  outcome: 'success' | 'failure' | 'interrupted';
  durationMs: number;
  error: string | null;
  result: Record<string, number> | null;
}

/** `jobs run NAME` with a name no job has. */
export class UnknownJobError extends Error {}
/** `jobs run NAME` while another process runs that job. */
export class JobBusyError extends Error {}

const SCHEDULED_JOB = Symbol('meridian:scheduled-job');

/**
 * Declares a provider method as a scheduled job: `@ScheduledJob({ name: 'hard-delete', schedule:
 * { dailyAt: '00:00' }, description: '…' }) async hardDelete(ctx: JobContext): Promise<JobResult>`.
 * The `JobRunner` finds it at start-up in whichever room's module lists the provider; the name
 * must be unique. The method must be safe to run again for the same slot (a run cut off by a
 * crash is run again once its lease ends).
 */
export const ScheduledJob = (definition: JobDefinition) => SetMetadata(SCHEDULED_JOB, definition);

type JobMethod = (ctx: JobContext) => Promise<JobResult>;
interface RegisteredJob extends JobDefinition {
  run: JobMethod;
  /** this process runs it now */
  busy: boolean;
}
interface WorkerState extends WorkerDefinition {
  busy: boolean;
  nextAt: number;
  again: boolean;
}
interface JobRow {
  name: string;
  last_slot: Date | null;
  running_until: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
  outcome: string | null;
  error: string | null;
  result: Record<string, number> | null;
  runs: number;
  failures: number;
  running: boolean;
}

/** On shutdown, how long the work in flight may finish before it is aborted (below SHUTDOWN_TIMEOUT_MS' default). */
const STOP_GRACE_MS = 3000;
/** The scrape of `/metrics` reads the jobs' rows once for all the job gauges. */
const METRICS_CACHE_MS = 1000;

/**
 * The one background loop of a process (docs/jobs.md, docs/decisions.md "One job runner"): it
 * runs the scheduled jobs (`@ScheduledJob` methods of any room) and polls the continuous workers
 * (`addWorker`: the webhook outbox, the exports) on one timer.
 *
 * Scheduled jobs: every `JOBS_POLL_INTERVAL_MS` the loop reads `scheduled_jobs` and, for each job
 * whose current slot (`currentSlot`) is later than the row's `last_slot`, claims the slot with one
 * conditional `UPDATE` that also sets a lease (`JOBS_LEASE_MS`, renewed every third of it while the
 * job runs). Of several processes on one database exactly one claims a slot; a run whose process
 * died is taken over once its lease ends; a slot missed while no process ran runs once when one
 * starts (a job's first slot is the one after the row is created). A run stopped by a shutdown
 * is recorded `interrupted` and its slot runs again. Each run's time, duration, outcome and
 * result are kept in the row, so every replica reports the same in `/metrics` and `jobs list`.
 *
 * Workers: each is polled every `intervalMs` while the previous round is not running, and at
 * once after a round that found work (`drain`) or a `kick`. They claim their own rows with leases
 * (`FOR UPDATE SKIP LOCKED` or a conditional `UPDATE`), so replicas share the work.
 *
 * With `JOBS_RUNNER=false` the process runs no loop (the CLI's `jobs run` still runs a job once).
 */
@Injectable()
export class JobRunner implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly jobs = new Map<string, RegisteredJob>();
  private readonly workers = new Map<string, WorkerState>();
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private checking = false;
  private nextCheckAt = 0;
  private rowsEnsured = false;
  private metricsRead: { at: number; rows: Promise<JobRow[]> } | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Finds the `@ScheduledJob` methods; registers the job gauges (`/metrics`). */
  onModuleInit(): void {
    this.jobs.clear();
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic() || seen.has(instance))
        continue;
      seen.add(instance);
      const proto = Object.getPrototypeOf(instance) as object;
      for (const key of this.scanner.getAllMethodNames(proto)) {
        const method = instance[key] as JobMethod;
        const def = Reflect.getMetadata(SCHEDULED_JOB, method) as JobDefinition | undefined;
        if (!def) continue;
        checkSchedule(def.schedule);
        if (this.jobs.has(def.name)) throw new Error(`two scheduled jobs are named ${def.name}`);
        this.jobs.set(def.name, { ...def, run: method.bind(instance) as JobMethod, busy: false });
      }
    }
    this.registerMetrics();
  }

  onApplicationBootstrap(): void {
    if (!this.config.jobs.runner) return;
    this.started = true;
    this.arm(0);
  }

  /**
   * Stops the loop, lets the work in flight finish for up to `STOP_GRACE_MS` (a webhook send, an
   * export batch), then aborts what is left (it is resumed elsewhere when its lease ends) and waits.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.inFlight.size) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight]),
        new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS))),
      ]);
      clearTimeout(grace);
    }
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Puts a continuous worker on the loop (call it from the worker's `onModuleInit`). */
  addWorker(def: WorkerDefinition): void {
    if (this.workers.has(def.name)) throw new Error(`two workers are named ${def.name}`);
    this.workers.set(def.name, { ...def, busy: false, nextAt: 0, again: false });
  }

  /** Polls the worker soon rather than after its interval (new work was queued by this process). */
  kick(name: string): void {
    const w = this.workers.get(name);
    if (!w || !this.started || this.stopped) return;
    if (w.busy) {
      w.again = true;
      return;
    }
    w.nextAt = 0;
    this.arm(0);
  }

  /** The registered jobs' names, in registration order. */
  names(): string[] {
    return [...this.jobs.keys()];
  }

  /**
   * Every job with its schedule, last run and next slot (`npm run cli -- jobs list`), the
   * frequent ones first, then the daily ones by time of day.
   */
  async list(now = new Date()): Promise<JobStatus[]> {
    await this.ensureRows();
    const rows = new Map((await this.readRows()).map((r) => [r.name, r]));
    // the day's order: the frequent jobs first, then the daily ones by time
    const order = (j: RegisteredJob) => ('every' in j.schedule ? '' : j.schedule.dailyAt);
    const jobs = [...this.jobs.values()].sort(
      (a, b) => order(a).localeCompare(order(b)) || a.name.localeCompare(b.name),
    );
    return jobs.map((job) => {
      const r = rows.get(job.name);
      const slot = currentSlot(job.schedule, now);
      const missed = !!r?.last_slot && new Date(r.last_slot).getTime() < slot.getTime();
      return {
        name: job.name,
        description: job.description,
        schedule: describeSchedule(job.schedule),
        running: r?.running ?? false,
        lastStartedAt: r?.started_at ?? null,
        lastFinishedAt: r?.finished_at ?? null,
        lastDurationMs: r?.duration_ms ?? null,
        lastOutcome: r?.outcome ?? null,
        lastError: r?.error ?? null,
        lastResult: r?.result ?? null,
        runs: r?.runs ?? 0,
        failures: r?.failures ?? 0,
        nextRunAt: missed ? now : nextSlot(job.schedule, now),
      };
    });
  }

  /**
   * Runs `name` now, once, in this process, outside its schedule (its slot is left alone); the
   * run is recorded as a scheduled one is. `UnknownJobError` for a name no job has;
   * `JobBusyError` while a process holds the job's lease.
   */
  async runNow(name: string): Promise<JobRun> {
    const job = this.jobs.get(name);
    if (!job) throw new UnknownJobError(`no job is named "${name}" (known: ${this.names().join(', ')})`);
    await this.ensureRows();
    const claimed = returnedRows(
      await this.dataSource.query(
        `UPDATE scheduled_jobs SET running_until = now() + $2::int * interval '1 millisecond', run_by = $3, started_at = now()
         WHERE name = $1 AND (running_until IS NULL OR running_until < now()) RETURNING name`,
        [name, this.config.jobs.leaseMs, this.owner],
      ),
    );
    if (!claimed.length) throw new JobBusyError(`job ${name} is running in another process`);
    return this.execute(job, undefined);
  }

  // ── the loop ──────────────────────────────────────────────────────────────────────────────

  private arm(delay?: number): void {
    if (!this.started || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const now = Date.now();
    let at = this.nextCheckAt;
    for (const w of this.workers.values()) if (w.enabled && !w.busy) at = Math.min(at, w.nextAt);
    this.timer = setTimeout(() => this.tick(), Math.max(0, delay ?? at - now));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    const now = Date.now();
    for (const w of this.workers.values()) if (w.enabled && !w.busy && w.nextAt <= now) this.poll(w);
    if (now >= this.nextCheckAt && !this.checking) {
      this.nextCheckAt = now + this.config.jobs.pollIntervalMs;
      this.checking = true;
      this.track(
        this.runDueJobs()
          .catch((err: unknown) => this.logger.error(`schedule check failed: ${(err as Error).message}`))
          .finally(() => (this.checking = false)),
      );
    }
    this.arm();
  }

  private poll(w: WorkerState): void {
    w.busy = true;
    w.again = false;
    this.track(
      w
        .poll(this.abort.signal)
        .catch((err: unknown) => {
          this.logger.error(`${w.name}: round failed: ${(err as Error).message}`);
          return 0;
        })
        .then((handled) => {
          w.busy = false;
          w.nextAt = w.again || (handled > 0 && w.drain !== false) ? 0 : Date.now() + w.intervalMs;
          this.arm();
        }),
    );
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** One schedule check: claims and starts each job whose current slot has not been run. */
  private async runDueJobs(): Promise<void> {
    await this.ensureRows();
    const now = new Date();
    const rows = new Map((await this.readRows()).map((r) => [r.name, r]));
    for (const job of this.jobs.values()) {
      if (job.busy || this.stopped) continue;
      const r = rows.get(job.name);
      const slot = currentSlot(job.schedule, now);
      const lastSlot = r?.last_slot ? new Date(r.last_slot) : null;
      const abandoned = !!r?.running_until && !r.running;
      const due = (!r?.running_until && (!lastSlot || lastSlot < slot)) || abandoned;
      if (!due) continue;
      const claimed = returnedRows(
        await this.dataSource.query(
          `UPDATE scheduled_jobs SET last_slot = $2::timestamptz, running_until = now() + $3::int * interval '1 millisecond',
           run_by = $4, started_at = now()
         WHERE name = $1 AND ((running_until IS NULL AND (last_slot IS NULL OR last_slot < $2::timestamptz)) OR running_until < now())
         RETURNING name`,
          [job.name, slot.toISOString(), this.config.jobs.leaseMs, this.owner],
        ),
      );
      if (!claimed.length) continue; // another process took the slot
      this.track(this.execute(job, lastSlot));
    }
  }

  /**
   * Runs a claimed job and records its run. `previousSlot`: for a scheduled run, the slot before
   * the one claimed (given back when a shutdown interrupts the run, so that the slot runs again);
   * undefined for a run by hand.
   */
  private async execute(job: RegisteredJob, previousSlot: Date | null | undefined): Promise<JobRun> {
    job.busy = true;
    const start = Date.now();
    const leaseMs = this.config.jobs.leaseMs;
    const renew = setInterval(
      () => {
        this.dataSource
          .query(
            `UPDATE scheduled_jobs SET running_until = now() + $2::int * interval '1 millisecond' WHERE name = $1 AND run_by = $3`,
            [job.name, leaseMs, this.owner],
          )
          .catch((err: unknown) => this.logger.warn(`${job.name}: lease renewal failed: ${(err as Error).message}`));
      },
      Math.max(500, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let outcome: JobRun['outcome'] = 'success';
    let error: string | null = null;
    let result: Record<string, number> | null = null;
    try {
      result = (await job.run({ signal: this.abort.signal, batchSize: this.config.jobs.batchSize })) ?? null;
      if (this.abort.signal.aborted) outcome = 'interrupted';
    } catch (err) {
      outcome = this.abort.signal.aborted ? 'interrupted' : 'failure';
      error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    } finally {
      clearInterval(renew);
      job.busy = false;
    }
    const durationMs = Date.now() - start;
    const giveBack = outcome === 'interrupted' && previousSlot !== undefined;
    try {
      await this.dataSource.query(
        `UPDATE scheduled_jobs SET running_until = NULL, finished_at = now(), duration_ms = $2, outcome = $3::varchar, error = $4,
           result = $5::jsonb, runs = runs + CASE WHEN $3::varchar = 'interrupted' THEN 0 ELSE 1 END, failures = failures + $6,
           last_slot = CASE WHEN $7::boolean THEN $8::timestamptz ELSE last_slot END
         WHERE name = $1`,
        [
          job.name,
          durationMs,
          outcome,
          error,
          result ? JSON.stringify(result) : null,
          outcome === 'failure' ? 1 : 0,
          giveBack,
          giveBack && previousSlot ? previousSlot.toISOString() : null,
        ],
      );
    } catch (err) {
      this.logger.error(`${job.name}: could not record the run: ${(err as Error).message}`);
    }
    if (outcome === 'failure') this.logger.error({ job: job.name, durationMs, error }, 'Job failed');
    else this.logger.log({ job: job.name, durationMs, outcome, result }, 'Job ran');
    return { name: job.name, outcome, durationMs, error, result };
  }

  /** One row per registered job; a new row's first slot is the one after now. */
  private async ensureRows(): Promise<void> {
    if (this.rowsEnsured || !this.jobs.size) return;
    const now = new Date();
    const jobs = [...this.jobs.values()];
    await this.dataSource.query(
      `INSERT INTO scheduled_jobs (name, last_slot)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[]) ON CONFLICT (name) DO NOTHING`,
      [jobs.map((j) => j.name), jobs.map((j) => currentSlot(j.schedule, now).toISOString())],
    );
    this.rowsEnsured = true;
  }

  private readRows(): Promise<JobRow[]> {
    return this.dataSource.query(
      `SELECT name, last_slot, running_until, started_at, finished_at, duration_ms, outcome, error, result, runs, failures,
         (running_until IS NOT NULL AND running_until >= now()) AS running
       FROM scheduled_jobs`,
    );
  }

  // ── /metrics ──────────────────────────────────────────────────────────────────────────────

  /** The jobs' rows, read once per scrape for all the job gauges. */
  private rowsForMetrics(): Promise<JobRow[]> {
    const now = Date.now();
    if (!this.metricsRead || now - this.metricsRead.at > METRICS_CACHE_MS)
      this.metricsRead = { at: now, rows: this.readRows() };
    return this.metricsRead.rows;
  }

  /**
   * The job gauges (docs/jobs.md), read from `scheduled_jobs` at each scrape, so every replica
   * reports the shared state: `meridian_job_last_run_timestamp_seconds{job}` (when the last run
   * ended, unix seconds), `meridian_job_last_duration_seconds{job}`,
   * `meridian_job_last_success{job}` (1: the last run succeeded, 0: it failed or was interrupted),
   * `meridian_job_runs{job,outcome}` (runs recorded, `success` or `failure`; interrupted runs
   * count as neither), `meridian_job_running{job}` (1 while a process holds its lease).
   */
  private registerMetrics(): void {
    const m = this.metrics;
    if (!m) return;
    const known = (rows: JobRow[]) => rows.filter((r) => this.jobs.has(r.name));
    m.gauge(
      'meridian_job_last_run_timestamp_seconds',
      'When the last run of a scheduled job ended, unix seconds',
      ['job'],
      async () =>
        known(await this.rowsForMetrics())
          .filter((r) => r.finished_at)
          .map((r) => ({ labels: { job: r.name }, value: new Date(r.finished_at!).getTime() / 1000 })),
    );
    m.gauge(
      'meridian_job_last_duration_seconds',
      'How long the last run of a scheduled job took, in seconds',
      ['job'],
      async () =>
        known(await this.rowsForMetrics())
          .filter((r) => r.duration_ms !== null)
          .map((r) => ({ labels: { job: r.name }, value: r.duration_ms! / 1000 })),
    );
    m.gauge(
      'meridian_job_last_success',
      'Whether the last run of a scheduled job succeeded (1) or not (0)',
      ['job'],
      async () =>
        known(await this.rowsForMetrics())
          .filter((r) => r.outcome)
          .map((r) => ({ labels: { job: r.name }, value: r.outcome === 'success' ? 1 : 0 })),
    );
    m.gauge(
      'meridian_job_runs',
      'Runs of a scheduled job recorded across all processes, by outcome (success, failure)',
      ['job', 'outcome'],
      async () =>
        known(await this.rowsForMetrics()).flatMap((r) => [
          { labels: { job: r.name, outcome: 'success' }, value: r.runs - r.failures },
          { labels: { job: r.name, outcome: 'failure' }, value: r.failures },
        ]),
    );
    m.gauge(
      'meridian_job_running',
      'Whether a process is running the scheduled job now (1) or not (0)',
      ['job'],
      async () =>
        known(await this.rowsForMetrics()).map((r) => ({ labels: { job: r.name }, value: r.running ? 1 : 0 })),
    );
  }
}
