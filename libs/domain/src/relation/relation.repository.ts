import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IssueRelation } from './issue-relation.entity';

/**
 * All of the relation feature's SQL: the relation rows (`issue_relations`). The work items at their
 * ends are the issue room's: `IssueRelationService` reads them through the issue door.
 */
@Injectable()
export class RelationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live relations of the work item (either end), oldest first. */
  relationsOfIssue(em: EntityManager, issueId: string): Promise<IssueRelation[]> {
    return em
      .getRepository(IssueRelation)
      .createQueryBuilder('r')
      .where('(r.issueId = :issueId OR r.relatedIssueId = :issueId)', { issueId })
      .orderBy('r.createdAt', 'ASC')
      .getMany();
  }

  /** The live relations at either end of any of these work items, oldest first (then by id). */
  relationsOfAny(ids: string[]): Promise<IssueRelation[]> {
    return this.dataSource
      .getRepository(IssueRelation)
      .createQueryBuilder('r')
      .where('(r.issueId IN (:...ids) OR r.relatedIssueId IN (:...ids))', { ids })
      .orderBy('r.createdAt', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
  }

  /** The relation row between `a` and `b` (either direction, live), or null. */
  findPair(em: EntityManager, a: string, b: string): Promise<IssueRelation | null> {
    return em.getRepository(IssueRelation).findOne({
      where: [
        { issueId: a, relatedIssueId: b },
        { issueId: b, relatedIssueId: a },
      ],
    });
  }

  /** Soft-deletes the relation `id` (deleted now, by `userId`). */
  async softDelete(em: EntityManager, id: string, userId: string): Promise<void> {
    await em.update(IssueRelation, { id }, { deletedAt: new Date(), updatedById: userId });
  }

  /** Inserts a relation row. */
  async insert(em: EntityManager, values: Partial<IssueRelation>): Promise<void> {
    await em.insert(IssueRelation, values as never);
  }

  /** The pairs of the project's live relations (the import's dedupe: a pair holds one relation). */
  async pairsOfProject(
    projectId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ issueId: string; relatedIssueId: string }>> {
    const rows = await em
      .createQueryBuilder()
      .select(['r.issue_id AS issue_id', 'r.related_issue_id AS related_issue_id'])
      .from(IssueRelation, 'r')
      .where('r.project_id = :projectId AND r.deleted_at IS NULL', { projectId })
      .getRawMany<{ issue_id: string; related_issue_id: string }>();
    return rows.map((r) => ({ issueId: r.issue_id, relatedIssueId: r.related_issue_id }));
  }
}
