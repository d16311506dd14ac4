import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/** Plane's default layouts of a published board (`views` on publish, stored as `view_props`). */
export const DEFAULT_BOARD_VIEWS = {
  list: true,
  kanban: true,
  calendar: true,
  gantt: true,
  spreadsheet: true,
} as const;

/**
 * A published ("deployed") project: Plane's DeployBoard (`plane/db/models/deploy_board.py`).
 * `anchor`, 32 random hex characters, is the public address of the board under
 * `/api/public/anchor/{anchor}/`. One live board per project (`entity_name` is always `project`).
 * Unpublishing soft-deletes the row; its anchor is never reused.
 */
@Entity({ name: 'deploy_boards' })
@Index('uq_deploy_boards_anchor', ['anchor'], { unique: true })
@Index('uq_deploy_boards_entity_live', ['entityName', 'entityIdentifier'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
@Index('ix_deploy_boards_project', ['projectId'])
export class DeployBoard extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 30, default: 'project' })
  entityName: string;

  @Column({ type: 'uuid' })
  entityIdentifier: string;

  @Column({ type: 'varchar', length: 255 })
  anchor: string;

  @Column({ type: 'boolean', default: false })
  isCommentsEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  isReactionsEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  isVotesEnabled: boolean;

  /** the project's intake shown on the board (Plane: FK to intakes); no intakes table in this build yet */
  @Column({ type: 'uuid', nullable: true })
  intakeId: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  viewProps: Record<string, unknown>;

  @Column({ type: 'boolean', default: true })
  isActivityEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  isDisabled: boolean;
}
