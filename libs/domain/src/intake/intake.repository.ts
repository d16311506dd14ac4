import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Issue } from '../issue';
import { IntakeIssue } from './intake-issue.entity';

/** All of the intake feature's SQL: the intake rows of a project, joined to their live work items. */
@Injectable()
export class IntakeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A page of the project's live intake rows whose work item is live, newest first, through the
   * keyset paginator; `createdById` keeps only the rows that user submitted.
   */
  listPage(projectId: string, page: PageRequest, createdById?: string): Promise<Page<IntakeIssue>> {
    const qb = this.dataSource
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId', { projectId });
    if (createdById !== undefined) qb.andWhere('r.createdById = :viewerId', { viewerId: createdById });
    return paginate(qb, page, { order: 'DESC' });
  }

  /**
   * The project's live intake row of this work item, if the work item is live too, or null; `lock`
   * locks the intake row (FOR UPDATE OF r).
   */
  findLiveRow(em: EntityManager, projectId: string, issueId: string, lock = false): Promise<IntakeIssue | null> {
    const qb = em
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId AND r.issueId = :issueId', { projectId, issueId });
    if (lock) qb.setLock('pessimistic_write', undefined, ['r']);
    return qb.getOne();
  }
}
