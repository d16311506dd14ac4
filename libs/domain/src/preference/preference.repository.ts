import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { UserRecentVisit } from './user-recent-visit.entity';
import { WorkspaceTheme } from './workspace-theme.entity';
import { WorkspaceHomePreference } from './workspace-home-preference.entity';
import { WorkspaceUserLink } from './workspace-user-link.entity';
import { WorkspaceUserPreference } from './workspace-user-preference.entity';

/** A recent visit with what the home page shows of its entity (`entity_data`). */
export interface RecentVisitRow {
  id: string;
  entity_name: string;
  entity_identifier: string;
  visited_at: Date;
  project_id: string | null;
  i_name: string | null;
  i_state_id: string | null;
  i_priority: string | null;
  i_sequence_id: number | null;
  i_type_id: string | null;
  i_assignee_ids: string[] | null;
  p_name: string | null;
  p_identifier: string | null;
  p_logo_props: Record<string, unknown> | null;
  p_member_ids: string[] | null;
}

/** How many recent visits a user keeps per workspace (Plane's `recent_visited_task`). */
export const RECENT_VISITS_KEPT = 20;

/** All of the preference feature's SQL. */
@Injectable()
export class PreferenceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts the rows, skipping those a live row already holds (a concurrent first read). */
  async insertMissing<T extends ObjectLiteral>(target: EntityTarget<T>, rows: Array<Partial<T>>): Promise<void> {
    if (rows.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(rows as never)
      .orIgnore()
      .execute();
  }

  homePreferences(workspaceId: string, userId: string): Promise<WorkspaceHomePreference[]> {
    return this.dataSource
      .getRepository(WorkspaceHomePreference)
      .find({ where: { workspaceId, userId }, order: { sortOrder: 'DESC', key: 'ASC' } });
  }

  sidebarPreferences(workspaceId: string, userId: string): Promise<WorkspaceUserPreference[]> {
    return this.dataSource
      .getRepository(WorkspaceUserPreference)
      .find({ where: { workspaceId, userId }, order: { sortOrder: 'ASC', key: 'ASC' } });
  }

  /** The live row matching `where`, or null. */
  findOne<T extends ObjectLiteral>(target: EntityTarget<T>, where: FindOptionsWhere<T>): Promise<T | null> {
    return this.dataSource.getRepository(target).findOne({ where });
  }

  /** Inserts one row and returns it. */
  save<T extends ObjectLiteral>(target: EntityTarget<T>, row: Partial<T>): Promise<T> {
    const repo = this.dataSource.getRepository(target);
    return repo.save(repo.create(row as never) as unknown as T);
  }

  async update<T extends ObjectLiteral>(target: EntityTarget<T>, id: string, patch: Partial<T>): Promise<void> {
    await this.dataSource.getRepository(target).update(id, patch as never);
  }

  /** The owner's quick links in the workspace, newest first (Plane's ordering). */
  quickLinks(workspaceId: string, ownerId: string): Promise<WorkspaceUserLink[]> {
    return this.dataSource
      .getRepository(WorkspaceUserLink)
      .find({ where: { workspaceId, ownerId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** True when the owner has another live quick link with this URL in the workspace. */
  async quickLinkUrlTaken(workspaceId: string, ownerId: string, url: string, exceptId?: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM workspace_user_links WHERE workspace_id = $1 AND owner_id = $2 AND url = $3
        AND deleted_at IS NULL AND ($4::uuid IS NULL OR id <> $4::uuid) LIMIT 1`,
      [workspaceId, ownerId, url, exceptId ?? null],
    );
    return rows.length > 0;
  }

  /**
   * Records a visit: moves `visited_at` of the user's row for the entity, or adds one and drops
   * the oldest beyond `RECENT_VISITS_KEPT` in the workspace.
   */
  async recordVisit(
    em: EntityManager,
    v: { workspaceId: string; userId: string; entityName: string; entityIdentifier: string; projectId: string | null },
  ): Promise<void> {
    const moved = await em.query<unknown[]>(
      `UPDATE user_recent_visits SET visited_at = now(), updated_at = now()
        WHERE workspace_id = $1 AND user_id = $2 AND entity_name = $3 AND entity_identifier = $4 AND deleted_at IS NULL
        RETURNING id`,
      [v.workspaceId, v.userId, v.entityName, v.entityIdentifier],
    );
    if (Array.isArray(moved[0]) ? moved[0].length > 0 : moved.length > 0) return;
    await em
      .createQueryBuilder()
      .insert()
      .into(UserRecentVisit)
      .values({ ...v, createdById: v.userId, updatedById: v.userId })
      .orIgnore()
      .execute();
    await em.query(
      `DELETE FROM user_recent_visits WHERE id IN (
         SELECT id FROM user_recent_visits WHERE workspace_id = $1 AND user_id = $2 AND deleted_at IS NULL
         ORDER BY visited_at DESC, id DESC OFFSET ${RECENT_VISITS_KEPT})`,
      [v.workspaceId, v.userId],
    );
  }

  /**
   * The user's latest visits in the workspace (at most `RECENT_VISITS_KEPT`), newest first, of
   * entities still there in projects the user is an active member of; `entityName` keeps one kind.
   */
  recentVisits(workspaceId: string, userId: string, entityName?: string): Promise<RecentVisitRow[]> {
    return this.dataSource.query<RecentVisitRow[]>(
      `SELECT v.id, v.entity_name, v.entity_identifier, v.visited_at, v.project_id,
          i.name AS i_name, i.state_id AS i_state_id, i.priority AS i_priority, i.sequence_id AS i_sequence_id,
          i.type_id AS i_type_id,
          CASE WHEN i.id IS NULL THEN NULL ELSE
            ARRAY(SELECT a.assignee_id::text FROM issue_assignees a WHERE a.issue_id = i.id ORDER BY a.assignee_id::text COLLATE "C")
          END AS i_assignee_ids,
          p.name AS p_name, p.identifier AS p_identifier, p.logo_props AS p_logo_props,
          CASE WHEN v.entity_name = 'project' THEN
            ARRAY(SELECT pm.member_id::text FROM project_members pm JOIN users u ON u.id = pm.member_id
              WHERE pm.project_id = p.id AND pm.is_active = true AND pm.deleted_at IS NULL AND u.is_bot = false
              ORDER BY pm.member_id::text COLLATE "C")
          END AS p_member_ids
        FROM user_recent_visits v
        JOIN projects p ON p.id = v.project_id AND p.deleted_at IS NULL
        JOIN project_members me ON me.project_id = p.id AND me.member_id = v.user_id AND me.is_active = true
          AND me.deleted_at IS NULL
        LEFT JOIN issues i ON v.entity_name = 'issue' AND i.id = v.entity_identifier AND i.deleted_at IS NULL
        WHERE v.workspace_id = $1 AND v.user_id = $2 AND v.deleted_at IS NULL
          AND (v.entity_name = 'project' OR i.id IS NOT NULL)
          AND ($3::text IS NULL OR v.entity_name = $3::text)
        ORDER BY v.visited_at DESC, v.id DESC
        LIMIT ${RECENT_VISITS_KEPT}`,
      [workspaceId, userId, entityName ?? null],
    );
  }

  // ---- workspace themes

  /** The workspace's live themes, newest first. */
  themes(workspaceId: string): Promise<WorkspaceTheme[]> {
    return this.dataSource
      .getRepository(WorkspaceTheme)
      .find({ where: { workspaceId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The workspace's live theme `id`, or null. */
  theme(workspaceId: string, id: string): Promise<WorkspaceTheme | null> {
    return this.dataSource.getRepository(WorkspaceTheme).findOneBy({ id, workspaceId });
  }

  /** Inserts a theme with these fields; the saved row (a unique violation on a taken name). */
  insertTheme(fields: Partial<WorkspaceTheme>): Promise<WorkspaceTheme> {
    const repo = this.dataSource.getRepository(WorkspaceTheme);
    return repo.save(repo.create(fields));
  }

  /** Saves a loaded theme's changes; the saved row. */
  saveTheme(row: WorkspaceTheme): Promise<WorkspaceTheme> {
    return this.dataSource.getRepository(WorkspaceTheme).save(row);
  }

  /** Soft-deletes the theme `id`. */
  async softDeleteTheme(id: string): Promise<void> {
    await this.dataSource.getRepository(WorkspaceTheme).softDelete({ id });
  }
}
