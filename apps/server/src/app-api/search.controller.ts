import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  Principal,
  ProjectAccess,
  WorkspaceAccess,
} from '#common';
import { SearchService } from '#domain';
import { Controller, Get, Query } from '@nestjs/common';
import { intInRange, single } from '../shared/context';

function bool(query: Record<string, unknown>, name: string): boolean {
  const v = single(query, name);
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be true or false.`);
}

function uuid(query: Record<string, unknown>, name: string): string | undefined {
  const v = single(query, name);
  if (v === undefined || v === '') return undefined;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v))
    throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be a UUID.`);
  return v.toLowerCase();
}

/**
 * Search on the App API (Plane 0.25.3 `app/urls/search.py`), limited to what the caller can see:
 * their workspaces and the projects they are an active member of.
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  /**
   * `?search=` (names; work items also by `ABC-12` or number; pages also by their text), optional
   * `project_id` (work items, cycles, modules and pages of that project only unless
   * `workspace_search=true`): `{results: {workspace, project, issue, cycle, module, issue_view,
   * page}}`, each at most 100 (Plane's shape; views are always empty).
   */
  @Get('search')
  global(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    const projectId = bool(query, 'workspace_search') ? undefined : uuid(query, 'project_id');
    return this.search.global(ws.workspaceId, me.userId, single(query, 'search') ?? '', projectId);
  }

  /**
   * `?query_type=user_mention,project,issue,cycle,module,page&query=&count=5&project_id=&issue_id=`
   * (Plane's `SearchEndpoint`, the editor's mentions and entity pickers): `{<query_type>: [...]}`
   * for each known type asked (default `user_mention`), at most `count` (default 5, 1 to 100) each,
   * newest first; `page` is always `[]`. Mentions are the workspace's members, or with `project_id`
   * the project's Admins and Members and the creator of `issue_id`. `team_id` is accepted and
   * ignored (Plane's community edition has no teams). 400 `INVALID_QUERY_PARAMETER` for a bad
   * `count` or id; 404 for a project the caller is not a member of, or a work item not in it.
   */
  @Get('entity-search')
  entities(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    const count = intInRange(query, 'count', 5, 100);
    const projectId = uuid(query, 'project_id');
    return this.search.entities(
      { workspaceId: ws.workspaceId, userId: me.userId, workspaceRole: ws.role },
      {
        query: single(query, 'query') ?? '',
        types: (single(query, 'query_type') || 'user_mention').split(',').map((t) => t.trim()),
        count,
        projectId,
        issueId: projectId ? uuid(query, 'issue_id') : undefined,
      },
    );
  }

  /**
   * The "add existing work item" picker (Plane's `IssueSearchEndpoint`): `search`, `issue_id` with
   * `parent=true` / `sub_issue=true` / `issue_relation=true`, `cycle=true`, `module=<id>`,
   * `workspace_search=true`; the work items that can be added, newest first, at most 100, a bare
   * array (as Plane).
   */
  @Get('projects/:project_id/search-issues')
  async picker(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Query() query: Record<string, unknown>,
  ) {
    const found = await this.search.picker(ws.workspaceId, project.projectId, me.userId, {
      search: single(query, 'search') ?? '',
      issueId: uuid(query, 'issue_id'),
      parent: bool(query, 'parent'),
      subIssue: bool(query, 'sub_issue'),
      issueRelation: bool(query, 'issue_relation'),
      cycle: bool(query, 'cycle'),
      moduleId: uuid(query, 'module'),
      workspaceSearch: bool(query, 'workspace_search'),
    });
    return found.results;
  }
}
