import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import type { Issue } from './issue.entity';

/** A user's vote on a work item, +1 or −1 (Plane's `issue_votes`); one per user and work item. */
@Entity({ name: 'issue_votes' })
@Index('uq_issue_votes_actor_live', ['issueId', 'actorId'], { unique: true, where: '"deleted_at" IS NULL' })
export class IssueVote extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'uuid' })
  actorId: string;

  @Column({ type: 'smallint' })
  vote: number;
}
