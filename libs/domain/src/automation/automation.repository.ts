import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notInTriage } from '../issue';

/** Which automation a query is about: `archive_in` or `close_in`. */
export type AutomationKind = 'archive' | 'close';

/** The state groups whose work items each automation takes (Plane's `issue_automation_task.py`). */
export const AUTOMATION_GROUPS: Record<AutomationKind, string[]> = {
  archive: ['completed', 'cancelled'],
  close: ['backlog', 'unstarted', 'started'],
};

/**
 * The automation room's one statement: which work items the daily run takes now (a read model
 * over work items that composes the issue room's triage condition with the state, cycle and
 * module rooms' tables, read by name, and locks what it picks). The projects, their close state
 * and the writes come through the project, state and issue doors.
 */
@Injectable()
export class AutomationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Locks and returns up to `limit` work items of the project that the automation takes now, in
   * `em`'s transaction: visible (not deleted, archived, a draft or waiting in intake), in one of
   * the kind's state groups (and not already in `exceptStateId`), last updated at or before
   * `cutoff`, and in no live cycle that has not ended before `today` (a cycle without an end date
   * holds its items) and no live module whose target date is not before `today` (likewise).
   * Rows another run holds are skipped (`SKIP LOCKED`), so two runs at once share the work.
   */
  async lockDue(
    em: EntityManager,
    kind: AutomationKind,
    projectId: string,
    cutoff: Date,
    today: string,
    limit: number,
    exceptStateId: string | null = null,
  ): Promise<Array<{ id: string }>> {
    return em.query(
      `SELECT i.id FROM issues i
       WHERE i.project_id = $1 AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
         AND i.updated_at <= $2
         AND EXISTS (SELECT 1 FROM states s WHERE s.id = i.state_id AND s."group" = ANY($3::text[]))
         AND ($6::uuid IS NULL OR i.state_id <> $6::uuid)
         AND ${notInTriage('i')}
         AND NOT EXISTS (SELECT 1 FROM cycle_issues ci JOIN cycles c ON c.id = ci.cycle_id AND c.deleted_at IS NULL
                         WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL
                           AND (c.end_date IS NULL OR c.end_date >= ($4::date::timestamp AT TIME ZONE 'UTC')))
         AND NOT EXISTS (SELECT 1 FROM module_issues mi JOIN modules m ON m.id = mi.module_id AND m.deleted_at IS NULL
                         WHERE mi.issue_id = i.id AND mi.deleted_at IS NULL
                           AND (m.target_date IS NULL OR m.target_date >= $4::date))
       ORDER BY i.id LIMIT $5
       FOR UPDATE OF i SKIP LOCKED`,
      [projectId, cutoff, AUTOMATION_GROUPS[kind], today, limit, exceptStateId],
    );
  }
}
