import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Issue } from '../issue';
import { Project, ProjectMember } from '../project';
import { IssueRelation } from './issue-relation.entity';

/** All of the relation feature's SQL: relation rows and the work items at their ends. */
@Injectable()
export class RelationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live, non-archived, non-draft work item of the project, if the project is live and not archived; else null. */
  findVisibleIssue(em: EntityManager, projectId: string, issueId: string): Promise<Issue | null> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .where('i.id = :issueId AND i.projectId = :projectId AND i.archivedAt IS NULL AND i.isDraft = false', {
        issueId,
        projectId,
      })
      .getOne();
  }

  /**
   * The live work items with these ids in live, non-archived projects that are `projectId` or one
   * where `userId` is an active member.
   */
  findIssuesVisibleTo(userId: string, projectId: string, ids: string[]): Promise<Issue[]> {
    return this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .where('i.id IN (:...all)', { all: ids })
      .andWhere(
        `(i.projectId = :projectId OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id
        AND pm.member_id = :userId AND pm.is_active = true AND pm.deleted_at IS NULL))`,
        { projectId, userId },
      )
      .getMany();
  }

  /**
   * Live, non-archived, non-draft work items of the workspace with these ids, in live, non-archived
   * projects where `userId` is an active member.
   */
  findReachableIssues(em: EntityManager, workspaceId: string, userId: string, ids: string[]): Promise<Issue[]> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .innerJoin(
        ProjectMember,
        'm',
        'm.projectId = p.id AND m.memberId = :userId AND m.isActive = true AND m.deletedAt IS NULL',
        {
          userId,
        },
      )
      .where('i.id IN (:...ids) AND i.workspaceId = :ws AND i.archivedAt IS NULL AND i.isDraft = false', {
        ids,
        ws: workspaceId,
      })
      .getMany();
  }

  /** The live relations of the work item (either end) whose both work items are live and not archived, oldest first. */
  listLiveRelations(em: EntityManager, issueId: string): Promise<IssueRelation[]> {
    return em
      .getRepository(IssueRelation)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'a', 'a.id = r.issueId AND a.deletedAt IS NULL AND a.archivedAt IS NULL')
      .innerJoin(Issue, 'b', 'b.id = r.relatedIssueId AND b.deletedAt IS NULL AND b.archivedAt IS NULL')
      .where('(r.issueId = :issueId OR r.relatedIssueId = :issueId)', { issueId })
      .orderBy('r.createdAt', 'ASC')
      .getMany();
  }

  /** Project identifier and sequence id of each work item with these ids (deleted ones too). */
  issueKeys(em: EntityManager, ids: string[]): Promise<Array<{ id: string; identifier: string; seq: number }>> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId')
      .select(['i.id AS id', 'p.identifier AS identifier', 'i.sequence_id AS seq'])
      .where('i.id IN (:...ids)', { ids })
      .withDeleted()
      .getRawMany<{ id: string; identifier: string; seq: number }>();
  }

  /**
   * The live relations at either end of these work items whose other work item is live, not
   * archived, and in a live project that is `projectId` or one `userId` is an active member of;
   * oldest first, with the other work item.
   */
  async relationsOf(
    userId: string,
    projectId: string,
    ids: string[],
  ): Promise<Array<{ relation: IssueRelation; other: Issue; outgoing: boolean }>> {
    if (!ids.length) return [];
    const rows = await this.dataSource
      .getRepository(IssueRelation)
      .createQueryBuilder('r')
      .where('(r.issueId IN (:...ids) OR r.relatedIssueId IN (:...ids))', { ids })
      .orderBy('r.createdAt', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
    const otherIds = [...new Set(rows.flatMap((r) => [r.issueId, r.relatedIssueId]))];
    const others = otherIds.length ? await this.findIssuesVisibleTo(userId, projectId, otherIds) : [];
    const open = new Map(others.filter((i) => i.archivedAt === null && !i.isDraft).map((i) => [i.id, i]));
    const wanted = new Set(ids);
    const out: Array<{ relation: IssueRelation; other: Issue; outgoing: boolean }> = [];
    for (const relation of rows) {
      for (const outgoing of [true, false]) {
        const self = outgoing ? relation.issueId : relation.relatedIssueId;
        const other = open.get(outgoing ? relation.relatedIssueId : relation.issueId);
        if (wanted.has(self) && other) out.push({ relation, other, outgoing });
      }
    }
    return out;
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

  /** The id and project of each work item with these ids (deleted ones too). */
  issueProjects(em: EntityManager, ids: string[]): Promise<Array<{ id: string; projectId: string }>> {
    return em.getRepository(Issue).find({ where: { id: In(ids) }, withDeleted: true });
  }
}
