import { Page, paginate, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { bindPositional, guestCondition, notInTriage } from '../issue';
import { jobTransaction } from '../kernel/job-limits';
import { ExporterHistory, ExportStatus } from './exporter-history.entity';

/** One exported work item: Plane's export columns, names and dates as read (`export_task.py`). */
export interface ExportRow {
  sequence_id: number;
  project_id: string;
  project__identifier: string;
  project__name: string;
  name: string;
  description_stripped: string | null;
  state__name: string | null;
  start_date: string | null;
  target_date: string | null;
  priority: string;
  created_by__first_name: string | null;
  created_by__last_name: string | null;
  /** `first last` of each assignee with both names, in name order */
  assignees: string[] | null;
  labels: string[] | null;
  cycle__name: string | null;
  cycle__start_date: Date | null;
  cycle__end_date: Date | null;
  modules: string[] | null;
  module__start_date: string | null;
  module__target_date: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  archived_at: Date | null;
}

/**
 * Who may read an export (list it, download it): its initiator, and whoever may read every work
 * item of every project in it: an active member of each (live) project, with a role above Guest or
 * in a project with `guest_view_all_features` (the read rule of `ProjectAccessGuard` plus Plane's
 * Guest rule, the same membership join the writer reads with). Stricter than Plane 0.25.3, which
 * lists every export of the workspace to every Admin and Member (docs/decisions.md, "Exports").
 * `alias` is the `exporters` row; `me` the bound caller id.
 */
function readableBy(alias: string, me: string): string {
  return `(${alias}.initiated_by_id = ${me} OR NOT EXISTS (
    SELECT 1 FROM unnest(${alias}.project) AS x(id)
    WHERE NOT EXISTS (
      SELECT 1 FROM projects rp
      JOIN project_members rpm ON rpm.project_id = rp.id AND rpm.member_id = ${me} AND rpm.is_active = true AND rpm.deleted_at IS NULL
      WHERE rp.id = x.id AND rp.workspace_id = ${alias}.workspace_id AND rp.deleted_at IS NULL
        AND (rpm.role > ${ROLE.GUEST} OR rp.guest_view_all_features = true))))`;
}

/** Work items read per statement while an export is written. */
export const EXPORT_BATCH = 500;

/**
 * All of the exporter room's SQL (Plane 0.25.3 `plane/db/models/exporter.py`,
 * `bgtasks/export_task.py`): the export history, the atomic claim of a queued export, and the
 * work items of an export read in batches by `(project, sequence_id)` (a read model over the work
 * items and what they show of other rooms, one statement per batch). Which projects an export
 * takes and the workspace's slug come through the project and workspace doors.
 */
@Injectable()
export class ExporterRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  create(values: Partial<ExporterHistory>, em?: EntityManager): Promise<ExporterHistory> {
    const repo = (em ?? this.dataSource.manager).getRepository(ExporterHistory);
    return repo.save(repo.create(values));
  }

  /**
   * The workspace's work item exports that `userId` may read (`readableBy`), newest first, with the
   * initiator.
   */
  page(workspaceId: string, userId: string, page: PageRequest): Promise<Page<ExporterHistory>> {
    const qb = this.dataSource
      .getRepository(ExporterHistory)
      .createQueryBuilder('e')
      .leftJoinAndSelect('e.initiatedBy', 'u')
      .where('e.workspace_id = :ws', { ws: workspaceId })
      .andWhere(`e.type = 'issue_exports'`)
      .andWhere(readableBy('e', ':me'), { me: userId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The workspace's export `id` if `userId` may read it (`readableBy`), else null. */
  find(workspaceId: string, id: string, userId: string): Promise<ExporterHistory | null> {
    return this.dataSource
      .getRepository(ExporterHistory)
      .createQueryBuilder('e')
      .where('e.workspace_id = :ws AND e.id = :id', { ws: workspaceId, id })
      .andWhere(readableBy('e', ':me'), { me: userId })
      .getOne();
  }

  /**
   * Claims the oldest export to write and moves it to `processing`: one still `queued`, or one
   * left `processing` without a sign of life for `leaseMs` (its runner stopped or died). Null when
   * none is waiting. Atomic (`FOR UPDATE SKIP LOCKED`): two processes never write the same export at once.
   */
  async claimNext(leaseMs: number): Promise<ExporterHistory | null> {
    const result: unknown = await this.dataSource.query(
      `UPDATE exporters SET status = 'processing', updated_at = now()
       WHERE id = (SELECT id FROM exporters WHERE deleted_at IS NULL
           AND (status = 'queued' OR (status = 'processing' AND updated_at < now() - $1::int * interval '1 millisecond'))
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id`,
      [leaseMs],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{ id: string }>;
    if (!rows.length) return null;
    return this.dataSource.getRepository(ExporterHistory).findOne({ where: { id: rows[0].id } });
  }

  /**
   * Up to `limit` exports whose file has expired: a link (`url`) and created at or before
   * `before` (Plane's `delete_old_s3_link`: `url` not null, `created_at` ≤ now − 8 days).
   */
  async expiredFiles(before: Date, limit: number): Promise<Array<{ id: string; key: string }>> {
    return this.dataSource.query(
      `SELECT id::text AS id, key FROM exporters WHERE url IS NOT NULL AND created_at <= $1::timestamptz
       ORDER BY created_at LIMIT $2`,
      [before.toISOString(), limit],
    );
  }

  /** Forgets the files of `ids` (their objects are deleted): `url` null, `key` empty. */
  async clearFiles(ids: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE exporters SET url = NULL, key = '', updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** A sign of life of an export being written (renews its lease). */
  async touch(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE exporters SET updated_at = now() WHERE id = $1`, [id]);
  }

  async finish(id: string, status: ExportStatus, values: Partial<Pick<ExporterHistory, 'key' | 'url' | 'reason'>>) {
    await this.dataSource.getRepository(ExporterHistory).update({ id }, { status, ...values });
  }

  /**
   * One batch of the project's work items after `afterSequence`, by sequence id: not deleted, not
   * drafts, not waiting in intake (archived ones included, as Plane's export); a project Guest's
   * under the Guest rule. At most `EXPORT_BATCH` rows; the caller reads until a batch is short.
   * Under the background jobs' limits (`jobTransaction`), not a request's: an export of a large
   * project waits or reads as long as `DATABASE_JOB_STATEMENT_TIMEOUT_MS` allows.
   */
  batch(projectId: string, userId: string, afterSequence: number): Promise<ExportRow[]> {
    const params: unknown[] = [projectId, afterSequence, userId];
    const guest = guestCondition(userId, bindPositional(params));
    return jobTransaction(this.dataSource, (em) =>
      em.query(
        `SELECT i.sequence_id, i.project_id::text AS project_id, p.identifier AS project__identifier, p.name AS project__name,
         i.name, i.description_stripped, s.name AS state__name, i.start_date::text AS start_date, i.target_date::text AS target_date,
         i.priority, cu.first_name AS created_by__first_name, cu.last_name AS created_by__last_name,
         (SELECT array_agg(u.first_name || ' ' || u.last_name ORDER BY u.first_name, u.last_name)
            FROM issue_assignees ia JOIN users u ON u.id = ia.assignee_id
            WHERE ia.issue_id = i.id AND u.first_name <> '' AND u.last_name <> '') AS assignees,
         (SELECT array_agg(l.name ORDER BY l.name) FROM issue_labels il JOIN labels l ON l.id = il.label_id AND l.deleted_at IS NULL
            WHERE il.issue_id = i.id) AS labels,
         c.name AS cycle__name, c.start_date AS cycle__start_date, c.end_date AS cycle__end_date,
         mods.names AS modules, mods.start_date AS module__start_date, mods.target_date AS module__target_date,
         i.created_at, i.updated_at, i.completed_at, i.archived_at
       FROM issues i
       JOIN projects p ON p.id = i.project_id
       JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $3 AND pm.is_active = true AND pm.deleted_at IS NULL
       LEFT JOIN states s ON s.id = i.state_id
       LEFT JOIN users cu ON cu.id = i.created_by_id
       LEFT JOIN cycle_issues ci ON ci.issue_id = i.id AND ci.deleted_at IS NULL
       LEFT JOIN cycles c ON c.id = ci.cycle_id AND c.deleted_at IS NULL
       LEFT JOIN LATERAL (
         SELECT array_agg(m.name ORDER BY m.name) AS names, (array_agg(m.start_date::text ORDER BY m.name))[1] AS start_date,
                (array_agg(m.target_date::text ORDER BY m.name))[1] AS target_date
         FROM module_issues mi JOIN modules m ON m.id = mi.module_id AND m.deleted_at IS NULL
         WHERE mi.issue_id = i.id AND mi.deleted_at IS NULL
       ) mods ON true
       WHERE i.project_id = $1 AND i.deleted_at IS NULL AND i.is_draft = false AND ${notInTriage('i')}
         AND i.sequence_id > $2 AND (pm.role > ${ROLE.GUEST} OR ${guest})
       ORDER BY i.sequence_id
       LIMIT ${EXPORT_BATCH}`,
        params,
      ),
    );
  }
}
