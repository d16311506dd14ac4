import { Column, Entity, Index } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/**
 * One entry of a work item's history (Plane `plane/db/models/issue.py` IssueActivity): `actor` changed `field`
 * from `old_value` to `new_value` (ids in `old_identifier` / `new_identifier` when the value is
 * an object). Written in the same transaction as the change.
 */
@Entity({ name: 'issue_activities' })
@Index('ix_issue_activities_issue_created', ['issueId', 'createdAt'])
// one actor's entries in time order: the home's activity graph, the profile's activity (migration ActivityActorIndex)
@Index('ix_issue_activities_actor_created', ['actorId', 'createdAt'])
export class IssueActivity extends ProjectScopedEntity {
  /** kept after the work item is deleted, so the history survives */
  @Column({ type: 'uuid', nullable: true })
  issueId: string | null;

  @Column({ type: 'varchar', length: 255, default: 'created' })
  verb: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  field: string | null;

  @Column({ type: 'text', nullable: true })
  oldValue: string | null;

  @Column({ type: 'text', nullable: true })
  newValue: string | null;

  @Column({ type: 'text', default: '' })
  comment: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attachments: string[];

  @Column({ type: 'uuid', nullable: true })
  issueCommentId: string | null;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'uuid', nullable: true })
  oldIdentifier: string | null;

  @Column({ type: 'uuid', nullable: true })
  newIdentifier: string | null;

  @Column({ type: 'double precision', nullable: true })
  epoch: number | null;
}
