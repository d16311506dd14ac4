import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Project } from '../project';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** What a favourite points at (Plane's `UserFavorite.entity_type` values Meridian has objects for). */
export const FAVORITE_ENTITY_TYPES = ['project', 'cycle', 'module', 'view', 'page', 'folder'] as const;
export type FavoriteEntityType = (typeof FAVORITE_ENTITY_TYPES)[number];
/** The entity types a favourite of an entity (not a folder) can have. */
export type FavoriteEntityKind = Exclude<FavoriteEntityType, 'folder'>;

/**
 * A user's favourite in a workspace (Plane's `UserFavorite`, `plane/db/models/favorite.py`): a
 * project, cycle, module, saved view or page (`entity_type` + `entity_identifier`), or a folder (`is_folder`, a
 * `name`) that holds others through `parent`. One per user, entity type and entity; deleting a
 * folder deletes what it holds. Deleted for good (Plane's `delete(soft=False)`).
 */
@Entity({ name: 'user_favorites' })
@Index('uq_user_favorites_user_entity_live', ['userId', 'entityType', 'entityIdentifier'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "entity_identifier" IS NOT NULL',
})
@Index('ix_user_favorites_workspace_user', ['workspaceId', 'userId'])
export class UserFavorite extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 100 })
  entityType: string;

  @Column({ type: 'uuid', nullable: true })
  entityIdentifier: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'boolean', default: false })
  isFolder: boolean;

  @Column({ type: 'double precision', default: 65535 })
  sequence: number;

  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => UserFavorite, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parent_id' })
  parent?: UserFavorite;
}
