import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notInTriage } from '../issue';

/** A project whose automation is on, as the daily run reads it. */
export interface AutomatedProject {
  id: string;
  workspace_id: string;
  created_by_id: string | null;
  /** months (0–12); 0 is off */
  months: number;
  default_state_id: string | null;
}

/** A state a stale work item is closed into. */
export interface CloseState {
  id: string;
  name: string;
  group: string;
}

/** Which automation a query is about: `archive_in` or `close_in`. */
export type AutomationKind = 'archive' | 'close';

/** The state groups whose work items each automation takes (Plane's `issue_automation_task.py`). */
export const AUTOMATION_GROUPS: Record<AutomationKind, string[]> = {
  archive: ['completed', 'cancelled'],
  close: ['backlog', 'unstarted', 'started'],
};

/** All of the automation feature's SQL. */
@Injectable()
export class AutomationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A page of the live, unarchived projects (in live workspaces) whose `archive_in` / `close_in`
   * is above 0, ordered by id after `afterId` (keyset).
   */
  projectsPage(kind: AutomationKind, afterId: string | null, limit: number): Promise<AutomatedProject[]> {
    const months = kind === 'archive' ? 'p.archive_in' : 'p.close_in';
    return this.dataSource.query(
      `SELECT p.id, p.workspace_id, p.created_by_id, ${months} AS months, p.default_state_id
       FROM projects p JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
       WHERE p.deleted_at IS NULL AND p.archived_at IS NULL AND ${months} > 0
         AND ($1::uuid IS NULL OR p.id > $1::uuid)
       ORDER BY p.id LIMIT $2`,
      [afterId, limit],
    );
  }

  /**
   * The state closed work items go to: the project's live `default_state`, else the project's first
   * `cancelled` state by sequence (Plane takes `State.objects.filter(group="cancelled").first()`,
   * any project's: a quirk not copied); null when the project has none.
   */
  async closeState(em: EntityManager, projectId: string, defaultStateId: string | null): Promise<CloseState | null> {
    const rows: CloseState[] = await em.query(
      `SELECT s.id, s.name, s."group" FROM states s
       WHERE s.project_id = $1 AND s.deleted_at IS NULL AND (s.id = $2::uuid OR s."group" = 'cancelled')
       ORDER BY (s.id = $2::uuid) DESC NULLS LAST, s.sequence, s.id LIMIT 1`,
      [projectId, defaultStateId],
    );
    return rows[0] ?? null;
  }

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

  /** Archives the work items on `date` (`YYYY-MM-DD`); `updated_at` moves, so the web app's delta sync sees it. */
  async archive(em: EntityManager, ids: string[], date: string): Promise<void> {
    await em.query('UPDATE issues SET archived_at = $2::date, updated_at = now() WHERE id = ANY($1::uuid[])', [
      ids,
      date,
    ]);
  }

  /** Moves the work items to `state` (`completed_at` set when it is a completed state, as a state change does). */
  async close(em: EntityManager, ids: string[], state: CloseState): Promise<void> {
    await em.query(
      `UPDATE issues SET state_id = $2, updated_at = now(),
         completed_at = CASE WHEN $3 = 'completed' THEN now() ELSE NULL END
       WHERE id = ANY($1::uuid[])`,
      [ids, state.id, state.group],
    );
  }
}
