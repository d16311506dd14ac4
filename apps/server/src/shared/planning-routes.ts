import {
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  Page,
  PageQuery,
  PageRequest,
  PagingPolicy,
  Principal,
  ProjectAccess,
  ProjectRole,
  Role,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { CYCLE_VIEWS, CycleView, IssueContext, parseShape, Shape } from '#domain';
import { applyDecorators, Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Type } from '@nestjs/common';
import { WorkItemIdsDto } from './dto/planning.dto';
import { issueContext, single } from './context';

/**
 * What the shared handlers need of `CycleService` and `ModuleService` (both `PlanningService`s of
 * the domain's cycle room, with their own `create`/`update`): `J` a row's JSON, `C`/`U` the create
 * and update inputs.
 */
export interface PlanningRoutesService<J, C, U> {
  create(ctx: IssueContext, input: C): Promise<J>;
  retrieve(projectId: string, id: string): Promise<J>;
  retrieveArchived(projectId: string, id: string): Promise<J>;
  update(ctx: IssueContext, id: string, input: U): Promise<J>;
  remove(ctx: IssueContext, id: string): Promise<void>;
  listIssues(projectId: string, id: string, page: PageRequest, shape: Shape, desc?: boolean): Promise<Page<unknown>>;
  addIssues(ctx: IssueContext, id: string, issueIds: string[]): Promise<unknown[]>;
  retrieveIssueLink(projectId: string, id: string, issueId: string): Promise<unknown>;
  removeIssue(ctx: IssueContext, id: string, issueId: string): Promise<void>;
  archive(ctx: IssueContext, id: string): Promise<void>;
  unarchive(ctx: IssueContext, id: string): Promise<void>;
}

/** A row's JSON as `service` answers it (`CycleService`, `ModuleService`). */
export type RowOf<S extends { retrieve(projectId: string, id: string): Promise<unknown> }> = Awaited<
  ReturnType<S['retrieve']>
>;

/**
 * The routes of one kind (cycles or modules) on one API, as the shared handlers below take them.
 * Each controller spells its own out, so that what differs between the kinds and the APIs stays in
 * view there.
 */
export interface PlanningRoutesSpec<C, U> {
  /** The rows' path segment: `cycles`, `modules`. */
  rows: 'cycles' | 'modules';
  /** The path parameter of one row: `cycle_id`, `module_id`. */
  id: 'cycle_id' | 'module_id';
  /** The work items' path segment under a row: `cycle-issues`, `issues` (App modules), `module-issues` (v1 modules). */
  workItems: 'cycle-issues' | 'issues' | 'module-issues';
  /** The create body (`POST {rows}/`). */
  createDto: Type<C>;
  /** The update body (`PATCH {rows}/{id}/`). */
  updateDto: Type<U>;
  /** The paging of `GET {rows}/{id}/{workItems}/`. */
  workItemsPaging: PagingPolicy;
  /** Whether `GET {rows}/{id}/{workItems}/` takes `order_by` (`created_at` or `-created_at`; v1). */
  orderBy: boolean;
  /**
   * The least project role of a row's detail, its work items and a work item's link row; absent:
   * any project member (the project guard's default).
   */
  readRole?: Role;
}

/** The App API's further routes of a kind. */
export interface AppPlanningRoutesSpec<C, U> extends PlanningRoutesSpec<C, U> {
  /** The least project role of `GET archived-{rows}/{id}/`; absent: any project member. */
  archivedReadRole?: Role;
}

/** `ProjectRole(role)`, or nothing (any project member) without one. */
const roleOf = (role: Role | undefined) => applyDecorators(...(role === undefined ? [] : [ProjectRole(role)]));

/**
 * `@Body()` of a DTO named at run time. TypeScript records a generic parameter's type as `Object`
 * in `design:paramtypes`, where `RequestValidationPipe` (validation, 422) and the OpenAPI document
 * (the request body's schema) read the DTO class: this puts `dto` there. Parameter decorators run
 * after TypeScript's own metadata, so the class is the one that stays.
 */
function BodyOf(dto: Type<unknown>): ParameterDecorator {
  return (target, key, index) => {
    const types = Reflect.getMetadata('design:paramtypes', target, key!) as unknown[] | undefined;
    if (!types) throw new Error(`BodyOf: no design:paramtypes on ${String(key)} (emitDecoratorMetadata off?)`);
    const updated = [...types];
    updated[index] = dto;
    Reflect.defineMetadata('design:paramtypes', updated, target, key!);
    Body()(target, key, index);
  };
}

/**
 * `cycle_view` of the cycle lists (both APIs): all (default), current, upcoming, completed, draft,
 * incomplete, in any case; 400 `INVALID_QUERY_PARAMETER` otherwise.
 */
export function cycleViewOf(query: Record<string, unknown>): CycleView {
  const view = (single(query, 'cycle_view') || 'all').toLowerCase();
  if (!(CYCLE_VIEWS as readonly string[]).includes(view)) {
    throw new MeridianError('INVALID_QUERY_PARAMETER', `cycle_view must be one of: ${CYCLE_VIEWS.join(', ')}.`);
  }
  return view as CycleView;
}

/** `order_by` of the work item lists: `created_at` (default) or `-created_at`; true for newest first. */
export function newestFirst(query: Record<string, unknown>): boolean {
  const orderBy = single(query, 'order_by') || 'created_at';
  if (orderBy !== 'created_at' && orderBy !== '-created_at')
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'order_by must be created_at or -created_at.');
  return orderBy === '-created_at';
}

/**
 * The handlers that cycles and modules share on both APIs, as a class to extend (one call per
 * controller: the routes are the spec's), parametrised by the kind's `spec`:
 *
 * - `POST {rows}/` → 201, `GET|PATCH|DELETE {rows}/{id}/` (delete 204): the row through `present`;
 * - `GET|POST {rows}/{id}/{workItems}/` (the work items, paged by `workItemsPaging`; add → 200 with
 *   the link rows), `GET|DELETE {rows}/{id}/{workItems}/{issue_id}/` (the link row; 204);
 * - `POST|DELETE {rows}/{id}/archive/` → 204.
 *
 * The subclass passes its service and `present` (a row's answer: as the service gives it on v1, with
 * the App API's keys on the App API); `readRole` applies to the detail, the work items and a link.
 */
export function PlanningRoutes<J, C, U>(spec: PlanningRoutesSpec<C, U>) {
  const one = `${spec.rows}/:${spec.id}`;
  const items = `${one}/${spec.workItems}`;
  const readRole = roleOf(spec.readRole);

  abstract class PlanningRoutesBase {
    protected abstract readonly service: PlanningRoutesService<J, C, U>;

    /** The answer for `rows` (`detail`: a retrieve's, with the detail keys). */
    protected abstract present(rows: J[], userId: string, opts?: { detail?: boolean }): Promise<unknown[]>;

    /** 201 with the row (kind-specific 409/422: the service's). */
    @Post(spec.rows)
    async create(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @BodyOf(spec.createDto) body: C,
    ) {
      return (await this.present([await this.service.create(issueContext(me, ws, project), body)], me.userId))[0];
    }

    /** The row's detail; 404 for an archived row or another project's. */
    @Get(one)
    @readRole
    async retrieve(
      @CurrentPrincipal() me: Principal,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      const found = await this.service.retrieve(project.projectId, id);
      return (await this.present([found], me.userId, { detail: true }))[0];
    }

    /** 200 with the row; 400 `{KIND}_ARCHIVED` and the kind's own refusals; 409; 422. */
    @Patch(one)
    async update(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @BodyOf(spec.updateDto) body: U,
    ) {
      const updated = await this.service.update(issueContext(me, ws, project), id, body);
      return (await this.present([updated], me.userId))[0];
    }

    /** 204; the creator or a project Admin (403 `PERMISSION_DENIED`). */
    @Delete(one)
    @HttpCode(204)
    async remove(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      await this.service.remove(issueContext(me, ws, project), id);
    }

    /** The row's work items: `workItems`' answer (404 for a row of another project). */
    @Get(items)
    @readRole
    listIssues(
      @CurrentPrincipal() me: Principal,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @PageQuery(spec.workItemsPaging) page: PageRequest,
      @Query() query: Record<string, unknown>,
    ): Promise<unknown> {
      return this.workItems(me, project, id, page, query);
    }

    /**
     * `GET {rows}/{id}/{workItems}/`: the row's work items as work item objects, oldest first,
     * paginated; `fields=`/`expand=` (and `order_by` where the spec says). An API whose Plane
     * answers otherwise (the App API: its work item list) gives its own.
     */
    protected workItems(
      _me: Principal,
      project: ProjectAccess,
      id: string,
      page: PageRequest,
      query: Record<string, unknown>,
    ): Promise<unknown> {
      const desc = spec.orderBy ? newestFirst(query) : false;
      return this.service.listIssues(project.projectId, id, page, parseShape(query), desc);
    }

    /** `{issues: [ids]}` → 200 with every link row of the row (how a work item linked elsewhere is treated: the kind's). */
    @Post(items)
    @HttpCode(200)
    addIssues(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @Body() body: WorkItemIdsDto,
    ) {
      return this.service.addIssues(issueContext(me, ws, project), id, body.issues);
    }

    /** The link row of a work item in this row; 404 otherwise. */
    @Get(`${items}/:issue_id`)
    @readRole
    retrieveIssue(
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @Param('issue_id', UuidPipe) issueId: string,
    ) {
      return this.service.retrieveIssueLink(project.projectId, id, issueId);
    }

    /** 204; the work item leaves the row. */
    @Delete(`${items}/:issue_id`)
    @HttpCode(204)
    async removeIssue(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @Param('issue_id', UuidPipe) issueId: string,
    ) {
      await this.service.removeIssue(issueContext(me, ws, project), id, issueId);
    }

    /** 204; only what the kind lets be archived (400 `CYCLE_NOT_COMPLETED`, `MODULE_NOT_ARCHIVABLE`). */
    @Post(`${one}/archive`)
    @HttpCode(204)
    async archive(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      await this.service.archive(issueContext(me, ws, project), id);
    }

    /** Plane 0.25.3's unarchive: 204. */
    @Delete(`${one}/archive`)
    @HttpCode(204)
    async unarchive(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      await this.service.unarchive(issueContext(me, ws, project), id);
    }
  }
  return PlanningRoutesBase;
}

/**
 * `PlanningRoutes` with the App API's further shared routes: `PUT {rows}/{id}/` (Plane maps it to the
 * update, `"put": "update"`) and `GET archived-{rows}/{id}/` (an archived row's detail, as
 * `{rows}/{id}/` gives a live one; 404 for a row that is not archived or not this project's; Plane
 * 0.25.3 `…ArchiveUnarchiveEndpoint.get` with a `pk`), its role the spec's `archivedReadRole`.
 */
export function AppPlanningRoutes<J, C, U>(spec: AppPlanningRoutesSpec<C, U>) {
  abstract class AppPlanningRoutesBase extends PlanningRoutes<J, C, U>(spec) {
    /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH. */
    @Put(`${spec.rows}/:${spec.id}`)
    putUpdate(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
      @BodyOf(spec.updateDto) body: U,
    ) {
      return this.update(me, ws, project, id, body);
    }

    /** An archived row's detail. */
    @Get(`archived-${spec.rows}/:${spec.id}`)
    @roleOf(spec.archivedReadRole)
    async retrieveArchived(
      @CurrentPrincipal() me: Principal,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      const found = await this.service.retrieveArchived(project.projectId, id);
      return (await this.present([found], me.userId, { detail: true }))[0];
    }
  }
  return AppPlanningRoutesBase;
}

/**
 * `PlanningRoutes` with External API v1's further shared route: `DELETE archived-{rows}/{id}/unarchive/`
 * (newer Plane; the SDK's `unArchive`, `unArchiveModule`) → 204, as `DELETE {rows}/{id}/archive/`.
 * A row's answer is the service's JSON as it is.
 */
export function V1PlanningRoutes<J, C, U>(spec: PlanningRoutesSpec<C, U>) {
  abstract class V1PlanningRoutesBase extends PlanningRoutes<J, C, U>(spec) {
    protected present(rows: J[]): Promise<unknown[]> {
      return Promise.resolve(rows);
    }

    /** 204. */
    @Delete(`archived-${spec.rows}/:${spec.id}/unarchive`)
    @HttpCode(204)
    async unarchiveNew(
      @CurrentPrincipal() me: Principal,
      @CurrentWorkspace() ws: WorkspaceAccess,
      @CurrentProject() project: ProjectAccess,
      @Param(spec.id, UuidPipe) id: string,
    ) {
      await this.service.unarchive(issueContext(me, ws, project), id);
    }
  }
  return V1PlanningRoutesBase;
}
