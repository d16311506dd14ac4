import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Issue } from '../issue';
import { Project } from '../project';
import { FileAsset } from './file-asset.entity';

/** All of the attachment feature's SQL. */
@Injectable()
export class AttachmentRepository {
  /** The live, non-draft work item of the project (archived ones too), if the project is live; else null. */
  findIssue(em: EntityManager, projectId: string, issueId: string): Promise<Issue | null> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL')
      .where('i.id = :issueId AND i.projectId = :projectId AND i.isDraft = false', { issueId, projectId })
      .getOne();
  }

  /** The live attachment (`ISSUE_ATTACHMENT` asset) of the work item, or null; `lock` takes a row lock (FOR UPDATE). */
  findAttachment(
    em: EntityManager,
    projectId: string,
    issueId: string,
    assetId: string,
    lock = false,
  ): Promise<FileAsset | null> {
    const qb = em
      .getRepository(FileAsset)
      .createQueryBuilder('a')
      .where('a.id = :assetId AND a.projectId = :projectId AND a.issueId = :issueId AND a.entityType = :t', {
        assetId,
        projectId,
        issueId,
        t: 'ISSUE_ATTACHMENT',
      });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }
}
