import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';
import type { Page } from './page.entity';

/**
 * A saved state of a page's description (Plane's `PageVersion`, `plane/db/models/page.py`, table
 * `page_versions`), written when a description save changes `description_html` (Plane's
 * `page_version` task); a page keeps its 20 latest. `owned_by` is who saved it.
 */
@Entity({ name: 'page_versions' })
@Index('ix_page_versions_page_saved', ['pageId', 'lastSavedAt'])
export class PageVersion extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  pageId: string;

  @ManyToOne('Page', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'page_id' })
  page?: Page;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastSavedAt: Date;

  @Column({ type: 'uuid' })
  ownedById: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owned_by_id' })
  ownedBy?: User;

  @Column({ type: 'bytea', nullable: true })
  descriptionBinary: Buffer | null;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', nullable: true })
  descriptionStripped: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  descriptionJson: unknown;
}
