import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Who follows a work item (Plane's `IssueSubscriber`): its creator, its assignees, whoever
 * comments or is mentioned, and whoever subscribes by hand. One row per (work item, user);
 * unsubscribing deletes it.
 */
@Entity({ name: 'issue_subscribers' })
@Index('uq_issue_subscribers_issue_subscriber', ['issueId', 'subscriberId'], { unique: true })
export class IssueSubscriber {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;

  @Column({ type: 'uuid' })
  issueId: string;

  @Index('ix_issue_subscribers_subscriber')
  @Column({ type: 'uuid' })
  subscriberId: string;

  @Column({ type: 'uuid', nullable: true })
  createdById: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
