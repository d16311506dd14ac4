import {
  APP_PAGING,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  dateListParam,
  idListParam,
  listParam,
  MeridianError,
  oneOfListParam,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { appIntakeIssueView, INTAKE_STATUSES, IntakeListFilter, IntakeService, PRIORITIES } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { IntakeDto } from '../shared/dto/intake.dto';
import { UpdateIntakeObjectDto } from './dto/intake-object.dto';
import { issueContext, single } from '../shared/context';

const PROJECT = 'workspaces/:slug/projects/:project_id';

const ORDER_BY = ['issue__created_at', 'issue__updated_at', 'issue__sequence_id'];

/**
 * The App list's query (Plane's `IntakeIssueViewSet.list`): `status` (comma-separated, default
 * `-2`, pending only; `null` values are dropped), the work item filters `state`, `priority`,
 * `labels`, `assignees`, `created_by`, `created_at`, `updated_at`, and `order_by` (`issue__created_at`,
 * `issue__updated_at`, `issue__sequence_id`, `-` for descending; default `-issue__created_at`).
 */
function intakeListFilter(query: Record<string, unknown>): IntakeListFilter {
  const isStatus = (v: string) => /^-?\d$/.test(v) && (INTAKE_STATUSES as readonly number[]).includes(Number(v));
  const given = listParam(query, 'status', isStatus);
  // no `status` at all: pending only (Plane's default `-2`); given but only `null`s: every status
  const statuses = (given ?? (single(query, 'status') === undefined ? ['-2'] : [])).map(Number);
  const orderBy = single(query, 'order_by') ?? '-issue__created_at';
  const key = orderBy.replace(/^-/, '');
  if (!ORDER_BY.includes(key))
    throw new MeridianError(
      'INVALID_QUERY_PARAMETER',
      `order_by must be one of: ${ORDER_BY.join(', ')} (with - for descending).`,
    );
  return {
    statuses,
    issue: {
      state: idListParam(query, 'state'),
      priority: oneOfListParam(query, 'priority', PRIORITIES),
      label: idListParam(query, 'labels'),
      assignee: idListParam(query, 'assignees'),
      created_by: idListParam(query, 'created_by'),
    },
    created_at: dateListParam(query, 'created_at'),
    updated_at: dateListParam(query, 'updated_at'),
    orderBy: key.slice('issue__'.length) as IntakeListFilter['orderBy'],
    desc: orderBy.startsWith('-'),
  };
}

/**
 * A project's intake on the App API (Plane 0.25.3 `app/urls/intake.py`: `intake-issues/` and its
 * older name `inbox-issues/`, which the 0.25.3 web app calls; items addressed by their work item's id), through the same `IntakeService` as v1: every project member,
 * Guests included, may submit; a Guest reads only their own items unless the project has
 * `guest_view_all_features`; edits by the item's creator or a project Admin, status changes by
 * project Admins (403). 400 `INTAKE_NOT_ENABLED` while the project's `intake_view` is off. Items in
 * Plane's App shapes: the list's `IntakeIssueSerializer` (`appIntakeIssueView`: `issue` is the work
 * item object), the other answers' `IntakeIssueDetailSerializer` (`IntakeService.forAppDetail`:
 * the work item's detail values and `duplicate_issue_detail`).
 */
@Controller(`${PROJECT}/intake-issues`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppIntakeController {
  constructor(private readonly intake: IntakeService) {}

  /** The cursor envelope; filters and order as `intakeListFilter` (400 `INVALID_QUERY_PARAMETER`). */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const viewer = { userId: me.userId, role: project.role };
    return (await this.intake.list(project.projectId, page, viewer, intakeListFilter(query))).map(appIntakeIssueView);
  }

  /** 201 with the pending item; 422 without `issue.name`. */
  @Post()
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: IntakeDto,
  ) {
    return this.intake.forAppDetail(await this.intake.create(issueContext(me, ws, project), body));
  }

  @Get(':issue_id')
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.intake.forAppDetail(
      await this.intake.retrieve(project.projectId, issueId, { userId: me.userId, role: project.role }),
    );
  }

  /** 200; `status` (accept 1, decline −1, snooze 0, duplicate 2) by project Admins only (403). */
  @Patch(':issue_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: IntakeDto,
  ) {
    return this.intake.forAppDetail(await this.intake.update(issueContext(me, ws, project), issueId, body));
  }

  /** 204; the work item goes too unless accepted. */
  @Delete(':issue_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.intake.remove(issueContext(me, ws, project), issueId);
  }
}

/** The same intake under `inbox-issues/`, the name Plane 0.25.3's web app calls (`web/core/services/inbox/inbox-issue.service.ts`). */
@Controller(`${PROJECT}/inbox-issues`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppInboxController extends AppIntakeController {}

/**
 * The project's intake object (Plane's `IntakeViewSet`, `plane/app/views/intake/base.py`; the
 * serializer is `IntakeSerializer`): the list answers the one intake as an object, as Plane's
 * `list` does, with `pending_issue_count`. Project Admins and Members (Plane's `allow_permission`
 * on `list` and `destroy`; its retrieve and update check only the sign-in: stricter here). Plane's
 * `create` fails (its permission decorator sits on `perform_create`), so there is no POST.
 */
@Controller(`${PROJECT}/intakes`)
@BearerAuth()
@ProjectRole(ROLE.MEMBER)
export class AppIntakeObjectsController {
  constructor(private readonly intake: IntakeService) {}

  /** 200 with the project's intake; 404 `NOT_FOUND` while its intake was never used. */
  @Get()
  async list(@CurrentProject() project: ProjectAccess) {
    return this.intake.intakeObject(project.projectId);
  }

  @Get(':intake_id')
  async retrieve(@CurrentProject() project: ProjectAccess, @Param('intake_id', UuidPipe) id: string) {
    return this.intake.intakeObject(project.projectId, id);
  }

  /** 200 with the intake; 400 `PROJECT_ARCHIVED`. */
  @Patch(':intake_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('intake_id', UuidPipe) id: string,
    @Body() body: UpdateIntakeObjectDto,
  ) {
    return this.intake.updateIntakeObject(issueContext(me, ws, project), id, body);
  }

  /** Always 400 `INTAKE_DEFAULT_UNDELETABLE` for an existing intake (a project's only intake is its default). */
  @Delete(':intake_id')
  async remove(@CurrentProject() project: ProjectAccess, @Param('intake_id', UuidPipe) id: string) {
    return this.intake.removeIntakeObject(project.projectId, id);
  }
}

/** The same under `inboxes/`, Plane's older name (`plane/app/urls/intake.py`). */
@Controller(`${PROJECT}/inboxes`)
@BearerAuth()
@ProjectRole(ROLE.MEMBER)
export class AppInboxObjectsController extends AppIntakeObjectsController {}
