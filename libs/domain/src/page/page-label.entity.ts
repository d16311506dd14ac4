import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Label } from '../label';
import type { Workspace } from '../workspace';
import type { Page } from './page.entity';

/** A label on a page (Plane's `PageLabel`, `plane/db/models/page.py`, table `page_labels`). */
@Entity({ name: 'page_labels' })
@Index('uq_page_labels_page_label', ['pageId', 'labelId'], { unique: true })
export class PageLabel extends BaseEntity {
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

  @Column({ type: 'uuid' })
  labelId: string;

  @ManyToOne('Label', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'label_id' })
  label?: Label;
}
