import { Column, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/**
 * A user's filters and display settings for a list of work items (Plane's `WorkspaceUserProperties`,
 * `IssueUserProperty`, `CycleUserProperties`, `ModuleUserProperties`): three JSON objects the web
 * app owns, created with Plane's defaults on first read.
 */
export abstract class DisplayPropertiesBase extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  filters: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  displayFilters: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  displayProperties: Record<string, unknown>;
}
