import { MeridianError, Page } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Cycle } from '../cycle';
import { IssueService } from '../issue';
import { Module } from '../module';
import { ProjectMember } from '../project';
import { Project } from '../project';
import { State } from '../state';
import { WorkspaceMember } from '../workspace';
import { Workspace } from '../workspace';

/** How many hits each kind of result carries. */
const LIMIT = 100;

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Filters of the "add existing work item" picker (Plane's `IssueSearchEndpoint`). */
export interface IssuePickerQuery {
  search: string;
  /** the work item being edited (for `parent`, `sub_issue`, `issue_relation`) */
  issueId?: string;
  /** picking a parent for `issueId`: not itself, not its current parent, not its sub-items */
  parent?: boolean;
  /** picking sub-items for `issueId`: items without a parent, not itself, not its parent */
  subIssue?: boolean;
  /** picking related items for `issueId`: not itself, not already related */
  issueRelation?: boolean;
  /** picking for a cycle: items in no cycle */
  cycle?: boolean;
  /** picking for this module: items not in it */
  moduleId?: string;
  /** the whole workspace (the caller's projects) instead of the project */
  workspaceSearch?: boolean;
}

/**
 * Search for the App API (Plane 0.25.3's `search/` and `search-issues/`), limited to what the
 * caller can see: the caller's workspaces, and the projects they are an active member of
 * (archived projects and hidden work items, such as drafts and pending intake, excluded).
 */
@Injectable()
export class SearchService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly issues: IssueService) {}

  /**
   * `{results: {workspace, project, issue, cycle, module, issue_view, page}}` whose names contain
   * `search` (work items also by key `ABC-12` or number); empty lists for an empty search. With
   * `projectId` (and not `workspaceSearch`), work items, cycles and modules of that project only.
   */
  async global(workspaceId: string, userId: string, search: string, projectId?: string) {
    const results = { workspace: [] as unknown[], project: [] as unknown[], issue: [] as unknown[], cycle: [] as unknown[], module: [] as unknown[], issue_view: [] as unknown[], page: [] as unknown[] };
    const q = search.trim();
    if (!q) return { results };
    const em = this.dataSource.manager;
    results.workspace = await em.getRepository(Workspace).createQueryBuilder('w')
      .innerJoin(WorkspaceMember, 'm', 'm.workspaceId = w.id AND m.memberId = :userId AND m.isActive = true', { userId })
      .where("w.name ILIKE :like ESCAPE '\\'", { like: like(q) })
      .select(['w.name AS name', 'w.id AS id', 'w.slug AS slug']).orderBy('w.createdAt', 'DESC').limit(LIMIT).getRawMany();
    const mine = <T extends object>(alias: string, entity: new () => T) => em.getRepository(entity).createQueryBuilder(alias)
      .innerJoin(Project, 'p', `p.id = ${alias === 'p' ? 'p.id' : `${alias}.projectId`} AND p.deletedAt IS NULL AND p.archivedAt IS NULL`)
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', { userId })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId', { workspaceId })
      .andWhere(`${alias}.name ILIKE :like ESCAPE '\\'`, { like: like(q) });
    results.project = await em.getRepository(Project).createQueryBuilder('p')
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', { userId })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .where('p.workspaceId = :workspaceId AND p.archivedAt IS NULL', { workspaceId })
      .andWhere("(p.name ILIKE :like ESCAPE '\\' OR p.identifier ILIKE :like ESCAPE '\\')", { like: like(q) })
      .select(['p.name AS name', 'p.id AS id', 'p.identifier AS identifier', 'w.slug AS workspace__slug'])
      .orderBy('p.createdAt', 'DESC').limit(LIMIT).getRawMany();
    for (const [key, alias, entity, archived] of [['cycle', 'c', Cycle, 'c.archivedAt IS NULL'], ['module', 'mo', Module, 'mo.archivedAt IS NULL']] as const) {
      const qb = mine(alias, entity as new () => object).andWhere(archived)
        .select([`${alias}.name AS name`, `${alias}.id AS id`, 'p.id AS project_id', 'p.identifier AS project__identifier', 'w.slug AS workspace__slug'])
        .orderBy(`${alias}.createdAt`, 'DESC').limit(LIMIT);
      if (projectId) qb.andWhere('p.id = :projectId', { projectId });
      results[key] = await qb.getRawMany();
    }
    results.issue = (await this.issues.search(workspaceId, userId, q, projectId, LIMIT)).issues;
    return { results };
  }

  /**
   * Work items that can be added where the picker is used (see `IssuePickerQuery`), newest first,
   * at most 100: `{name, id, start_date, sequence_id, project__name, project__identifier,
   * project_id, workspace__slug, state__name, state__group, state__color}`. 404 for an `issue_id`
   * or module outside the project.
   */
  async picker(workspaceId: string, projectId: string, userId: string, query: IssuePickerQuery): Promise<Page<Record<string, unknown>>> {
    const em = this.dataSource.manager;
    const qb = this.issues.visibleQuery()
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', { userId })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .leftJoin(State, 's', 's.id = i.stateId')
      .andWhere('p.workspaceId = :workspaceId', { workspaceId })
      .select([
        'i.name AS name', 'i.id AS id', 'i.startDate AS start_date', 'i.sequenceId AS sequence_id', 'p.name AS project__name',
        'p.identifier AS project__identifier', 'p.id AS project_id', 'w.slug AS workspace__slug', 's.name AS state__name',
        's.group AS state__group', 's.color AS state__color',
      ])
      .orderBy('i.createdAt', 'DESC').addOrderBy('i.id', 'DESC').limit(LIMIT);
    if (!query.workspaceSearch) qb.andWhere('p.id = :projectId', { projectId });
    const q = query.search.trim();
    if (q) {
      const key = /^(.+)-(\d{1,9})$/.exec(q);
      qb.andWhere(
        `(i.name ILIKE :like ESCAPE '\\' ${/^\d{1,9}$/.test(q) ? 'OR i.sequenceId = :seq' : ''} ${key ? 'OR (p.identifier = :ident AND i.sequenceId = :kseq)' : ''})`,
        { like: like(q), seq: Number(q), ident: key?.[1].toUpperCase(), kseq: Number(key?.[2]) },
      );
    }
    if (query.issueId && (query.parent || query.subIssue || query.issueRelation)) {
      const self = await this.issues.assertExists(projectId, query.issueId);
      qb.andWhere('i.id <> :self', { self: self.id });
      if (query.parent) {
        // not its own descendants: that would make a loop
        qb.andWhere(`i.id NOT IN (WITH RECURSIVE d(id) AS (SELECT id FROM issues WHERE parent_id = :self AND deleted_at IS NULL
          UNION SELECT c.id FROM issues c JOIN d ON c.parent_id = d.id WHERE c.deleted_at IS NULL) SELECT id FROM d)`);
        if (self.parentId) qb.andWhere('i.id <> :selfParent', { selfParent: self.parentId });
      }
      if (query.subIssue) {
        qb.andWhere('i.parentId IS NULL');
        // not its own ancestors: that would make a loop
        qb.andWhere(`i.id NOT IN (WITH RECURSIVE a(id, parent_id) AS (SELECT id, parent_id FROM issues WHERE id = :self
          UNION SELECT c.id, c.parent_id FROM issues c JOIN a ON c.id = a.parent_id) SELECT id FROM a)`);
      }
      if (query.issueRelation) {
        qb.andWhere(`NOT EXISTS (SELECT 1 FROM issue_relations r WHERE r.deleted_at IS NULL AND
          ((r.issue_id = :self AND r.related_issue_id = i.id) OR (r.related_issue_id = :self AND r.issue_id = i.id)))`);
      }
    }
    if (query.cycle) qb.andWhere('NOT EXISTS (SELECT 1 FROM cycle_issues ci WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL)');
    if (query.moduleId) {
      const mod = await em.getRepository(Module).findOne({ where: { id: query.moduleId, projectId } });
      if (!mod) throw new MeridianError('NOT_FOUND');
      qb.andWhere('NOT EXISTS (SELECT 1 FROM module_issues mi WHERE mi.issue_id = i.id AND mi.module_id = :moduleId AND mi.deleted_at IS NULL)', { moduleId: mod.id });
    }
    const rows = await qb.getRawMany<Record<string, unknown>>();
    const out = rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id), start_date: r.start_date ?? null }));
    return new Page(out, LIMIT, out.length, null, null);
  }
}
