import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Project } from '../project';
import type { Workspace } from '../workspace';
import type { Page } from './page.entity';

/**
 * A page's place in a project (Plane's `ProjectPage`, `plane/db/models/page.py`, table
 * `project_pages`): one live row per project and page.
 */
@Entity({ name: 'project_pages' })
@Index('uq_project_pages_project_page_live', ['projectId', 'pageId'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_project_pages_page', ['pageId'])
export class ProjectPage extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'uuid' })
  pageId: string;

  @ManyToOne('Page', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'page_id' })
  page?: Page;
}
