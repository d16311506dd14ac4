import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The shared state of one scheduled job (`scheduled_jobs`, one row per job name), read and written
 * only by the `JobRunner`: the schedule slot last claimed (`last_slot`), the lease of the run in
 * progress (`running_until`, null when none runs), and the last run's times, outcome and result.
 * Claiming a slot is one conditional `UPDATE` of this row, so among several processes on one
 * database exactly one runs each slot (docs/jobs.md).
 */
@Entity({ name: 'scheduled_jobs' })
export class ScheduledJobState {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  /** start of the schedule slot last claimed (UTC) */
  @Column({ type: 'timestamptz', nullable: true })
  lastSlot: Date | null;

  /** while a run is in progress: when its lease ends unless renewed */
  @Column({ type: 'timestamptz', nullable: true })
  runningUntil: Date | null;

  /** `host:pid:…` of the process running it (or that ran it last) */
  @Column({ type: 'varchar', length: 200, nullable: true })
  runBy: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /** milliseconds */
  @Column({ type: 'integer', nullable: true })
  durationMs: number | null;

  /** `success`, `failure` or `interrupted` (stopped by a shutdown; the slot runs again) */
  @Column({ type: 'varchar', length: 20, nullable: true })
  outcome: string | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** what the last run reported, e.g. `{"deleted": 12}` */
  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, number> | null;

  @Column({ type: 'integer', default: 0 })
  runs: number;

  @Column({ type: 'integer', default: 0 })
  failures: number;
}
