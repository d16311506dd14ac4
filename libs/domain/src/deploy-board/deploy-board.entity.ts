import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Issue } from '../issue/issue.entity';
import { Project } from '../project/project.entity';
import { BaseEntity } from '../shared/base.entity';

/** Plane's default layouts of a published board (`views` on publish, stored as `view_props`). */
export const DEFAULT_BOARD_VIEWS = { list: true, kanban: true, calendar: true, gantt: true, spreadsheet: true } as const;

/**
 * A published ("deployed") project: Plane's DeployBoard (`plane/db/models/deploy_board.py`).
 * `anchor`, 32 random hex characters, is the public address of the board under
 * `/api/public/anchor/{anchor}/`. One live board per project (`entity_name` is always `project`).
 * Unpublishing soft-deletes the row; its anchor is never reused.
 */
@Entity({ name: 'deploy_boards' })
@Index('uq_deploy_boards_anchor', ['anchor'], { unique: true })
@Index('uq_deploy_boards_entity_live', ['entityName', 'entityIdentifier'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_deploy_boards_project', ['projectId'])
export class DeployBoard extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
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

/** An emoji reaction of a user on a work item (Plane's `issue_reactions`); one per user and emoji. */
@Entity({ name: 'issue_reactions' })
@Index('uq_issue_reactions_actor_reaction_live', ['issueId', 'actorId', 'reaction'], { unique: true, where: '"deleted_at" IS NULL' })
export class IssueReaction extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;

  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'uuid' })
  actorId: string;

  @Column({ type: 'varchar', length: 20 })
  reaction: string;
}

/** A user's vote on a work item, +1 or −1 (Plane's `issue_votes`); one per user and work item. */
@Entity({ name: 'issue_votes' })
@Index('uq_issue_votes_actor_live', ['issueId', 'actorId'], { unique: true, where: '"deleted_at" IS NULL' })
export class IssueVote extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;

  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'uuid' })
  actorId: string;

  @Column({ type: 'smallint' })
  vote: number;
}
