import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityMetadata } from 'typeorm';
import { JobContext, ScheduledJob } from './job-runner';
import { returnedRows } from './sql-result';

/**
 * The tables Plane's `hard_delete` purges first, in its order (`plane/bgtasks/deletion_task.py` at
 * v0.25.3: Workspace, Project, Cycle, Module, Issue, Page, IssueView, Label, State, IssueActivity,
 * IssueComment, IssueLink, IssueReaction, UserFavorite, ModuleIssue, CycleIssue, Estimate,
 * EstimatePoint); every other table with `deleted_at` follows, by name.
 */
const PLANE_ORDER = [
  'workspaces',
  'projects',
  'cycles',
  'modules',
  'issues',
  'pages',
  'issue_views',
  'labels',
  'states',
  'issue_activities',
  'issue_comments',
  'issue_links',
  'issue_reactions',
  'user_favorites',
  'module_issues',
  'cycle_issues',
  'estimates',
  'estimate_points',
];

/**
 * `hard-delete` (Plane's `plane.bgtasks.deletion_task.hard_delete`, daily at 00:00 UTC): purges
 * the rows soft-deleted more than `HARD_DELETE_AFTER_DAYS` days ago (Plane's default 60) from every
 * table whose entity has a soft-delete column (`deleted_at`), Plane's tables first in Plane's
 * order, then the rest, as Plane's closing loop over every model with `deleted_at` does. Each
 * table is purged `JOBS_BATCH_SIZE` rows per statement (its own transaction); the database's
 * foreign keys remove what hangs off a purged row, as Django's cascade does in Plane. A table
 * whose purge fails (a foreign key refuses it) is reported and the others are still purged; the
 * run then fails with the tables named. Reports `{deleted, tables}`.
 *
 * Generic over the entities rather than one query per room: which tables soft-delete is the
 * kernel's `BaseEntity` contract (docs/decisions.md "One job runner").
 */
@Injectable()
export class HardDeleteJob {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ScheduledJob({
    name: 'hard-delete',
    schedule: { dailyAt: '00:00' },
    description: 'purge soft-deleted rows older than HARD_DELETE_AFTER_DAYS',
  })
  async run(ctx: JobContext): Promise<{ deleted: number; tables: number }> {
    const before = new Date(Date.now() - this.config.jobs.hardDeleteAfterDays * 86_400_000).toISOString();
    let deleted = 0;
    let tables = 0;
    const failed: string[] = [];
    for (const meta of this.softDeleteTables()) {
      if (ctx.signal.aborted) break;
      try {
        const n = await this.purge(meta, before, ctx);
        deleted += n;
        if (n) tables++;
      } catch (err) {
        failed.push(`${meta.tableName}: ${(err as Error).message}`);
      }
    }
    if (failed.length) throw new Error(`purged ${deleted} rows; failed: ${failed.join('; ')}`);
    return { deleted, tables };
  }

  /** Entities with a soft-delete column: Plane's order first, then by table name. */
  private softDeleteTables(): EntityMetadata[] {
    const all = this.dataSource.entityMetadatas.filter(
      (m) => m.deleteDateColumn && m.tableType === 'regular' && m.primaryColumns.length > 0,
    );
    const rank = (m: EntityMetadata) => {
      const i = PLANE_ORDER.indexOf(m.tableName);
      return i < 0 ? PLANE_ORDER.length : i;
    };
    const seen = new Set<string>();
    return all
      .sort((a, b) => rank(a) - rank(b) || a.tableName.localeCompare(b.tableName))
      .filter((m) => !seen.has(m.tableName) && !!seen.add(m.tableName));
  }

  /** Deletes the table's rows soft-deleted before `before`, a batch per statement; how many. */
  private async purge(meta: EntityMetadata, before: string, ctx: JobContext): Promise<number> {
    const table = `"${meta.tableName}"`;
    const col = `"${meta.deleteDateColumn!.databaseName}"`;
    const keys = meta.primaryColumns.map((c) => `"${c.databaseName}"`).join(', ');
    let total = 0;
    for (;;) {
      const rows = returnedRows(
        await this.dataSource.query(
          `DELETE FROM ${table} WHERE (${keys}) IN (SELECT ${keys} FROM ${table} WHERE ${col} < $1::timestamptz LIMIT $2)
           RETURNING 1 AS x`,
          [before, ctx.batchSize],
        ),
      );
      total += rows.length;
      if (rows.length < ctx.batchSize || ctx.signal.aborted) return total;
    }
  }
}
