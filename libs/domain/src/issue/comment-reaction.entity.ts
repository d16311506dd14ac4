import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { IssueComment } from './issue-comment.entity';

/** An emoji reaction of a user on a comment (Plane's `comment_reactions`); one per user and emoji. */
@Entity({ name: 'comment_reactions' })
@Index('uq_comment_reactions_actor_reaction_live', ['commentId', 'actorId', 'reaction'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
export class CommentReaction extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  commentId: string;

  @ManyToOne(() => IssueComment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id' })
  comment?: IssueComment;

  @Column({ type: 'uuid' })
  actorId: string;

  @Column({ type: 'varchar', length: 20 })
  reaction: string;
}
