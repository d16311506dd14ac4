import { MeridianError, Page } from '#common';
import { Injectable } from '@nestjs/common';
import { CycleService } from '../cycle';
import { IssueQueryService } from '../issue';
import type { PickerExclusions } from '../issue';
import { ReadBatch } from '../kernel/hot-query';
import { ModuleService } from '../module';
import { ProjectMemberService, ProjectService } from '../project';
import { WorkspaceService } from '../workspace';
import { SearchRepository } from './search.repository';

/** How many hits each kind of result carries. */
const LIMIT = 100;

/** The kinds `entity-search/` answers (Plane's `TSearchEntities`); others are left out of the answer. */
export const ENTITY_SEARCH_TYPES = ['user_mention', 'project', 'issue', 'cycle', 'module', 'page'] as const;
export type EntitySearchType = (typeof ENTITY_SEARCH_TYPES)[number];

/** Where `entity-search/` looks: the workspace, or one project of it (`projectId`). */
export interface EntitySearchScope {
  workspaceId: string;
  userId: string;
  /** the caller's workspace role (a workspace Guest finds only the projects they are a member of) */
  workspaceRole: number;
  projectId?: string;
}

/** What `entity-search/` asks for (Plane's `SearchEndpoint` parameters). */
export interface EntitySearchQuery {
  query: string;
  types: string[];
  count: number;
  /** the project the editor is in: its members, work items, cycles, modules */
  projectId?: string;
  /** the work item being edited: its creator is mentionable even as a Guest */
  issueId?: string;
}

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
 * (archived projects and hidden work items, such as drafts and pending intake, excluded). Each
 * kind is one statement of the room that owns it, through its door (the pages are this room's);
 * a request's statements are sent together (`ReadBatch`: one connection, one round trip;
 * docs/decisions.md "Search: the caller's scope written once, and one round trip for a search's
 * kinds").
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly repo: SearchRepository,
    private readonly members: ProjectMemberService,
    private readonly projects: ProjectService,
    private readonly workspaces: WorkspaceService,
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
  ) {}

  /**
   * `{results: {workspace, project, issue, cycle, module, issue_view, page}}` whose names contain
   * `search` (work items also by key `ABC-12` or number; pages also by their text, which Plane does
   * not search: docs/decisions.md); empty lists for an empty search. With `projectId` (and not
   * `workspaceSearch`), work items, cycles, modules and pages of that project only.
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
    // six statements of five rooms, independent of each other: one connection, one round trip
    const batch = new ReadBatch();
    const kind = { projectId, limit: LIMIT, withStatus: false, batch };
    [results.workspace, results.project, results.cycle, results.module, results.issue, results.page] =
      await Promise.all([
        this.workspaces.searchOfMember(userId, q, LIMIT, batch),
        this.projects.searchOfMember(workspaceId, userId, q, LIMIT, batch),
        this.cycles.searchOfMember(workspaceId, userId, q, kind),
        this.modules.searchOfMember(workspaceId, userId, q, kind),
        this.issues.search(workspaceId, userId, q, projectId, LIMIT, batch).then((r) => r.issues),
        this.repo.pages(workspaceId, userId, q, projectId, LIMIT, batch),
      ]);
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
      if (!(await this.modules.existsInProject(projectId, query.moduleId))) throw new MeridianError('NOT_FOUND');
      exclude.moduleId = query.moduleId;
    }
    const scope = query.workspaceSearch ? undefined : projectId;
    const rows = await this.issues.pickerRows(workspaceId, scope, userId, query.search.trim(), exclude, LIMIT);
    const out = rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id), start_date: r.start_date ?? null }));
    return new Page(out, LIMIT, out.length, null, null);
  }

  /**
   * `entity-search/` (Plane's `SearchEndpoint`): a map from each asked kind to at most `count`
   * hits, newest first. `user_mention`: `{member__avatar_url, member__display_name, member__id}`
   * of the workspace's active members who are not bots (with `projectId`: the project's members
   * above Guest, and the creator of `issueId`); `project`: `{name, id, identifier, logo_props,
   * workspace__slug}`; `issue`: `{name, id, sequence_id, project__identifier, project_id, priority,
   * state_id, type_id}` (visible, Guest rule); `cycle`/`module`: `{name, id, project_id,
   * project__identifier, status, workspace__slug}`; `page`: always empty (Meridian has no pages).
   * Unknown kinds are left out, as Plane. 404 for a `projectId` the caller is not an active
   * member of, or an `issueId` not in that project.
   */
  async entities(
    scope: Omit<EntitySearchScope, 'projectId'>,
    query: EntitySearchQuery,
  ): Promise<Partial<Record<EntitySearchType, unknown[]>>> {
    const q = query.query.trim();
    const where: EntitySearchScope = { ...scope, projectId: query.projectId };
    let issueCreatorId: string | null | undefined;
    if (query.projectId) {
      const role = await this.members.activeRoleInOpenProject(scope.workspaceId, query.projectId, scope.userId);
      if (role === undefined) throw new MeridianError('NOT_FOUND');
      if (query.issueId) {
        const viewer = { userId: scope.userId, role };
        issueCreatorId = (await this.issues.assertVisibleTo(query.projectId, query.issueId, viewer)).createdById;
      }
    }
    // the asked kinds' statements (rooms' own, independent of each other): one connection, one round trip
    const batch = new ReadBatch();
    const asked = new Map<EntitySearchType, Promise<unknown[]>>();
    for (const type of query.types) {
      if (!(ENTITY_SEARCH_TYPES as readonly string[]).includes(type) || asked.has(type as EntitySearchType)) continue;
      const kind = type as EntitySearchType;
      if (kind === 'user_mention') {
        asked.set(
          kind,
          query.projectId
            ? this.members.mentionableMembers(query.projectId, issueCreatorId, q, query.count, batch)
            : this.workspaces.mentionableMembers(scope.workspaceId, q, query.count, batch),
        );
      } else if (kind === 'project')
        asked.set(
          kind,
          this.projects.mentionable(where.workspaceId, where.userId, where.workspaceRole, q, query.count, batch),
        );
      else if (kind === 'issue') asked.set(kind, this.issues.mentionable(where, q, query.count, batch));
      else if (kind === 'cycle' || kind === 'module')
        asked.set(
          kind,
          (kind === 'cycle' ? this.cycles : this.modules).searchOfMember(where.workspaceId, where.userId, q, {
            projectId: where.projectId,
            limit: query.count,
            withStatus: true,
            batch,
          }),
        );
      else asked.set(kind, Promise.resolve([]));
    }
    const out: Partial<Record<EntitySearchType, unknown[]>> = {};
    const rows = await Promise.all(asked.values());
    [...asked.keys()].forEach((kind, i) => (out[kind] = rows[i]));
    return out;
  }
}
