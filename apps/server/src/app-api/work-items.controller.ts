import {
  APP_PAGED_BY_NUMBER,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  dateListParam,
  idListParam,
  idsOrNoneParam,
  listAnswer,
  MeridianError,
  oneOfListParam,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  streamedList,
} from '#common';
import {
  AppIssueJson,
  AttachmentService,
  HistoryKind,
  IssueChildrenService,
  IssueCommandService,
  IssueListQuery,
  IssueOperationsService,
  IssueQueryService,
  IssueRelationService,
  IssueSubscriberService,
  ModuleService,
  parseShape,
  PRIORITIES,
  RecentVisitService,
} from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query } from '@nestjs/common';
import { CreateRelationDto, RemoveRelationDto } from '../shared/dto/relation.dto';
import {
  AppCreateWorkItemDto,
  AppUpdateWorkItemDto,
  appIssueInput,
  BulkOperationDto,
  BulkWorkItemDatesDto,
  WorkItemIdsDto,
  WorkItemModulesDto,
  SubWorkItemsDto,
} from './dto/work-items.dto';
import { issueContext, single } from '../shared/context';

const PROJECT = 'workspaces/:slug/projects/:project_id';
const STATE_GROUPS = ['backlog', 'unstarted', 'started', 'completed', 'cancelled', 'triage'];

/** Plane's `type` filter (`filter_issue_state_type`): the state groups it keeps. */
const STATE_TYPES: Record<string, string[]> = {
  active: ['unstarted', 'started'],
  backlog: ['backlog'],
  all: ['backlog', 'unstarted', 'started', 'completed', 'cancelled'],
};

/**
 * The App API list query: Plane's filters (state, state_group, priority, assignees, labels,
 * created_by, mentions, cycle, module, project, subscriber, type, parent, estimate_point, name, the
 * dates, `start_target_date=true`, `sub_issue=false`), `order_by`,
 * `fields`/`expand`, the caller (Guest visibility: `project` is the caller's standing in the
 * route's project, absent on the workspace list, which applies each project's rule).
 */
export function listQuery(
  query: Record<string, unknown>,
  page: PageRequest,
  me: Principal,
  project?: ProjectAccess,
): IssueListQuery {
  const subIssue = single(query, 'sub_issue');
  if (subIssue !== undefined && subIssue !== 'true' && subIssue !== 'false')
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'sub_issue must be true or false.');
  const type = single(query, 'type');
  if (type !== undefined && type !== '' && !STATE_TYPES[type])
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'type must be active, backlog or all.');
  const bothDates = single(query, 'start_target_date');
  if (bothDates !== undefined && bothDates !== 'true' && bothDates !== 'false')
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'start_target_date must be true or false.');
  return {
    page,
    view: 'app',
    viewer: project ? { userId: me.userId, role: project.role } : undefined,
    top_level: subIssue === 'false',
    project: idListParam(query, 'project'),
    subscriber: idListParam(query, 'subscriber'),
    mentions: idListParam(query, 'mentions'),
    state_type: type ? STATE_TYPES[type] : undefined,
    shape: parseShape(query),
    order_by: single(query, 'order_by'),
    state: idListParam(query, 'state'),
    state_group: oneOfListParam(query, 'state_group', STATE_GROUPS),
    priority: oneOfListParam(query, 'priority', PRIORITIES),
    assignee: idListParam(query, 'assignees'),
    label: idListParam(query, 'labels'),
    created_by: idListParam(query, 'created_by'),
    cycle: idsOrNoneParam(query, 'cycle'),
    module: idsOrNoneParam(query, 'module'),
    start_date: dateListParam(query, 'start_date'),
    target_date: dateListParam(query, 'target_date'),
    created_at: dateListParam(query, 'created_at'),
    updated_at: dateListParam(query, 'updated_at'),
    completed_at: dateListParam(query, 'completed_at'),
    name: single(query, 'name') || undefined,
    parent: idsOrNoneParam(query, 'parent'),
    estimate_point: idListParam(query, 'estimate_point'),
    both_dates: bothDates === 'true',
  };
}

/**
 * A project's work item list for `q` (Plane's `IssueViewSet.list`, also `CycleIssueViewSet.list` and
 * `ModuleIssueViewSet.list` with the row's filter): the page of App values, or with `group_by`
 * Plane's grouped envelope, and with `sub_group_by` as well its sub-grouped one
 * (`IssueQueryService.listSubGrouped`). 400 `INVALID_QUERY_PARAMETER` for a bad grouping.
 */
export function projectWorkItems(
  issues: IssueQueryService,
  projectId: string,
  query: Record<string, unknown>,
  q: IssueListQuery,
): Promise<unknown> {
  const groupBy = single(query, 'group_by');
  const subGroupBy = single(query, 'sub_group_by');
  // without group_by, Plane pages the list as it is
  if (groupBy && subGroupBy) return issues.listSubGrouped(projectId, q, groupBy, subGroupBy);
  return groupBy ? issues.listGrouped(projectId, q, groupBy) : issues.list(projectId, q);
}

/**
 * The App API detail of a work item as Plane's `IssueDetailSerializer(issue, expand=...)` answers it:
 * `is_subscribed` (whether the caller follows it) and what `expand=` asks for. Plane's web app reads every work item with
 * `expand=issue_reactions,issue_attachments,issue_link,parent` and lists its links, reactions and
 * attachments from these (without `issue_link` its link list stays unset and adding a link throws).
 * `parent`, `issue_link` and `issue_reactions` as `IssueQueryService.detailExpansions`,
 * `issue_attachments` as `AttachmentService.expandedAttachments`; other values are ignored.
 */
async function fullDetail<T extends { id: string; project_id: string; parent_id: string | null }>(
  detail: T,
  query: Record<string, unknown>,
  caller: { userId: string; slug: string },
  services: { issues: IssueQueryService; attachments: AttachmentService; subscribers: IssueSubscriberService },
): Promise<T & Record<string, unknown>> {
  const { expand } = parseShape(query);
  const more = await services.issues.detailExpansions(detail, expand);
  if (expand.has('issue_attachments'))
    more.issue_attachments = await services.attachments.expandedAttachments(detail.project_id, detail.id, caller.slug);
  return { ...detail, is_subscribed: await services.subscribers.isSubscribed(detail.id, caller.userId), ...more };
}

/**
 * Work items in the App API (Plane 0.25.3 `app/urls/issue.py`, `IssueViewSet`). Reads: any project
 * member (Guests included); writes: project Admins and Members. The list pages (the cursor
 * envelope), `issues/list/` and `history/` are bare arrays, as in Plane (docs/decisions.md "App API
 * lists: a bare array unless paged"); the objects are Plane's App values (ids and counts).
 */
@Controller(`${PROJECT}/issues`)
@BearerAuth()
export class AppWorkItemsController {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly commands: IssueCommandService,
    private readonly operations: IssueOperationsService,
    private readonly recentVisits: RecentVisitService,
    private readonly attachments: AttachmentService,
    private readonly subscribers: IssueSubscriberService,
  ) {}

  /**
   * Visible work items, newest first; `order_by` (see `ISSUE_ORDER_BY`); filters `state`,
   * `state_group`, `priority`, `assignees`, `labels`, `created_by`, `mentions`, `cycle`, `module` (ids or `None`),
   * `project`, `subscriber`, `type` (`active`, `backlog`, `all`), `start_date`/`target_date`
   * (`YYYY-MM-DD;after|before`), comma-separated; `group_by` (`state_id`, `state__group`,
   * `priority`, `labels__id`, `assignees__id`, `cycle_id`, `issue_module__module_id`, `created_by`,
   * `start_date`, `target_date`, `project_id`) answers Plane's grouped envelope. Paged by number as
   * Plane's web app asks (`cursor=<per_page>:<page>:0`, docs/decisions.md "Work item lists page by
   * number"). `fields=`/`expand=` give the v1 work item object instead of the App values. 400 for a bad parameter.
   * A project Guest sees only the work items they created, unless the project has `guest_view_all_features`.
   */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return projectWorkItems(this.issues, project.projectId, query, listQuery(query, page, me, project));
  }

  /** 201 with the App values of the new work item; 409 `EXTERNAL_ID_TAKEN`; 422. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: AppCreateWorkItemDto,
  ) {
    const { id } = await this.commands.create(issueContext(me, ws, project), appIssueInput(body));
    return this.issues.detailAppById(id);
  }

  /**
   * `issues/list/?issues=<id>,<id>` (Plane's `IssueListEndpoint`): those visible work items of the
   * project (unknown ids left out), with the list's filters and order, a bare array (as Plane, also
   * with `group_by`, which orders nothing there); 400 without `issues`. Declared before `{issue_id}`.
   */
  @Get('list')
  async listByIds(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const ids = idListParam(query, 'issues');
    if (!ids) throw new MeridianError('INVALID_QUERY_PARAMETER', 'Issues are required.');
    if (ids.length > 1000) throw new MeridianError('INVALID_QUERY_PARAMETER', 'At most 1000 issues.');
    const found = await this.issues.list(project.projectId, { ...listQuery(query, page, me, project), ids });
    return found instanceof Page ? listAnswer(page, found) : found;
  }

  /**
   * The work item's App values plus `description_html`, `description_stripped`, `workspace_id`, and
   * `is_subscribed` and what `expand=` asks for (`fullDetail`); 404 otherwise. Recorded as a recent visit
   * (`recent-visits/`, Plane's `recent_visited_task`).
   */
  @Get(':issue_id')
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    const issue = await this.issues.retrieveApp(project.projectId, id, false, {
      userId: me.userId,
      role: project.role,
    });
    await this.recentVisits.record(ws.workspaceId, me.userId, 'issue', issue.id, project.projectId);
    return fullDetail(
      issue,
      query,
      { userId: me.userId, slug: ws.slug },
      {
        issues: this.issues,
        attachments: this.attachments,
        subscribers: this.subscribers,
      },
    );
  }

  /** 204 (Plane); `assignees`/`assignee_ids` and `labels`/`label_ids` replace the sets; history for each change. */
  @Patch(':issue_id')
  @HttpCode(204)
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Body() body: AppUpdateWorkItemDto,
  ): Promise<void> {
    await this.commands.update(issueContext(me, ws, project), id, appIssueInput(body));
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':issue_id')
  @HttpCode(204)
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Body() body: AppUpdateWorkItemDto,
  ): Promise<void> {
    return this.update(me, ws, project, id, body);
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

  /** `{sequence_id, project_identifier}` (Plane's `IssueMetaEndpoint`); 404 as `retrieve`. */
  @Get(':issue_id/meta')
  meta(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
  ) {
    return this.issues.metaApp(project.projectId, id, { userId: me.userId, role: project.role });
  }

  /** An archived work item, as `retrieve`; 404 when it is not archived. Project role ≥ 15 (Plane's `IssueArchiveViewSet`). */
  @Get(':issue_id/archive')
  @ProjectRole(ROLE.MEMBER)
  retrieveArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
  ) {
    return this.issues.retrieveApp(project.projectId, id, true, { userId: me.userId, role: project.role });
  }

  /** 200 `{archived_at}`; 400 `ISSUE_NOT_ARCHIVABLE` unless its state is completed or cancelled. */
  @Post(':issue_id/archive')
  @HttpCode(200)
  archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
  ) {
    return this.operations.archive(issueContext(me, ws, project), id);
  }

  /** 204, the work item is visible again; 404 when it is not archived. */
  @Delete(':issue_id/archive')
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
  ) {
    await this.operations.unarchive(issueContext(me, ws, project), id);
  }

  /** `{sub_issues, state_distribution}` (Plane's shape): direct sub-items in the App values, oldest first. */
  @Get(':issue_id/sub-issues')
  subIssues(@CurrentProject() project: ProjectAccess, @Param('issue_id', UuidPipe) id: string) {
    return this.operations.subIssues(project.projectId, id);
  }

  /** `{sub_issue_ids}` → 200 as GET: those work items of the project get this parent (one transaction; 404/422 roll back all). */
  @Post(':issue_id/sub-issues')
  @HttpCode(200)
  addSubIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) id: string,
    @Body() body: SubWorkItemsDto,
  ) {
    return this.operations.addSubIssues(issueContext(me, ws, project), id, body.sub_issue_ids);
  }
}

/** `GET archived-issues/`: archived work items, filters, `order_by` and `group_by` as the list. Project role ≥ 15 (Plane's `IssueArchiveViewSet`). */
@Controller(`${PROJECT}/archived-issues`)
@BearerAuth()
@ProjectRole(ROLE.MEMBER)
export class AppArchivedWorkItemsController {
  constructor(private readonly issues: IssueQueryService) {}

  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const groupBy = single(query, 'group_by');
    const q = listQuery(query, page, me, project);
    return groupBy
      ? this.issues.listGrouped(project.projectId, q, groupBy, true)
      : this.issues.listArchived(project.projectId, q);
  }
}

/**
 * `GET issues-detail/` (Plane's `IssueDetailEndpoint`, which the web app calls when `expand` asks
 * for `issue_relation` without `group_by`): the list's work items, filters, order and Guest rule,
 * always paged (by number, as the list), in the App values; `expand=issue_relation,issue_related`
 * adds the relations each work item holds and those held on it. Any project member.
 */
@Controller(PROJECT)
@BearerAuth()
export class AppWorkItemDetailsController {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly relations: IssueRelationService,
  ) {}

  @Get('issues-detail')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const q = listQuery(query, page, me, project);
    const expand = q.shape.expand;
    const found = (await this.issues.list(project.projectId, {
      ...q,
      shape: { expand: new Set() },
    })) as Page<AppIssueJson>;
    if (!expand.has('issue_relation') && !expand.has('issue_related')) return found;
    const ids = found.results.map((i) => i.id);
    const relations = await this.relations.expandForList(me.userId, project.projectId, ids);
    return found.map((item) => {
      const r = relations.get(item.id)!;
      return {
        ...item,
        ...(expand.has('issue_relation') ? { issue_relation: r.issue_relation } : {}),
        ...(expand.has('issue_related') ? { issue_related: r.issue_related } : {}),
      };
    });
  }
}

/**
 * `GET /api/workspaces/{slug}/issues/` (Plane's `WorkspaceViewIssuesViewSet.list`, the web app's
 * workspace views: all, assigned, created, subscribed, and saved views): the visible work items of
 * the workspace's projects the caller is an active member of, each project's Guest rule applied.
 * Any workspace member (a workspace Guest sees the projects they are a member of).
 */
@Controller('workspaces/:slug/issues')
@BearerAuth()
export class AppWorkspaceWorkItemsController {
  constructor(private readonly issues: IssueQueryService) {}

  /**
   * The project list's filters (and `project`, `subscriber`, `type`), `order_by`, `fields`/`expand`
   * and `group_by` (and `project_id`), newest first, paged by number as the project list: the
   * cursor envelope, or Plane's grouped envelope (sub-grouped with `sub_group_by`). 400 for a bad parameter.
   */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.listWorkspace(
      ws.workspaceId,
      me.userId,
      listQuery(query, page, me),
      single(query, 'group_by'),
      single(query, 'sub_group_by'),
    );
  }
}

/**
 * Bulk operations (Plane's `BulkDeleteIssuesEndpoint`, `BulkIssueOperationsEndpoint`,
 * `BulkArchiveIssuesEndpoint`), each in one transaction.
 */
@Controller(PROJECT)
@BearerAuth()
export class AppBulkWorkItemsController {
  constructor(private readonly operations: IssueOperationsService) {}

  /** Project Admins: `{issue_ids}` → 200 `{message: "N issues were deleted"}`; ids of other projects are ignored. */
  @Delete('bulk-delete-issues')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(200)
  bulkDelete(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: WorkItemIdsDto,
  ) {
    return this.operations.bulkDelete(issueContext(me, ws, project), body.issue_ids);
  }

  /** `{issue_ids, properties}` → 204; one invalid work item or property rolls all back (404/422). */
  @Post('bulk-operation-issues')
  @HttpCode(204)
  async bulkUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: BulkOperationDto,
  ) {
    await this.operations.bulkUpdate(issueContext(me, ws, project), body.issue_ids, body.properties);
  }

  /** `{issue_ids}` → 200 `{archived_at}`; 400 `ISSUE_NOT_ARCHIVABLE` if any is not completed or cancelled (none archived). */
  @Post('bulk-archive-issues')
  @HttpCode(200)
  bulkArchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: WorkItemIdsDto,
  ) {
    return this.operations.bulkArchive(issueContext(me, ws, project), body.issue_ids);
  }
}

/**
 * `updated_at__gt` of the local cache sync: an ISO 8601 instant (a date alone is its midnight UTC),
 * as UTC ISO; else 400.
 */
function updatedAfter(query: Record<string, unknown>): string | undefined {
  const raw = single(query, 'updated_at__gt')?.trim();
  if (raw === undefined || raw === '') return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i.test(raw);
  const time = ok ? Date.parse(raw.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1')) : NaN;
  if (Number.isNaN(time))
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'updated_at__gt must be an ISO 8601 time.');
  return new Date(time).toISOString();
}

/** The cursor of `v2/issues/` (Plane's `PaginateCursor`): `<page size>:<page>:<offset>`, size capped at 1000; else 400 `INVALID_CURSOR`. */
function syncCursor(query: Record<string, unknown>): { pageSize: number; page: number } {
  const raw = single(query, 'cursor')?.trim();
  if (raw === undefined || raw === '') return { pageSize: 1000, page: 0 };
  const match = /^(\d{1,9}):(\d{1,9}):(\d{1,9})$/.exec(raw);
  if (!match || Number(match[1]) < 1) throw new MeridianError('INVALID_CURSOR');
  return { pageSize: Math.min(Number(match[1]), 1000), page: Number(match[2]) };
}

/**
 * The web app's local cache (Plane 0.25.3 `IssuePaginatedViewSet`, `DeletedIssuesListViewSet`,
 * `IssueBulkUpdateDateEndpoint`): the sync of a project's work items and of their deletions, and
 * the gantt chart's date changes.
 */
@Controller(PROJECT)
@BearerAuth()
export class AppWorkItemSyncController {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly operations: IssueOperationsService,
  ) {}

  /**
   * `GET v2/issues/?cursor=<size>:<page>:0&updated_at__gt=<time>&description=true`: Plane's
   * `{prev_cursor, cursor, next_cursor, prev_page_results, next_page_results, page_count,
   * total_results, total_pages, results}`, the visible work items (a Guest's under the Guest rule)
   * oldest change first, with the App values, `state__group` and, with `description=true`,
   * `description_html`. Pages by number (default 1000 a page, at most 1000); 400
   * `INVALID_CURSOR`, 400 `INVALID_QUERY_PARAMETER` for a bad `updated_at__gt`.
   */
  @Get('v2/issues')
  sync(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.syncPage(project.projectId, {
      ...syncCursor(query),
      updatedAfter: updatedAfter(query),
      description: single(query, 'description')?.toLowerCase() === 'true',
      viewer: { userId: me.userId, role: project.role },
    });
  }

  /** `GET deleted-issues/?updated_at__gt=<time>`: an array of the ids of work items deleted or archived since then (all without it). */
  @Get('deleted-issues')
  deleted(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.issues.deletedIds(project.projectId, updatedAfter(query), { userId: me.userId, role: project.role });
  }

  /** `POST issue-dates/` `{updates: [{id, start_date, target_date}]}` → 200 `{message}`; project Admins and Members; 422 for a start after the target (nothing changed). */
  @Post('issue-dates')
  @ProjectRole(ROLE.MEMBER)
  @HttpCode(200)
  updateDates(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: BulkWorkItemDatesDto,
  ) {
    return this.operations.updateDates(issueContext(me, ws, project), body.updates ?? []);
  }
}

/**
 * `GET /api/workspaces/{slug}/work-items/{IDENT}-{seq}/` (Plane 0.25.3 `IssueDetailIdentifierEndpoint`):
 * the detail of a work item by key, with `is_subscribed` and what `expand=` asks for (`fullDetail`), in a project the
 * caller is a member of; else 404. Recorded as a recent visit.
 */
@Controller('workspaces/:slug/work-items')
@BearerAuth()
export class AppWorkItemKeyController {
  constructor(
    private readonly issues: IssueQueryService,
    private readonly recentVisits: RecentVisitService,
    private readonly attachments: AttachmentService,
    private readonly subscribers: IssueSubscriberService,
  ) {}

  @Get(':key')
  async byKey(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('key') key: string,
    @Query() query: Record<string, unknown>,
  ) {
    const issue = await this.issues.retrieveByKeyApp(ws.workspaceId, me.userId, key);
    await this.recentVisits.record(ws.workspaceId, me.userId, 'issue', issue.id, issue.project_id);
    return fullDetail(
      issue,
      query,
      { userId: me.userId, slug: ws.slug },
      {
        issues: this.issues,
        attachments: this.attachments,
        subscribers: this.subscribers,
      },
    );
  }
}

/**
 * Relations (`issue-relation/`, `remove-relation/`), history and modules of a work item. The
 * relation rules are `IssueRelationService`'s: the other work items must be in projects the caller
 * is a member of (422 otherwise).
 */
@Controller(`${PROJECT}/issues/:issue_id`)
@BearerAuth()
export class AppWorkItemLinksToOthersController {
  constructor(
    private readonly relations: IssueRelationService,
    private readonly children: IssueChildrenService,
    private readonly modules: ModuleService,
  ) {}

  /** One array per relation type of the related work items (`id, name, project_id, sequence_id, relation_type, state_id, priority, …`). */
  @Get('issue-relation')
  listRelations(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.relations.listDetailed(me.userId, project.projectId, issueId);
  }

  /**
   * `{relation_type, issues}` → 201 with a plain list, one row per related work item (Plane 0.25.3
   * `IssueRelationViewSet.create`; see `IssueRelationService.createListed`); 422 for unknown or
   * unreachable work items.
   */
  @Post('issue-relation')
  async createRelation(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateRelationDto,
  ) {
    return this.relations.createListed(issueContext(me, ws, project), issueId, body.relation_type, body.issues);
  }

  /** `{related_issue}` → 204, removed on both sides; 404 when they are not related. */
  @Post('remove-relation')
  @HttpCode(204)
  async removeRelation(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: RemoveRelationDto,
  ) {
    await this.relations.remove(issueContext(me, ws, project), issueId, body.related_issue);
  }

  /**
   * The work item's history and comments, a bare array (Plane's `IssueActivityEndpoint`):
   * `activity_type=issue-property` the history rows (`IssueActivitySerializer`), `issue-comment` the
   * comments (`IssueCommentSerializer`), anything else both merged; `created_at__gt` only what was
   * created after that time (400 `INVALID_QUERY_PARAMETER` if it is not one). Oldest first;
   * `order_by=-created_at` for newest first.
   */
  @Get('history')
  async history(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const orderBy = single(query, 'order_by') ?? 'created_at';
    if (orderBy !== 'created_at' && orderBy !== '-created_at')
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'order_by must be created_at or -created_at.');
    const type = single(query, 'activity_type');
    const kind: HistoryKind = type === 'issue-property' || type === 'issue-comment' ? type : 'all';
    const afterRaw = single(query, 'created_at__gt');
    const after = afterRaw ? new Date(afterRaw) : null;
    if (after && Number.isNaN(after.getTime()))
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'created_at__gt must be a date and time (ISO 8601).');
    return streamedList(
      await this.children.appHistory(project.projectId, issueId, {
        kind,
        after,
        order: orderBy === 'created_at' ? 'ASC' : 'DESC',
        shape: parseShape(query),
      }),
    );
  }

  /** `{modules, removed_modules}` → 200 `{message: "success"}`: the work item joins and leaves modules of the project, in one transaction. */
  @Post('modules')
  @HttpCode(200)
  setModules(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: WorkItemModulesDto,
  ) {
    return this.modules.setIssueModules(
      issueContext(me, ws, project),
      issueId,
      body.modules ?? [],
      body.removed_modules ?? [],
    );
  }
}

/**
 * A work item's versions (Plane 0.25.3 `app/urls/issue.py` `versions/`, `description-versions/`;
 * `app/views/issue/version.py`): any project member (Plane: ADMIN, MEMBER, GUEST), a Guest only for
 * work items they may see. Lists answer Plane's global paginator envelope (`cursor=<size>:<page>:0`).
 */
@Controller(`${PROJECT}/issues/:issue_id`)
@BearerAuth()
export class AppWorkItemVersionsController {
  constructor(private readonly issues: IssueQueryService) {}

  /** Plane's `IssueVersion` rows, which only its maintenance command writes: always no results. */
  @Get('versions')
  versions(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const { pageSize, page } = syncCursor(query);
    return this.issues.versions(project.projectId, issueId, { userId: me.userId, role: project.role }, pageSize, page);
  }

  /** Always 404: there are no `IssueVersion` rows (see `versions/`). */
  @Get('versions/:version_id')
  async version(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('version_id', UuidPipe) _versionId: string,
  ): Promise<never> {
    await this.issues.versions(project.projectId, issueId, { userId: me.userId, role: project.role }, 1, 0);
    throw new MeridianError('NOT_FOUND');
  }

  /** The description's versions, newest first: `{id, workspace, project, issue, last_saved_at, owned_by, …}`. */
  @Get('description-versions')
  descriptionVersions(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const { pageSize, page } = syncCursor(query);
    return this.issues.descriptionVersions(
      project.projectId,
      issueId,
      { userId: me.userId, role: project.role },
      pageSize,
      page,
    );
  }

  /** One version with its `description_html`, `description_stripped`, `description_json`; 404 otherwise. */
  @Get('description-versions/:version_id')
  descriptionVersion(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('version_id', UuidPipe) versionId: string,
  ) {
    return this.issues.descriptionVersion(project.projectId, issueId, versionId, {
      userId: me.userId,
      role: project.role,
    });
  }
}
