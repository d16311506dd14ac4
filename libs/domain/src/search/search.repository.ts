import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Cycle } from '../cycle';
import { visibleIssuesQuery } from '../issue';
import { Module } from '../module';
import { Project, ProjectMember } from '../project';
import { State } from '../state';
import { Workspace, WorkspaceMember } from '../workspace';

/** `%q%` for `ILIKE … ESCAPE '\'`, with `\`, `%` and `_` taken literally. */
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What the work item picker leaves out (see `IssuePickerQuery`); `self` is the work item being edited. */
export interface PickerExclusions {
  self?: { id: string; parentId: string | null };
  parent?: boolean;
  subIssue?: boolean;
  issueRelation?: boolean;
  cycle?: boolean;
  moduleId?: string;
}

/**
 * The search feature's SQL (Plane 0.25.3's `search/` and `search-issues/`): names that contain the
 * search text among what the caller can see (their workspaces, the live projects they are an
 * active member of, and those projects' cycles, modules and visible work items).
 */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The caller's workspaces whose name contains `q`, newest first, at most `limit`. */
  workspaces(userId: string, q: string, limit: number): Promise<unknown[]> {
    return this.dataSource.manager
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .innerJoin(WorkspaceMember, 'm', 'm.workspaceId = w.id AND m.memberId = :userId AND m.isActive = true', {
        userId,
      })
      .where("w.name ILIKE :like ESCAPE '\\'", { like: like(q) })
      .select(['w.name AS name', 'w.id AS id', 'w.slug AS slug'])
      .orderBy('w.createdAt', 'DESC')
      .limit(limit)
      .getRawMany();
  }

  /** The caller's unarchived projects of the workspace whose name or identifier contains `q`, newest first, at most `limit`. */
  projects(workspaceId: string, userId: string, q: string, limit: number): Promise<unknown[]> {
    return this.dataSource.manager
      .getRepository(Project)
      .createQueryBuilder('p')
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId AND p.archivedAt IS NULL', { workspaceId })
      .andWhere("(p.name ILIKE :like ESCAPE '\\' OR p.identifier ILIKE :like ESCAPE '\\')", { like: like(q) })
      .select(['p.name AS name', 'p.id AS id', 'p.identifier AS identifier', 'w.slug AS workspace__slug'])
      .orderBy('p.createdAt', 'DESC')
      .limit(limit)
      .getRawMany();
  }

  /**
   * The unarchived cycles or modules of the caller's live projects of the workspace (one project
   * with `projectId`) whose name contains `q`, newest first, at most `limit`.
   */
  plans(
    kind: 'cycle' | 'module',
    workspaceId: string,
    userId: string,
    q: string,
    projectId: string | undefined,
    limit: number,
  ): Promise<unknown[]> {
    const [alias, entity] = kind === 'cycle' ? ['c', Cycle as new () => object] : ['mo', Module as new () => object];
    const qb = this.dataSource.manager
      .getRepository(entity)
      .createQueryBuilder(alias)
      .innerJoin(Project, 'p', `p.id = ${alias}.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL`)
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId', { workspaceId })
      .andWhere(`${alias}.name ILIKE :like ESCAPE '\\'`, { like: like(q) })
      .andWhere(`${alias}.archivedAt IS NULL`)
      .select([
        `${alias}.name AS name`,
        `${alias}.id AS id`,
        'p.id AS project_id',
        'p.identifier AS project__identifier',
        'w.slug AS workspace__slug',
      ])
      .orderBy(`${alias}.createdAt`, 'DESC')
      .limit(limit);
    if (projectId) qb.andWhere('p.id = :projectId', { projectId });
    return qb.getRawMany();
  }

  /**
   * Visible work items of the caller's projects of the workspace (the project `projectId` unless
   * `projectId` is undefined) whose name contains `q` or whose key or number is `q`, without the
   * `exclude`d ones; newest first, at most `limit`. Rows as the picker answers them.
   */
  async pickerRows(
    workspaceId: string,
    projectId: string | undefined,
    userId: string,
    q: string,
    exclude: PickerExclusions,
    limit: number,
  ): Promise<Array<Record<string, unknown>>> {
    const qb = visibleIssuesQuery(this.dataSource.manager)
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .leftJoin(State, 's', 's.id = i.stateId')
      .andWhere('p.workspaceId = :workspaceId', { workspaceId })
      .select([
        'i.name AS name',
        'i.id AS id',
        'i.startDate AS start_date',
        'i.sequenceId AS sequence_id',
        'p.name AS project__name',
        'p.identifier AS project__identifier',
        'p.id AS project_id',
        'w.slug AS workspace__slug',
        's.name AS state__name',
        's.group AS state__group',
        's.color AS state__color',
      ])
      .orderBy('i.createdAt', 'DESC')
      .addOrderBy('i.id', 'DESC')
      .limit(limit);
    if (projectId !== undefined) qb.andWhere('p.id = :projectId', { projectId });
    if (q) {
      const key = /^(.+)-(\d{1,9})$/.exec(q);
      qb.andWhere(
        `(i.name ILIKE :like ESCAPE '\\' ${/^\d{1,9}$/.test(q) ? 'OR i.sequenceId = :seq' : ''} ${key ? 'OR (p.identifier = :ident AND i.sequenceId = :kseq)' : ''})`,
        { like: like(q), seq: Number(q), ident: key?.[1].toUpperCase(), kseq: Number(key?.[2]) },
      );
    }
    const self = exclude.self;
    if (self) {
      qb.andWhere('i.id <> :self', { self: self.id });
      if (exclude.parent) {
        // not its own descendants: that would make a loop
        qb.andWhere(`i.id NOT IN (WITH RECURSIVE d(id) AS (SELECT id FROM issues WHERE parent_id = :self AND deleted_at IS NULL
          UNION SELECT c.id FROM issues c JOIN d ON c.parent_id = d.id WHERE c.deleted_at IS NULL) SELECT id FROM d)`);
        if (self.parentId) qb.andWhere('i.id <> :selfParent', { selfParent: self.parentId });
      }
      if (exclude.subIssue) {
        qb.andWhere('i.parentId IS NULL');
        // not its own ancestors: that would make a loop
        qb.andWhere(`i.id NOT IN (WITH RECURSIVE a(id, parent_id) AS (SELECT id, parent_id FROM issues WHERE id = :self
          UNION SELECT c.id, c.parent_id FROM issues c JOIN a ON c.id = a.parent_id) SELECT id FROM a)`);
      }
      if (exclude.issueRelation) {
        qb.andWhere(`NOT EXISTS (SELECT 1 FROM issue_relations r WHERE r.deleted_at IS NULL AND
          ((r.issue_id = :self AND r.related_issue_id = i.id) OR (r.related_issue_id = :self AND r.issue_id = i.id)))`);
      }
    }
    if (exclude.cycle)
      qb.andWhere('NOT EXISTS (SELECT 1 FROM cycle_issues ci WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL)');
    if (exclude.moduleId) {
      qb.andWhere(
        'NOT EXISTS (SELECT 1 FROM module_issues mi WHERE mi.issue_id = i.id AND mi.module_id = :moduleId AND mi.deleted_at IS NULL)',
        { moduleId: exclude.moduleId },
      );
    }
    return qb.getRawMany<Record<string, unknown>>();
  }
}
