import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CycleService } from '../cycle';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { ModuleService } from '../module';
import { ProjectMemberService } from '../project';
import { FavoriteRepository } from './favorite.repository';
import { FavoriteJson, favoriteView } from './favorite.view';
import { FavoriteEntityKind, FavoriteEntityType, UserFavorite } from './user-favorite.entity';

export interface CreateFavoriteInput {
  entity_type: FavoriteEntityType;
  entity_identifier?: string | null;
  name?: string | null;
  is_folder?: boolean;
  sequence?: number;
  parent?: string | null;
}

export interface UpdateFavoriteInput {
  name?: string | null;
  sequence?: number;
  parent?: string | null;
}

/**
 * A user's favourites in a workspace (Plane 0.25.3 `plane/app/views/workspace/favorite.py`
 * WorkspaceFavoriteEndpoint / WorkspaceFavoriteGroupEndpoint, and the older per-entity
 * `user-favorite-projects|cycles|modules/` viewsets). Every favourite is the caller's own: another
 * user's id is a 404. An entity can be favourited only by an active member of its project.
 */
@Injectable()
export class FavoriteService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly favorites: FavoriteRepository,
    private readonly members: ProjectMemberService,
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
  ) {}

  /** The top-level favourites (folders and entities outside folders), highest `sequence` first. */
  async list(workspaceId: string, userId: string): Promise<FavoriteJson[]> {
    return (await this.favorites.list(workspaceId, userId, null)).map(favoriteView);
  }

  /** What folder `folderId` holds; 404 if it is not the user's. */
  async group(workspaceId: string, userId: string, folderId: string): Promise<FavoriteJson[]> {
    await found(this.favorites.find(this.dataSource.manager, workspaceId, userId, folderId));
    return (await this.favorites.list(workspaceId, userId, folderId)).map(favoriteView);
  }

  /** The user's favourite entity ids among `ids`, for `is_favorite` on project, cycle, module and view objects. */
  favoriteIds(userId: string, entityType: FavoriteEntityKind, ids: string[]): Promise<Set<string>> {
    return this.favorites.favoriteIds(userId, entityType, ids);
  }

  /**
   * Adds a favourite, or returns the one the user already has of that entity. A folder needs a
   * `name`; an entity needs `entity_identifier` (404 unless it is a live project, cycle, module or
   * saved view or page of the workspace the user may see: see `entity`). `parent` must be one of the
   * user's folders (404 if not the user's, 422 if not a folder). `sequence` defaults to the user's
   * highest + 10000 (Plane's `UserFavorite.save`).
   */
  async create(
    workspaceId: string,
    userId: string,
    input: CreateFavoriteInput,
    inProject?: string,
  ): Promise<FavoriteJson> {
    const isFolder = input.entity_type === 'folder' || input.is_folder === true;
    if (isFolder && input.entity_type !== 'folder')
      throw validationError({ is_folder: ['Only a favourite of entity_type "folder" can be a folder.'] });
    if (isFolder && !input.name?.trim()) throw validationError({ name: ['A folder needs a name.'] });
    if (!isFolder && !input.entity_identifier)
      throw validationError({ entity_identifier: ['This field is required.'] });
    try {
      return await this.dataSource.transaction(async (em) => {
        let projectId: string | null = null;
        if (!isFolder) {
          const type = input.entity_type as FavoriteEntityKind;
          const entity = await this.entity(em, workspaceId, userId, type, input.entity_identifier!);
          if (!entity || (inProject !== undefined && entity.projectId !== inProject))
            throw new MeridianError('NOT_FOUND', `No ${type} with that entity_identifier.`);
          const existing = await this.favorites.findByEntity(em, workspaceId, userId, type, input.entity_identifier!);
          if (existing) return this.render(em, workspaceId, userId, existing.id);
          projectId = entity.projectId;
        }
        const parentId = input.parent ? await this.folder(em, workspaceId, userId, input.parent) : null;
        let sequence = input.sequence;
        if (sequence === undefined) {
          const max = await this.favorites.highestSequence(em, workspaceId, userId);
          sequence = max === null ? 65535 : max + 10000;
        }
        const saved = await this.favorites.insert(
          em,
          em.create(UserFavorite, {
            workspaceId,
            projectId,
            userId,
            entityType: input.entity_type,
            entityIdentifier: isFolder ? null : input.entity_identifier!,
            name: input.name ?? null,
            isFolder,
            sequence,
            parentId,
            createdById: userId,
            updatedById: userId,
          }),
        );
        return this.render(em, workspaceId, userId, saved.id);
      });
    } catch (err) {
      // Two requests favouriting the same entity at once: the second answers with the first's row.
      if (!isUniqueViolation(err, 'uq_user_favorites_user_entity_live')) throw err;
      const existing = await found(
        this.favorites.findByEntity(
          this.dataSource.manager,
          workspaceId,
          userId,
          input.entity_type,
          input.entity_identifier!,
        ),
      );
      return this.render(this.dataSource.manager, workspaceId, userId, existing.id);
    }
  }

  /** The older per-entity routes: favourites a cycle, module, view or page of `projectId` (404 if it is not that project's). */
  createInProject(
    workspaceId: string,
    userId: string,
    projectId: string,
    entityType: 'cycle' | 'module' | 'view' | 'page',
    entityId: string,
  ): Promise<FavoriteJson> {
    return this.create(workspaceId, userId, { entity_type: entityType, entity_identifier: entityId }, projectId);
  }

  /** Renames, reorders or moves a favourite in or out of a folder (`parent`: a folder of the user's, or null). */
  async update(workspaceId: string, userId: string, id: string, input: UpdateFavoriteInput): Promise<FavoriteJson> {
    return this.dataSource.transaction(async (em) => {
      const fav = await found(this.favorites.find(em, workspaceId, userId, id));
      const patch: Partial<UserFavorite> = { updatedById: userId };
      if (input.name !== undefined) {
        if (fav.isFolder && !input.name?.trim()) throw validationError({ name: ['A folder needs a name.'] });
        patch.name = input.name;
      }
      if (input.sequence !== undefined) patch.sequence = input.sequence;
      if (input.parent !== undefined) {
        if (input.parent !== null && fav.isFolder)
          throw validationError({ parent: ['A folder cannot be put inside another folder.'] });
        patch.parentId = input.parent === null ? null : await this.folder(em, workspaceId, userId, input.parent);
      }
      await this.favorites.update(em, id, patch);
      return this.render(em, workspaceId, userId, id);
    });
  }

  /** Deletes the user's favourite (a folder with what it holds); 404 if it is not the user's. */
  async remove(workspaceId: string, userId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await found(this.favorites.find(em, workspaceId, userId, id));
      await this.favorites.remove(em, id);
    });
  }

  /** Deletes the user's favourite of the entity (the older per-entity routes); 404 if there is none. */
  async removeEntity(
    workspaceId: string,
    userId: string,
    entityType: FavoriteEntityKind,
    entityId: string,
    projectId: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const fav = await this.favorites.findByEntity(em, workspaceId, userId, entityType, entityId);
      if (!fav || fav.projectId !== projectId) throw new MeridianError('NOT_FOUND');
      await this.favorites.remove(em, fav.id);
    });
  }

  /** Deletes every user's favourite of an entity that is being deleted, in the deleting transaction. */
  removeAllOf(em: EntityManager, entityType: FavoriteEntityKind, entityId: string): Promise<void> {
    return this.favorites.removeAllOf(em, entityType, entityId);
  }

  /**
   * The live project, cycle, module, saved view or page `id` of the workspace with its project (null
   * for a workspace view), when `userId` may see it: an active member of its project (for views and
   * pages, as their lists show them: `FavoriteRepository.higherRoomEntity`); else undefined. A
   * project is one statement of the project room, a cycle or module two (the row through its room's
   * door, then the membership through the project's), a view or page one of this room.
   */
  private async entity(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    entityType: FavoriteEntityKind,
    id: string,
  ): Promise<{ projectId: string | null } | undefined> {
    if (entityType === 'view' || entityType === 'page')
      return this.favorites.higherRoomEntity(em, workspaceId, userId, entityType, id);
    if (entityType === 'project') {
      const role = await this.members.roleInLiveProject(workspaceId, id, userId, em);
      return typeof role === 'number' ? { projectId: id } : undefined;
    }
    const planning = entityType === 'cycle' ? this.cycles : this.modules;
    const row = await planning.findInWorkspace(workspaceId, id, em);
    if (!row) return undefined;
    const member = await this.members.activeMemberIdsAmong(row.projectId, [userId], em);
    return member.length ? { projectId: row.projectId } : undefined;
  }

  /** The user's folder `id`: 404 if it is not the user's favourite, 422 if it is not a folder. */
  private async folder(em: EntityManager, workspaceId: string, userId: string, id: string): Promise<string> {
    const parent = await this.favorites.find(em, workspaceId, userId, id);
    if (!parent) throw new MeridianError('NOT_FOUND', 'No favourite folder with that parent id.');
    if (!parent.isFolder) throw validationError({ parent: ['The parent must be a folder.'] });
    return parent.id;
  }

  private async render(em: EntityManager, workspaceId: string, userId: string, id: string): Promise<FavoriteJson> {
    return favoriteView(await found(this.favorites.row(em, workspaceId, userId, id).then((r) => r ?? null)));
  }
}
