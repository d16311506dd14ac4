import { Page, PageRequest, paginate, readInChunks } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { jobTransaction } from '../kernel/job-limits';
import { AuditLog } from './audit-log.entity';

/** Which rows a read selects; every field optional (an absent one does not filter). */
export interface AuditFilters {
  /** only this workspace's rows (a workspace Admin's read) */
  workspaceId?: string;
  /** event names (any of them) */
  events?: string[];
  actorId?: string;
  projectId?: string;
  /** created at or after */
  from?: Date;
  /** created before */
  to?: Date;
}

/** The row's size in bytes for the chunked export (its text columns plus the fixed ones). */
const ROW_WEIGHT = `COALESCE(octet_length(a.user_agent), 0) + octet_length(a.metadata::text) + 300`;

/** The session setting that lets the retention job's DELETE through the append-only trigger. */
const PURGE_SETTING = 'meridian.audit_log_purge';

/** Every query of the audit room (`audit_logs`). */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts one row with the writer's `em`, so it commits or rolls back with the change. */
  async insert(em: EntityManager, row: Omit<AuditLog, 'id' | 'createdAt'>): Promise<void> {
    await em.insert(AuditLog, row as QueryDeepPartialEntity<AuditLog>);
  }

  private filtered(filters: AuditFilters): SelectQueryBuilder<AuditLog> {
    const q = this.dataSource.getRepository(AuditLog).createQueryBuilder('a');
    if (filters.workspaceId) q.andWhere('a.workspace_id = :ws', { ws: filters.workspaceId });
    if (filters.events?.length) q.andWhere('a.event IN (:...events)', { events: filters.events });
    if (filters.actorId) q.andWhere('a.actor_id = :actor', { actor: filters.actorId });
    if (filters.projectId) q.andWhere('a.project_id = :project', { project: filters.projectId });
    if (filters.from) q.andWhere('a.created_at >= :from', { from: filters.from.toISOString() });
    if (filters.to) q.andWhere('a.created_at < :to', { to: filters.to.toISOString() });
    return q;
  }

  /** One page, newest first (keyset cursor on `created_at`, `id`). */
  page(filters: AuditFilters, page: PageRequest): Promise<Page<AuditLog>> {
    return paginate(this.filtered(filters), page, { key: 'a.createdAt', id: 'a.id', order: 'DESC' });
  }

  /** Every selected row, oldest first, in chunks of bounded size (the JSON-lines export). */
  chunks(filters: AuditFilters): AsyncGenerator<AuditLog[]> {
    return readInChunks(this.filtered(filters), {
      key: 'a.createdAt',
      id: 'a.id',
      order: 'ASC',
      weight: ROW_WEIGHT,
    });
  }

  /**
   * Deletes up to `limit` rows created before `before`, oldest first, in one transaction that sets
   * the purge setting (the only DELETE the append-only trigger lets through). Returns the count.
   */
  deleteBefore(before: Date, limit: number): Promise<number> {
    return jobTransaction(this.dataSource, async (em) => {
      await em.query(`SELECT set_config('${PURGE_SETTING}', 'on', true)`);
      const result: unknown = await em.query(
        `DELETE FROM audit_logs WHERE id IN (
           SELECT id FROM audit_logs WHERE created_at < $1::timestamptz ORDER BY created_at LIMIT $2)
         RETURNING 1 AS x`,
        [before.toISOString(), limit],
      );
      const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as unknown[];
      return rows.length;
    });
  }
}
