import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  idListParam,
  isUuid,
  MeridianError,
  oneOfListParam,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  V1_PAGING,
  WorkspaceAccess,
  streamedList,
} from '#common';
import { IssueChildrenService, IssueCommandService, IssueQueryService, parseShape, PRIORITIES } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  CommentDto,
  CreateWorkItemDto,
  CreateLinkDto,
  UpdateWorkItemDto,
  UpdateLinkDto,
} from '../shared/dto/work-item.dto';
import { issueContext, single } from '../shared/context';

/**
 * Work items are served under both path families with one implementation: `/issues/` (Plane 0.25.3,
 * the MCP server's `plane-mcp-server/build/tools/issues.js`) and `/work-items/` (newer Plane, the
 * SDK's `plane-node-sdk/dist/api/WorkItems/index.js`). Each controller below lists both paths.
 */
const PROJECT = 'workspaces/:slug/projects/:project_id';
const both = (suffix = '') => [`${PROJECT}/issues${suffix}`, `${PROJECT}/work-items${suffix}`];

/**
 * Workspace-level work item routes: search, then lookup by key. The literal `search/` routes are
 * registered first, so `{IDENT}-{seq}` never swallows them (the SDK calls both shapes:
 * `search` and `retrieveByIdentifier` in `plane-node-sdk/dist/api/WorkItems/index.js`).
 */
@Controller('workspaces/:slug')
@ApiKeyAuth()
export class WorkItemLookupController {
  constructor(private readonly issues: IssueQueryService) {}

  /**
   * `GET work-items/search/?search=&project=` (SDK) and `issues/search/` (newer Plane): `{issues: [...]}`
   * with `id, name, sequence_id, project__identifier, project_id, workspace__slug`, in projects the
   * caller is a member of. `project` or `project_id` narrows to one project; `limit` 1–100 (default 10).
   */
  @Get(['work-items/search', 'issues/search'])
  search(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    const project = single(query, 'project_id') ?? single(query, 'project');
    if (project !== undefined && project !== '' && !isUuid(project))
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'project must be a project id.');
    const limitRaw = single(query, 'limit');
    const limit = limitRaw === undefined || limitRaw === '' ? 10 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'limit must be an integer from 1 to 100.');
    return this.issues.search(
      ws.workspaceId,
      me.userId,
      single(query, 'search') ?? '',
      project ? project.toLowerCase() : undefined,
      limit,
    );
  }

  /** `GET issues/{IDENT}-{seq}/` (MCP) and `work-items/{IDENT}-{seq}/` (SDK); `fields=`/`expand=` apply; 404 otherwise. */
  @Get(['issues/:key', 'work-items/:key'])
  byKey(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('key') key: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.retrieveByKey(ws.workspaceId, me.userId, key, parseShape(query));
  }
}

/** Work items of a project (Plane `plane/api/views/issue.py` IssueAPIEndpoint). Reads need a project membership, writes role ≥ 15. */
@Controller(both())
@ApiKeyAuth()
export class WorkItemsController {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly commands: IssueCommandService,
  ) {}

  /**
   * Visible work items, newest first; `order_by` (see `ISSUE_ORDER_BY`), `fields=`, `expand=`
   * (state, labels, assignees, project, parent, workspace, created_by, updated_by); paginated.
   * Filters `state`, `priority`, `assignee`, `label` (comma-separated; the SDK's list params).
   * With `external_id` and `external_source`: that one work item (404 if none).
   */
  @Get()
  list(
    @CurrentProject() project: ProjectAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.list(project.projectId, {
      page,
      shape: parseShape(query),
      order_by: single(query, 'order_by'),
      external_id: single(query, 'external_id'),
      external_source: single(query, 'external_source'),
      state: idListParam(query, 'state'),
      priority: oneOfListParam(query, 'priority', PRIORITIES),
      assignee: idListParam(query, 'assignee'),
      label: idListParam(query, 'label'),
    });
  }

  /** 201 with the work item; 409 `EXTERNAL_ID_TAKEN` with the holder's `id`; 422. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateWorkItemDto,
  ) {
    return this.commands.create(issueContext(me, ws, project), body);
  }

  /**
   * Upsert by `external_id` + `external_source` (Plane 0.25.3's PUT on the collection): 200 with the
   * updated work item, or 201 with a new one; 422 without both keys (or without `name` to create).
   */
  @Put()
  async upsert(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: UpdateWorkItemDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, issue } = await this.commands.upsert(issueContext(me, ws, project), body);
    res.status(created ? 201 : 200);
    return issue;
  }

  @Get(':issue_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.retrieve(project.projectId, id, parseShape(query));
  }

  /** 200 with the work item; `assignees`/`labels` replace the sets; every change is recorded in the activities. */
  @Patch(':issue_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Body() body: UpdateWorkItemDto,
  ) {
    return this.commands.update(issueContext(me, ws, project), id, body);
  }

  /** 204; only the creator or a project Admin (403 `PERMISSION_DENIED`). */
  @Delete(':issue_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
  ) {
    await this.commands.remove(issueContext(me, ws, project), id);
  }
}

/**
 * Comments on a work item (Plane `plane/api/views/issue.py` IssueCommentAPIEndpoint). Any project
 * member, Guests included, may read and write (Plane's ProjectLite rule); only the author or an Admin
 * may change or delete one.
 */
@Controller(both('/:issue_id/comments'))
@ApiKeyAuth()
@ProjectRole(ROLE.GUEST)
export class WorkItemCommentsController {
  constructor(private readonly children: IssueChildrenService) {}

  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const list = await this.children.listComments(project.projectId, issueId, page, parseShape(query));
    return streamedList(list.chunks, list.page ?? undefined);
  }

  /** 201 with the comment; 409 `EXTERNAL_ID_TAKEN`. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CommentDto,
  ) {
    return this.children.createComment(issueContext(me, ws, project), issueId, body);
  }

  @Get(':comment_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.children.retrieveComment(project.projectId, issueId, id, parseShape(query));
  }

  @Patch(':comment_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
    @Body() body: CommentDto,
  ) {
    return this.children.updateComment(issueContext(me, ws, project), issueId, id, body);
  }

  @Delete(':comment_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) id: string,
  ) {
    await this.children.removeComment(issueContext(me, ws, project), issueId, id);
  }
}

/** Links on a work item (Plane `plane/api/views/issue.py` IssueLinkAPIEndpoint): a URL at most once per work item (409 `LINK_URL_TAKEN`). */
@Controller(both('/:issue_id/links'))
@ApiKeyAuth()
export class WorkItemLinksController {
  constructor(private readonly children: IssueChildrenService) {}

  @Get()
  list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.children.listLinks(project.projectId, issueId, page, parseShape(query));
  }

  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateLinkDto,
  ) {
    return this.children.createLink(issueContext(me, ws, project), issueId, body);
  }

  @Get(':link_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.children.retrieveLink(project.projectId, issueId, id, parseShape(query));
  }

  @Patch(':link_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
    @Body() body: UpdateLinkDto,
  ) {
    return this.children.updateLink(issueContext(me, ws, project), issueId, id, body);
  }

  @Delete(':link_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('link_id', UuidPipe) id: string,
  ) {
    await this.children.removeLink(issueContext(me, ws, project), issueId, id);
  }
}

/** The history of a work item (Plane `plane/api/views/issue.py` IssueActivityAPIEndpoint): read-only. */
@Controller(both('/:issue_id/activities'))
@ApiKeyAuth()
export class WorkItemActivitiesController {
  constructor(private readonly children: IssueChildrenService) {}

  /** Oldest first (`order_by=-created_at` for newest first); paginated; `fields=` applies. */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const orderBy = single(query, 'order_by') ?? 'created_at';
    if (orderBy !== 'created_at' && orderBy !== '-created_at')
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'order_by must be created_at or -created_at.');
    const list = await this.children.listActivities(
      project.projectId,
      issueId,
      page,
      parseShape(query),
      orderBy === 'created_at' ? 'ASC' : 'DESC',
    );
    return streamedList(list.chunks, list.page ?? undefined);
  }

  @Get(':activity_id')
  retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('activity_id', UuidPipe) id: string,
  ) {
    return this.children.retrieveActivity(project.projectId, issueId, id);
  }
}
