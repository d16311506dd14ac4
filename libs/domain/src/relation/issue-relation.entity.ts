import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue } from '../issue';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/**
 * The relation types a client may send (`plane-node-sdk/dist/models/WorkItemRelation.d.ts`; Plane
 * `plane/db/models/issue.py` IssueRelation).
 */
export const RELATION_TYPES = [
  'blocking',
  'blocked_by',
  'duplicate',
  'relates_to',
  'start_before',
  'start_after',
  'finish_before',
  'finish_after',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** The types actually stored: each directed type is kept once, in one direction (as Plane does). */
export type StoredRelationType = 'blocked_by' | 'duplicate' | 'relates_to' | 'start_before' | 'finish_before';

/**
 * A relation between two work items (Plane's `IssueRelation`). One row per pair of work items:
 * `blocking`, `start_after` and `finish_after` are stored reversed as `blocked_by`,
 * `start_before` and `finish_before`, so the inverse seen from the other work item is always in
 * step (there is nothing to update twice).
 */
@Entity({ name: 'issue_relations' })
@Index('uq_issue_relations_pair_live', ['issueId', 'relatedIssueId'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_issue_relations_related', ['relatedIssueId'])
export class IssueRelation extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'uuid' })
  relatedIssueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'related_issue_id' })
  relatedIssue?: Issue;

  @Column({ type: 'varchar', length: 20 })
  relationType: StoredRelationType;
}
