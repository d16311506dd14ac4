import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadBatch, readIn } from '../kernel/hot-query';
import { likeContaining } from '../kernel/like-pattern';

/**
 * The search room's own statement: the page search (Plane 0.25.3's `search/`). The other kinds
 * are searched by the rooms that own them (workspaces, projects, cycles, modules, work items,
 * members), through their doors.
 */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The pages the caller sees in their live, unarchived projects of the workspace (one project with
   * `projectId`): public ones and their own, a Guest only their own unless the project shows Guests
   * everything (the page room's rules), whose name or text (`description_stripped`, what the editor
   * typed) contains `q`, newest first, at most `limit`. Rows as Plane's `filter_pages`: `{name, id,
   * project_ids, project_identifiers, workspace__slug}`. One statement over the page room's tables
   * (the page room is above this one, so they are read by name) and the project and workspace
   * rooms' (joined by entity name: the caller's projects, their Guest rule and the slug). With
   * `batch`, sent in it (`SearchService.global` gathers its kinds' statements in one).
   */
  async pages(
    workspaceId: string,
    userId: string,
    q: string,
    projectId: string | undefined,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    const values: unknown[] = [userId, workspaceId, likeContaining(q), limit];
    const project = projectId ? ` AND p.id = $${values.push(projectId)}` : '';
    const text = `SELECT pg.name, pg.id, array_agg(DISTINCT p.id) AS project_ids,
array_agg(DISTINCT p.identifier) AS project_identifiers, w.slug AS workspace__slug
FROM pages pg
JOIN project_pages pp ON pp.page_id = pg.id AND pp.deleted_at IS NULL
JOIN projects p ON p.id = pp.project_id AND p.deleted_at IS NULL AND p.archived_at IS NULL
JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true AND pm.deleted_at IS NULL
JOIN workspaces w ON w.id = pg.workspace_id AND w.deleted_at IS NULL
WHERE pg.workspace_id = $2 AND pg.deleted_at IS NULL AND (pg.access = 0 OR pg.owned_by_id = $1)
AND (pm.role > 5 OR p.guest_view_all_features = true OR pg.owned_by_id = $1)
AND (pg.name ILIKE $3 ESCAPE '\\' OR pg.description_stripped ILIKE $3 ESCAPE '\\')${project}
GROUP BY pg.id, w.slug ORDER BY MAX(pg.created_at) DESC LIMIT $4`;
    return readIn(batch, this.dataSource, text, values);
  }
}
