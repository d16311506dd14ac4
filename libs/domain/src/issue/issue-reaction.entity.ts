import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import type { Issue } from './issue.entity';

/** An emoji reaction of a user on a work item (Plane's `issue_reactions`); one per user and emoji. */
@Entity({ name: 'issue_reactions' })
@Index('uq_issue_reactions_actor_reaction_live', ['issueId', 'actorId', 'reaction'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
export class IssueReaction extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'uuid' })
  actorId: string;

  @Column({ type: 'varchar', length: 20 })
  reaction: string;
}
