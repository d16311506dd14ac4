import { MeridianError, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FavoriteService } from '../favorite';
import { ISSUE_ORDER_KEYS, IssueListQuery, IssueQueryService } from '../issue';
import { ProjectService } from '../project';
import { assertProjectWritable } from '../kernel/project-writable';
import { defaultDisplayFilters, defaultDisplayProperties } from '../kernel/display-defaults';
import { IssueView, VIEW_ACCESS } from './issue-view.entity';
import { AppViewJson, appViewView } from './view.app-view';
import { assertViewFilters, planeQuery, viewIssueFilters } from './view-filters';
import { VIEW_ORDER_COLUMNS, ViewOrderKey, ViewRepository, ViewVisibility } from './view.repository';

/** Writable view fields, Plane's names (`IssueViewSerializer`; `access` and `is_locked` too, see the service). */
export interface ViewInput {
  name?: string;
  description?: string;
  filters?: Record<string, unknown>;
  display_filters?: Record<string, unknown>;
  display_properties?: Record<string, unknown>;
  access?: number;
  sort_order?: number;
  logo_props?: Record<string, unknown>;
  is_locked?: boolean;
}

/**
 * Who asks, and where: a project's views (`projectId`, `role` the caller's project role) or the
 * workspace's (`projectId` null, `role` the caller's workspace role).
 */
export interface ViewScope {
  workspaceId: string;
  projectId: string | null;
  userId: string;
  role: number | null;
}

/** The filter keys of a work item list query a view's `filters` can fill. */
const FILTER_KEYS = [
  'state',
  'state_group',
  'priority',
  'assignee',
  'label',
  'created_by',
  'cycle',
  'module',
  'start_date',
  'target_date',
] as const;

/**
 * Saved views (Plane 0.25.3 `plane/app/views/view/base.py`: `IssueViewViewSet` for a project's,
 * `WorkspaceViewViewSet` for the workspace's, `IssueViewFavoriteViewSet`). A caller sees the public
 * views and their own private ones (`access` 0); a Guest sees only their own (in a project, unless
 * it has `guest_view_all_features`). Only the owner changes a view (403 for anyone else), and not
 * while it is locked (400 `VIEW_LOCKED`) unless the change unlocks it; the owner or an Admin (of the
 * project, or of the workspace for a workspace view) deletes it, with everyone's favourites of it.
 * A view another caller cannot see is a 404.
 */
@Injectable()
export class ViewService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly views: ViewRepository,
    private readonly favorites: FavoriteService,
    private readonly issues: IssueQueryService,
    private readonly projects: ProjectService,
  ) {}

  /**
   * The views the caller sees. A project's: favourites first, then by name (Plane's
   * `order_by("-is_favorite", "name")`); none while the project is archived. The workspace's: by
   * `order` (`created_at`, `updated_at`, `name`, `sort_order`, `-` for descending; default
   * `-created_at`), else 400 `INVALID_QUERY_PARAMETER`.
   */
  async list(scope: ViewScope, order?: string): Promise<AppViewJson[]> {
    const raw = order?.trim() || '-created_at';
    const desc = raw.startsWith('-');
    const key = desc ? raw.slice(1) : raw;
    if (!(key in VIEW_ORDER_COLUMNS)) {
      const accepted = Object.keys(VIEW_ORDER_COLUMNS).flatMap((k) => [k, `-${k}`]);
      throw new MeridianError('INVALID_QUERY_PARAMETER', `order_by must be one of: ${accepted.join(', ')}.`);
    }
    const visibility = await this.visibility(scope);
    if (!visibility) return [];
    const rows = await this.views.list(visibility, key as ViewOrderKey, desc);
    const out = await this.render(scope.userId, rows);
    if (scope.projectId === null) return out;
    return out.sort(
      (a, b) => Number(b.is_favorite) - Number(a.is_favorite) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }

  /** One view the caller sees; 404 `NOT_FOUND` otherwise (also while its project is archived). */
  async retrieve(scope: ViewScope, id: string): Promise<AppViewJson> {
    return (await this.render(scope.userId, [await this.load(scope, id)]))[0];
  }

  /**
   * Creates a view owned by the caller (201). `filters` is checked (422) and stored with Plane's
   * `query`; `display_filters` and `display_properties` default to Plane's; `access` defaults to
   * public (1); `sort_order` is the largest of the project's (or workspace's) views + 10000, as
   * Plane's `IssueView.save` (the given one, or 65535, for the first). 400 `PROJECT_ARCHIVED`.
   */
  async create(scope: ViewScope, input: ViewInput & { name: string }): Promise<AppViewJson> {
    const filters = input.filters ?? {};
    assertViewFilters(filters);
    const view = await this.dataSource.transaction(async (em) => {
      if (scope.projectId !== null) await assertProjectWritable(em, scope.projectId);
      const largest = await this.views.largestSortOrder(em, scope.workspaceId, scope.projectId);
      return this.views.insert(em, {
        workspaceId: scope.workspaceId,
        projectId: scope.projectId,
        name: input.name.trim(),
        description: input.description ?? '',
        filters,
        query: planeQuery(filters),
        displayFilters: input.display_filters ?? defaultDisplayFilters(),
        displayProperties: input.display_properties ?? defaultDisplayProperties(),
        access: input.access ?? VIEW_ACCESS.PUBLIC,
        sortOrder: largest === null ? (input.sort_order ?? 65535) : largest + 10000,
        logoProps: input.logo_props ?? {},
        isLocked: input.is_locked ?? false,
        ownedById: scope.userId,
        createdById: scope.userId,
        updatedById: scope.userId,
      });
    });
    return (await this.render(scope.userId, [view]))[0];
  }

  /**
   * Partial update (200) by the view's owner (403 `PERMISSION_DENIED` for anyone else). A locked
   * view answers 400 `VIEW_LOCKED` unless the body unlocks it (`is_locked: false`). New `filters`
   * are checked (422) and give a new `query`. 400 `PROJECT_ARCHIVED`.
   */
  async update(scope: ViewScope, id: string, input: ViewInput): Promise<AppViewJson> {
    if (input.filters !== undefined) assertViewFilters(input.filters);
    const visibility = await this.visibility(scope);
    if (!visibility) throw new MeridianError('NOT_FOUND');
    const view = await this.dataSource.transaction(async (em) => {
      if (scope.projectId !== null) await assertProjectWritable(em, scope.projectId);
      const view = await this.views.findVisible(em, visibility, id, true);
      if (!view) throw new MeridianError('NOT_FOUND');
      if (view.ownedById !== scope.userId)
        throw new MeridianError('PERMISSION_DENIED', 'Only the owner of the view can update the view.');
      if (view.isLocked && input.is_locked !== false) throw new MeridianError('VIEW_LOCKED');
      const patch: Partial<IssueView> = { updatedById: scope.userId, updatedAt: new Date() };
      if (input.name !== undefined) patch.name = input.name.trim();
      if (input.description !== undefined) patch.description = input.description;
      if (input.filters !== undefined) {
        patch.filters = input.filters;
        patch.query = planeQuery(input.filters);
      }
      if (input.display_filters !== undefined) patch.displayFilters = input.display_filters;
      if (input.display_properties !== undefined) patch.displayProperties = input.display_properties;
      if (input.access !== undefined) patch.access = input.access;
      if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
      if (input.logo_props !== undefined) patch.logoProps = input.logo_props;
      if (input.is_locked !== undefined) patch.isLocked = input.is_locked;
      await this.views.update(em, id, patch);
      return (await this.views.byId(em, id))!;
    });
    return (await this.render(scope.userId, [view]))[0];
  }

  /**
   * Soft-deletes a view (204): its owner or an Admin (project Admin for a project's view, workspace
   * Admin for the workspace's), else 403 `PERMISSION_DENIED`. Everyone's favourites of it go too.
   */
  async remove(scope: ViewScope, id: string): Promise<void> {
    const visibility = await this.visibility(scope, true);
    if (!visibility) throw new MeridianError('NOT_FOUND');
    await this.dataSource.transaction(async (em) => {
      const view = await this.views.findVisible(em, visibility, id, true);
      if (!view) throw new MeridianError('NOT_FOUND');
      if (view.ownedById !== scope.userId && scope.role !== ROLE.ADMIN)
        throw new MeridianError('PERMISSION_DENIED', 'Only admin or owner can delete the view.');
      await this.views.softDelete(em, id);
      await this.favorites.removeAllOf(em, 'view', id);
    });
  }

  /**
   * The work items of a project's view: the project work item list (`IssueQueryService`, the one
   * filter compiler) with the view's `filters`; a filter the query gives replaces the view's for
   * that key (as the web app does while a view's filters are being edited). Without `order_by`, the
   * view's `display_filters.order_by` when it is a list order; without `sub_issue`, the view's
   * `display_filters.sub_issue` (false: top-level work items only). The Guest rule of the list holds.
   * `groupBy` gives Plane's grouped envelope, and with `subGroupBy` its sub-grouped one, as the list.
   */
  async listIssues(
    scope: ViewScope & { projectId: string },
    id: string,
    query: IssueListQuery,
    groupBy?: string,
    subGroupBy?: string,
  ) {
    const view = await this.load(scope, id);
    const stored = viewIssueFilters(view.filters);
    const merged: IssueListQuery = { ...query };
    for (const key of FILTER_KEYS)
      if (merged[key] === undefined) (merged as unknown as Record<string, unknown>)[key] = stored[key];
    const order = view.displayFilters?.order_by;
    if (merged.order_by === undefined && typeof order === 'string' && order.replace(/^-/, '') in ISSUE_ORDER_KEYS)
      merged.order_by = order;
    if (merged.top_level === undefined) merged.top_level = view.displayFilters?.sub_issue === false;
    if (groupBy && subGroupBy) return this.issues.listSubGrouped(scope.projectId, merged, groupBy, subGroupBy);
    return groupBy
      ? this.issues.listGrouped(scope.projectId, merged, groupBy)
      : this.issues.list(scope.projectId, merged);
  }

  /** Adds the project's view to the caller's favourites (a no-op when it is one already); 404 if the caller cannot see it. */
  async favorite(scope: ViewScope & { projectId: string }, id: string): Promise<void> {
    await this.favorites.createInProject(scope.workspaceId, scope.userId, scope.projectId, 'view', id);
  }

  /** Removes the project's view from the caller's favourites; 404 if it is not one. */
  async unfavorite(scope: ViewScope & { projectId: string }, id: string): Promise<void> {
    await this.favorites.removeEntity(scope.workspaceId, scope.userId, 'view', id, scope.projectId);
  }

  /**
   * Which views the caller sees; null while the project is archived (nothing), unless
   * `evenArchived` (deleting, which Plane allows there).
   */
  private async visibility(scope: ViewScope, evenArchived = false): Promise<ViewVisibility | null> {
    let ownOnly = scope.role === ROLE.GUEST;
    if (scope.projectId !== null) {
      const project = await this.projects.findLive(scope.projectId);
      if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
      if (project.archivedAt !== null && !evenArchived) return null;
      ownOnly &&= !project.guestViewAllFeatures;
    }
    return { workspaceId: scope.workspaceId, projectId: scope.projectId, userId: scope.userId, ownOnly };
  }

  private async load(scope: ViewScope, id: string): Promise<IssueView> {
    const visibility = await this.visibility(scope);
    const view = visibility && (await this.views.findVisible(this.dataSource.manager, visibility, id));
    if (!view) throw new MeridianError('NOT_FOUND');
    return view;
  }

  private async render(userId: string, rows: IssueView[]): Promise<AppViewJson[]> {
    const favorite = await this.favorites.favoriteIds(
      userId,
      'view',
      rows.map((r) => r.id),
    );
    return rows.map((r) => appViewView(r, favorite.has(r.id)));
  }
}
