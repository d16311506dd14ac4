import { MeridianError, Page } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IssueQueryService } from '../issue';
import { Module } from '../module';
import { PickerExclusions, SearchRepository } from './search.repository';

/** How many hits each kind of result carries. */
const LIMIT = 100;

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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issues: IssueQueryService,
    private readonly repo: SearchRepository,
  ) {}

  /**
   * `{results: {workspace, project, issue, cycle, module, issue_view, page}}` whose names contain
   * `search` (work items also by key `ABC-12` or number); empty lists for an empty search. With
   * `projectId` (and not `workspaceSearch`), work items, cycles and modules of that project only.
   */
  async global(workspaceId: string, userId: string, search: string, projectId?: string) {
    const results = {
      workspace: [] as unknown[],
      project: [] as unknown[],
      issue: [] as unknown[],
      cycle: [] as unknown[],
      module: [] as unknown[],
      issue_view: [] as unknown[],
      page: [] as unknown[],
    };
    const q = search.trim();
    if (!q) return { results };
    results.workspace = await this.repo.workspaces(userId, q, LIMIT);
    results.project = await this.repo.projects(workspaceId, userId, q, LIMIT);
    for (const key of ['cycle', 'module'] as const)
      results[key] = await this.repo.plans(key, workspaceId, userId, q, projectId, LIMIT);
    results.issue = (await this.issues.search(workspaceId, userId, q, projectId, LIMIT)).issues;
    return { results };
  }

  /**
   * Work items that can be added where the picker is used (see `IssuePickerQuery`), newest first,
   * at most 100: `{name, id, start_date, sequence_id, project__name, project__identifier,
   * project_id, workspace__slug, state__name, state__group, state__color}`. 404 for an `issue_id`
   * or module outside the project.
   */
  async picker(
    workspaceId: string,
    projectId: string,
    userId: string,
    query: IssuePickerQuery,
  ): Promise<Page<Record<string, unknown>>> {
    const exclude: PickerExclusions = { cycle: query.cycle };
    if (query.issueId && (query.parent || query.subIssue || query.issueRelation)) {
      const self = await this.issues.assertExists(projectId, query.issueId);
      exclude.self = { id: self.id, parentId: self.parentId };
      Object.assign(exclude, { parent: query.parent, subIssue: query.subIssue, issueRelation: query.issueRelation });
    }
    if (query.moduleId) {
      const mod = await this.dataSource.manager
        .getRepository(Module)
        .findOne({ where: { id: query.moduleId, projectId } });
      if (!mod) throw new MeridianError('NOT_FOUND');
      exclude.moduleId = mod.id;
    }
    const scope = query.workspaceSearch ? undefined : projectId;
    const rows = await this.repo.pickerRows(workspaceId, scope, userId, query.search.trim(), exclude, LIMIT);
    const out = rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id), start_date: r.start_date ?? null }));
    return new Page(out, LIMIT, out.length, null, null);
  }
}
