import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { Cycle } from '../cycle';
import { exactIssueKey, guestCondition, Issue, rankedIssueSearch, visibleIssuesQuery } from '../issue';
import { Module } from '../module';
import { Project, ProjectMember } from '../project';
import { State } from '../state';
import { User } from '../user';
import { Workspace, WorkspaceMember } from '../workspace';

/** `%q%` for `ILIKE … ESCAPE '\'`, with `\`, `%` and `_` taken literally. */
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where `entity-search/` looks: the workspace, or one project of it (`projectId`). */
export interface EntitySearchScope {
  workspaceId: string;
  userId: string;
  /** the caller's workspace role (a workspace Guest finds only the projects they are a member of) */
  workspaceRole: number;
  projectId?: string;
}

/** Plane's cycle `status` annotation (`SearchEndpoint`, `CycleViewSet`), over the alias `c`, in its order. */
const CYCLE_STATUS = `CASE WHEN c.start_date <= now() AND c.end_date >= now() THEN 'CURRENT'
  WHEN c.start_date > now() THEN 'UPCOMING' WHEN c.end_date < now() THEN 'COMPLETED' ELSE 'DRAFT' END`;

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
   * The pages the caller sees in their live, unarchived projects of the workspace (one project with
   * `projectId`): public ones and their own, a Guest only their own unless the project shows Guests
   * everything (the page room's rules), whose name or text (`description_stripped`, what the editor
   * typed) contains `q`, newest first, at most `limit`. Rows as Plane's `filter_pages`: `{name, id,
   * project_ids, project_identifiers, workspace__slug}`. Reads the page room's tables by name (the
   * page room is above this one).
   */
  async pages(
    workspaceId: string,
    userId: string,
    q: string,
    projectId: string | undefined,
    limit: number,
  ): Promise<unknown[]> {
    const qb = this.dataSource.manager
      .createQueryBuilder()
      .from('Page', 'pg')
      .innerJoin('ProjectPage', 'pp', 'pp.pageId = pg.id AND pp.deletedAt IS NULL')
      .innerJoin(Project, 'p', 'p.id = pp.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .innerJoin(Workspace, 'w', 'w.id = pg.workspaceId')
      .where('pg.workspaceId = :workspaceId AND pg.deletedAt IS NULL', { workspaceId })
      .andWhere('(pg.access = 0 OR pg.ownedById = :userId)')
      .andWhere('(pm.role > 5 OR p.guestViewAllFeatures = true OR pg.ownedById = :userId)')
      .andWhere("(pg.name ILIKE :like ESCAPE '\\' OR pg.descriptionStripped ILIKE :like ESCAPE '\\')", {
        like: like(q),
      })
      .select([
        'pg.name AS name',
        'pg.id AS id',
        'array_agg(DISTINCT p.id) AS project_ids',
        'array_agg(DISTINCT p.identifier) AS project_identifiers',
        'w.slug AS workspace__slug',
      ])
      .groupBy('pg.id')
      .addGroupBy('w.slug')
      .orderBy('MAX(pg.createdAt)', 'DESC')
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
    const base = () => {
      const qb = visibleIssuesQuery(this.dataSource.manager)
        .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
          userId,
        })
        .andWhere('p.workspaceId = :workspaceId AND i.workspace_id = :workspaceId', { workspaceId });
      if (projectId !== undefined) qb.andWhere('p.id = :projectId AND i.project_id = :projectId', { projectId });
      this.excludeFromPicker(qb, exclude);
      return qb;
    };
    const qb = base()
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .leftJoin(State, 's', 's.id = i.stateId')
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
    if (q) rankedIssueSearch(qb, base, q, exactIssueKey(q), limit);
    return qb.getRawMany<Record<string, unknown>>();
  }

  /** The picker's exclusions (see `PickerExclusions`) on a query over the work items `i`. */
  private excludeFromPicker(qb: SelectQueryBuilder<Issue>, exclude: PickerExclusions): void {
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
  }

  // ---- entity-search/ (Plane's SearchEndpoint): the editor's mentions and the entity pickers ----

  /**
   * Users to mention, newest membership first, at most `limit`: the workspace's active members who
   * are not bots, or with `project` the project's active members above Guest plus the creator of
   * `project.issueCreatorId`'s work item (Plane's `role__gt=10 | member_id=issue_created_by`);
   * `q` in the first, last or display name.
   */
  mentionUsers(
    workspaceId: string,
    q: string,
    limit: number,
    project?: { projectId: string; issueCreatorId?: string | null },
  ): Promise<unknown[]> {
    const qb = project
      ? this.dataSource.manager
          .getRepository(ProjectMember)
          .createQueryBuilder('m')
          .where('m.projectId = :projectId AND m.isActive = true', { projectId: project.projectId })
          .andWhere(project.issueCreatorId ? '(m.role > 10 OR m.memberId = :creator)' : 'm.role > 10', {
            creator: project.issueCreatorId,
          })
      : this.dataSource.manager
          .getRepository(WorkspaceMember)
          .createQueryBuilder('m')
          .where('m.workspaceId = :workspaceId AND m.isActive = true', { workspaceId });
    qb.innerJoin(User, 'u', 'u.id = m.memberId AND u.isBot = false')
      .select(['u.avatar AS member__avatar_url', 'u.displayName AS member__display_name', 'u.id AS member__id'])
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .limit(limit);
    if (q) {
      qb.andWhere(
        "(u.firstName ILIKE :like ESCAPE '\\' OR u.lastName ILIKE :like ESCAPE '\\' OR u.displayName ILIKE :like ESCAPE '\\')",
        { like: like(q) },
      );
    }
    return qb.getRawMany();
  }

  /**
   * Projects to mention: the workspace's unarchived projects the caller is an active member of, and
   * the public ones unless the caller is a workspace Guest; `q` in the name or identifier; newest
   * first, at most `limit` (with `projectId` too: Plane's project search ignores it).
   */
  entityProjects(scope: EntitySearchScope, q: string, limit: number): Promise<unknown[]> {
    const member = `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :userId
      AND pm.is_active = true AND pm.deleted_at IS NULL)`;
    const qb = this.dataSource.manager
      .getRepository(Project)
      .createQueryBuilder('p')
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId AND p.archivedAt IS NULL', { workspaceId: scope.workspaceId })
      .andWhere(scope.workspaceRole > 5 ? `(${member} OR p.network = 2)` : member, { userId: scope.userId })
      .select([
        'p.name AS name',
        'p.id AS id',
        'p.identifier AS identifier',
        'p.logoProps AS logo_props',
        'w.slug AS workspace__slug',
      ])
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .limit(limit);
    if (q) qb.andWhere("(p.name ILIKE :like ESCAPE '\\' OR p.identifier ILIKE :like ESCAPE '\\')", { like: like(q) });
    return qb.getRawMany();
  }

  /**
   * Work items to mention: visible ones of the caller's projects (the one project with `projectId`),
   * under the Guest rule per project; `q` in the name or the project identifier, or a number in `q`
   * as the sequence id (Plane's `re.findall(r"\b\d+\b")`); newest first, at most `limit`.
   */
  async entityIssues(scope: EntitySearchScope, q: string, limit: number): Promise<unknown[]> {
    const params: Record<string, unknown> = {};
    const guest = guestCondition(scope.userId, (v) => {
      params.guestViewer = v;
      return ':guestViewer';
    });
    const base = () => {
      const qb = visibleIssuesQuery(this.dataSource.manager)
        .innerJoin(
          ProjectMember,
          'pm',
          'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
          { userId: scope.userId },
        )
        .andWhere('p.workspaceId = :workspaceId AND i.workspace_id = :workspaceId', { workspaceId: scope.workspaceId })
        .andWhere(`(pm.role > 5 OR ${guest})`, params);
      if (scope.projectId)
        qb.andWhere('p.id = :projectId AND i.project_id = :projectId', { projectId: scope.projectId });
      return qb;
    };
    const qb = base()
      .select([
        'i.name AS name',
        'i.id AS id',
        'i.sequenceId AS sequence_id',
        'p.identifier AS project__identifier',
        'p.id AS project_id',
        'i.priority AS priority',
        'i.stateId AS state_id',
        'i.typeId AS type_id',
      ])
      .orderBy('i.createdAt', 'DESC')
      .addOrderBy('i.id', 'DESC')
      .limit(limit);
    if (q) {
      const numbers = [...new Set((q.match(/\b\d+\b/g) ?? []).filter((n) => n.length <= 9).map(Number))];
      rankedIssueSearch(
        qb,
        base,
        q,
        {
          exact: numbers.length ? 'i.sequence_id IN (:...srchNumbers)' : undefined,
          params: { srchNumbers: numbers },
          projectIdentifierIn: scope.workspaceId,
        },
        limit,
      );
    }
    const rows = await qb.getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id) }));
  }

  /**
   * Cycles or modules to mention: the unarchived ones of the caller's projects (the one project with
   * `projectId`) whose name contains `q`, newest first, at most `limit`: `{name, id, project_id,
   * project__identifier, status, workspace__slug}` (a cycle's `status` computed as Plane's).
   */
  entityPlans(kind: 'cycle' | 'module', scope: EntitySearchScope, q: string, limit: number): Promise<unknown[]> {
    const [alias, entity] = kind === 'cycle' ? ['c', Cycle as new () => object] : ['mo', Module as new () => object];
    const qb = this.dataSource.manager
      .getRepository(entity)
      .createQueryBuilder(alias)
      .innerJoin(Project, 'p', `p.id = ${alias}.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL`)
      .innerJoin(
        ProjectMember,
        'pm',
        'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
        { userId: scope.userId },
      )
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId', { workspaceId: scope.workspaceId })
      .andWhere(`${alias}.archivedAt IS NULL`)
      .select([
        `${alias}.name AS name`,
        `${alias}.id AS id`,
        'p.id AS project_id',
        'p.identifier AS project__identifier',
        kind === 'cycle' ? `${CYCLE_STATUS} AS status` : `${alias}.status AS status`,
        'w.slug AS workspace__slug',
      ])
      .orderBy(`${alias}.createdAt`, 'DESC')
      .addOrderBy(`${alias}.id`, 'DESC')
      .limit(limit);
    if (scope.projectId) qb.andWhere('p.id = :projectId', { projectId: scope.projectId });
    if (q) qb.andWhere(`${alias}.name ILIKE :like ESCAPE '\\'`, { like: like(q) });
    return qb.getRawMany();
  }
}
