import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** `access` values (Plane's `Page.access` choices): a private page is its owner's alone. */
export const PAGE_ACCESS = { PUBLIC: 0, PRIVATE: 1 } as const;

/**
 * A page (Plane's `Page`, `plane/db/models/page.py`, table `pages`): a document of a workspace
 * that belongs to projects through `project_pages` (one project here: the one it was created in,
 * and a duplicate's). `description_binary` is the editor's Yjs document, `description_html` and
 * `description` (JSON) its renderings; `owned_by` is the creator; a locked page cannot be edited;
 * `archived_at` (a date, as Plane's `DateField`) hides it with its sub-pages. `parent` makes a
 * sub-page. Soft-deleted.
 */
@Entity({ name: 'pages' })
@Index('ix_pages_workspace', ['workspaceId'], { where: '"deleted_at" IS NULL' })
@Index('ix_pages_parent', ['parentId'], { where: '"deleted_at" IS NULL AND "parent_id" IS NOT NULL' })
export class Page extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'text', default: '' })
  name: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  description: unknown;

  @Column({ type: 'bytea', nullable: true })
  descriptionBinary: Buffer | null;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', nullable: true })
  descriptionStripped: string | null;

  @Column({ type: 'uuid' })
  ownedById: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owned_by_id' })
  ownedBy?: User;

  @Column({ type: 'smallint', default: PAGE_ACCESS.PUBLIC })
  access: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  color: string;

  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => Page, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'parent_id' })
  parent?: Page | null;

  @Column({ type: 'date', nullable: true })
  archivedAt: string | null;

  @Column({ type: 'boolean', default: false })
  isLocked: boolean;

  @Column({ type: 'jsonb', default: () => `'{"full_width": false}'` })
  viewProps: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  logoProps: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  isGlobal: boolean;
}
