import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FavoriteEntityKind, UserFavorite } from './user-favorite.entity';

/** A favourite with its entity's name, logo and project when the entity is live (`entity_data`). */
export interface FavoriteRow {
  id: string;
  entity_type: string;
  entity_identifier: string | null;
  name: string | null;
  is_folder: boolean;
  sequence: number;
  parent_id: string | null;
  workspace_id: string;
  project_id: string | null;
  e_id: string | null;
  e_name: string | null;
  e_logo_props: Record<string, unknown> | null;
  e_project_id: string | null;
}

/** `$2` is an active member of the favourite's project (or the favourite has none). */
const VISIBLE = `(f.project_id IS NULL OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = f.project_id
  AND pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL))`;

/**
 * The user's (`$2`) favourites in the workspace (`$1`) with their entities; `listed` keeps only
 * those the lists show: in a project the user is an active member of (or none), and a folder or
 * an entity that is still there.
 */
function selectFavorites(listed: boolean): string {
  return `SELECT f.id, f.entity_type, f.entity_identifier, f.name, f.is_folder, f.sequence, f.parent_id,
      f.workspace_id, f.project_id,
      COALESCE(ep.id, ec.id, em.id, ev.id, epg.id) AS e_id,
      COALESCE(ep.name, ec.name, em.name, ev.name, epg.name) AS e_name,
      COALESCE(ep.logo_props, ec.logo_props, em.logo_props, ev.logo_props, epg.logo_props) AS e_logo_props,
      COALESCE(ec.project_id, em.project_id, ev.project_id, CASE WHEN epg.id IS NOT NULL THEN f.project_id END) AS e_project_id
    FROM user_favorites f
    LEFT JOIN projects ep ON f.entity_type = 'project' AND ep.id = f.entity_identifier AND ep.deleted_at IS NULL
    LEFT JOIN cycles ec ON f.entity_type = 'cycle' AND ec.id = f.entity_identifier AND ec.deleted_at IS NULL
    LEFT JOIN modules em ON f.entity_type = 'module' AND em.id = f.entity_identifier AND em.deleted_at IS NULL
    LEFT JOIN issue_views ev ON f.entity_type = 'view' AND ev.id = f.entity_identifier AND ev.deleted_at IS NULL
      AND (ev.access = 1 OR ev.owned_by_id = f.user_id)
    LEFT JOIN pages epg ON f.entity_type = 'page' AND epg.id = f.entity_identifier AND epg.deleted_at IS NULL
      AND (epg.access = 0 OR epg.owned_by_id = f.user_id)
    WHERE f.workspace_id = $1 AND f.user_id = $2 AND f.deleted_at IS NULL${
      listed ? ` AND ${VISIBLE} AND (f.is_folder OR COALESCE(ep.id, ec.id, em.id, ev.id, epg.id) IS NOT NULL)` : ''
    }`;
}

/** All of the favorite feature's SQL. */
@Injectable()
export class FavoriteRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The user's favourites in the workspace under `parentId` (top level when null), highest
   * `sequence` first; those in a project the user is no longer an active member of, and those whose
   * entity is gone, are left out.
   */
  async list(workspaceId: string, userId: string, parentId: string | null): Promise<FavoriteRow[]> {
    const params: unknown[] = [workspaceId, userId];
    let sql = selectFavorites(true);
    if (parentId === null) sql += ' AND f.parent_id IS NULL';
    else {
      params.push(parentId);
      sql += ' AND f.parent_id = $3';
    }
    return this.dataSource.query<FavoriteRow[]>(`${sql} ORDER BY f.sequence DESC, f.created_at DESC`, params);
  }

  /** One favourite (with its entity's data) if it is the user's, in the workspace. */
  async row(em: EntityManager, workspaceId: string, userId: string, id: string): Promise<FavoriteRow | undefined> {
    const rows = await em.query<FavoriteRow[]>(`${selectFavorites(false)} AND f.id = $3`, [workspaceId, userId, id]);
    return rows[0];
  }

  /** The user's favourite in the workspace (any kind), or null. */
  find(em: EntityManager, workspaceId: string, userId: string, id: string): Promise<UserFavorite | null> {
    return em.getRepository(UserFavorite).findOne({ where: { id, workspaceId, userId } });
  }

  /** The user's favourite of the entity, or null. */
  findByEntity(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    entityType: string,
    entityIdentifier: string,
  ): Promise<UserFavorite | null> {
    return em.getRepository(UserFavorite).findOne({ where: { workspaceId, userId, entityType, entityIdentifier } });
  }

  /** The largest `sequence` of the user's favourites in the workspace, or null. */
  async highestSequence(em: EntityManager, workspaceId: string, userId: string): Promise<number | null> {
    const rows = await em.query<Array<{ max: number | null }>>(
      `SELECT MAX(sequence) AS max FROM user_favorites WHERE workspace_id = $1 AND user_id = $2 AND deleted_at IS NULL`,
      [workspaceId, userId],
    );
    const max = rows[0]?.max;
    return max === null || max === undefined ? null : Number(max);
  }

  /**
   * The live saved view or page `id` of the workspace with its project (null for a workspace view),
   * when `userId` may see it: an active member of its project (a project view also public or the
   * user's own, and for a project Guest without `guest_view_all_features` the user's own, as the
   * view and page lists show them); else undefined. One statement: the view and page rooms are
   * above this one (the lower-room technique).
   */
  async higherRoomEntity(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    entityType: 'view' | 'page',
    id: string,
  ): Promise<{ projectId: string | null } | undefined> {
    if (entityType === 'view') {
      const rows = await em.query<Array<{ project_id: string | null }>>(
        `SELECT v.project_id FROM issue_views v LEFT JOIN projects p ON p.id = v.project_id AND p.deleted_at IS NULL
          WHERE v.id = $1 AND v.workspace_id = $2 AND v.deleted_at IS NULL AND (v.access = 1 OR v.owned_by_id = $3)
            AND (v.project_id IS NULL OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id
              AND pm.member_id = $3 AND pm.is_active = true AND pm.deleted_at IS NULL
              AND (pm.role > 5 OR p.guest_view_all_features OR v.owned_by_id = $3)))`,
        [id, workspaceId, userId],
      );
      return rows[0] ? { projectId: rows[0].project_id } : undefined;
    }
    // a live, unarchived page of a project the user is an active member of, public or the user's
    // own (a project Guest without `guest_view_all_features`: their own), as the page list shows it
    const rows = await em.query<Array<{ project_id: string }>>(
      `SELECT pp.project_id FROM pages g
        JOIN project_pages pp ON pp.page_id = g.id AND pp.deleted_at IS NULL
        JOIN projects p ON p.id = pp.project_id AND p.deleted_at IS NULL AND p.archived_at IS NULL
        WHERE g.id = $1 AND g.workspace_id = $2 AND g.deleted_at IS NULL AND g.archived_at IS NULL
          AND (g.access = 0 OR g.owned_by_id = $3)
          AND EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = $3
            AND pm.is_active = true AND pm.deleted_at IS NULL
            AND (pm.role > 5 OR p.guest_view_all_features OR g.owned_by_id = $3))
        ORDER BY pp.created_at LIMIT 1`,
      [id, workspaceId, userId],
    );
    return rows[0] ? { projectId: rows[0].project_id } : undefined;
  }

  /** Deletes every user's favourite of the entity for good (the entity is deleted). */
  async removeAllOf(em: EntityManager, entityType: FavoriteEntityKind, entityIdentifier: string): Promise<void> {
    await em.getRepository(UserFavorite).delete({ entityType, entityIdentifier });
  }

  /** Deletes the favourite for good (the folder's children go with it: `ON DELETE CASCADE`). */
  async remove(em: EntityManager, id: string): Promise<void> {
    await em.getRepository(UserFavorite).delete({ id });
  }

  /** The ids among `ids` the user has a favourite of, for one entity type. */
  async favoriteIds(userId: string, entityType: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ entity_identifier: string }>>(
      `SELECT entity_identifier FROM user_favorites
        WHERE user_id = $1 AND entity_type = $2 AND entity_identifier = ANY($3::uuid[]) AND deleted_at IS NULL`,
      [userId, entityType, ids],
    );
    return new Set(rows.map((r) => r.entity_identifier));
  }

  /** Inserts a favourite (an entity built by the caller); the saved row. */
  insert(em: EntityManager, favorite: UserFavorite): Promise<UserFavorite> {
    return em.save(favorite);
  }

  /** Writes `patch` to the favourite `id`. */
  async update(em: EntityManager, id: string, patch: Partial<UserFavorite>): Promise<void> {
    await em.getRepository(UserFavorite).update({ id }, patch as never);
  }
}
