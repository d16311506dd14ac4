import { MeridianError, Page, pageNumberCursors, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { LabelService, labelView } from '../label';
import { ProjectService } from '../project';
import { found } from '../kernel/db-errors';
import type { ReadBatch } from '../kernel/hot-query';
import { iso } from '../kernel/time';
import { pick, Shape } from '../kernel/fields';
import { StateService, stateLiteView } from '../state';
import { UserProfileService, userLiteView } from '../user';
import { WorkspaceService } from '../workspace';
import {
  ISSUE_GROUP_BY,
  ISSUE_ORDER_KEYS,
  IssueFilterSet,
  IssueGroupBy,
  IssueOrderKey,
  resolveIssueOrder,
} from './issue-filters';
import {
  BoardIssueFilters,
  BoardIssueOrder,
  IssueGroup,
  IssueRepository,
  IssueScope,
  IssueSearchHit,
  readFromSet,
  SyncKeys,
  PlanningLinkScope,
  ActorActivityScope,
  PickerExclusions,
} from './issue.repository';
import { Issue, PRIORITIES } from './issue.entity';
import type { IssueActivity } from './issue-activity.entity';
import { IssueJson, IssueListRecord, IssueRecord, issueRecordFromRow, issueView, linkLiteView } from './issue.view';
import { descriptionVersionView, globalPage, versionListView } from './issue-version.view';

/** A list request: its page, shape, order and filters (`IssueFilterSet` without the Guest rule, which `viewer` decides). */
export interface IssueListQuery extends Omit<IssueFilterSet, 'guestViewerId'> {
  page: PageRequest;
  shape: Shape;
  order_by?: string;
  external_id?: string;
  external_source?: string;
  /** App API: render Plane's App list shape (ids, counts) instead of the v1 object, unless `fields`/`expand` */
  view?: 'app';
  /**
   * App API: the caller. A project Guest sees only the work items they created unless the project
   * has `guest_view_all_features` (Plane's `IssueViewSet.list` and `retrieve`).
   */
  viewer?: { userId: string; role: number | null };
}

/** Plane's App API work item values (`IssueViewSet.list`). */
export interface AppIssueJson {
  id: string;
  name: string;
  state_id: string | null;
  state__group: string | null;
  sort_order: number;
  completed_at: string | null;
  estimate_point: string | null;
  priority: string;
  start_date: string | null;
  target_date: string | null;
  sequence_id: number;
  project_id: string;
  parent_id: string | null;
  cycle_id: string | null;
  module_ids: string[];
  label_ids: string[];
  assignee_ids: string[];
  sub_issues_count: number;
  created_at: string | null;
  updated_at: string | null;
  created_by: string | null;
  updated_by: string | null;
  attachment_count: number;
  link_count: number;
  is_draft: boolean;
  archived_at: string | null;
  deleted_at: string | null;
  type_id: string | null;
}
export type AppIssueDetailJson = AppIssueJson & {
  workspace_id: string;
  description_html: string;
  description_stripped: string | null;
};

/**
 * Plane's grouped paginator envelope (`plane/utils/paginator.py` GroupedOffsetPaginator), with a
 * cursor per group; the top-level cursors are Plane's page cursors when the list pages by number.
 */
export interface GroupedIssues {
  grouped_by: string;
  sub_grouped_by: null;
  total_count: number;
  next_cursor: string | null;
  prev_cursor: string | null;
  next_page_results: boolean;
  prev_page_results: boolean;
  count: number;
  total_pages: number;
  total_results: number;
  extra_stats: null;
  results: Record<
    string,
    { results: unknown[]; total_results: number; next_cursor: string | null; prev_cursor: string | null }
  >;
}

/** A sub-grouped list (`listSubGrouped`): Plane's `SubGroupedOffsetPaginator` through `paginate`. */
export interface SubGroupedIssues extends Omit<GroupedIssues, 'sub_grouped_by' | 'results'> {
  sub_grouped_by: string;
  /** every group: its size and its sub-groups that hold work items, each a page and its size */
  results: Record<
    string,
    { results: Record<string, { results: unknown[]; total_results: number }>; total_results: number }
  >;
}

/** A page of `v2/issues/` (Plane's `plane/utils/global_paginator.py` `paginate`): cursors are `<page size>:<page>:0`. */
export interface SyncPage {
  prev_cursor: string;
  cursor: string;
  next_cursor: string | null;
  prev_page_results: boolean;
  next_page_results: boolean;
  page_count: number;
  total_results: number;
  total_pages: number;
  results: SyncIssueJson[];
}

/** The values of a work item in `v2/issues/` (Plane's `IssuePaginatedViewSet.list` `required_fields`). */
export type SyncIssueJson = Omit<AppIssueJson, 'deleted_at' | 'type_id'> & {
  state__group: string | null;
  description_html?: string;
};

/** What `v2/issues/` asks for: the page (size at most 1000, number from 0), the changes after an instant, the descriptions. */
export interface SyncQuery {
  pageSize: number;
  page: number;
  updatedAfter?: string;
  description: boolean;
  viewer: { userId: string; role: number | null };
}

/** How long the start keys of a sync's pages are kept (ms): a browser asks for all pages within seconds. */
const SYNC_KEYS_TTL_MS = 30_000;
/** How many sets of start keys are kept (one per project, filters and page size; each a page size'th of a project's keys). */
const SYNC_KEYS_CACHED = 64;

/** Assignee and label ids per work item, when the caller already has them. */
type IssueSets = { assignees: Map<string, string[]>; labels: Map<string, string[]> };

/**
 * The page of a group of `size` work items that holds none of them, as the paginators answer it
 * (page N by number at or past the group's end, or the first page of an empty group), without a
 * read; undefined when the page must be read (it holds rows, or an answer to a keyset cursor
 * depends on them).
 */
function pastGroup(page: PageRequest, size: number): Page<IssueListRecord> | undefined {
  if (page.all) return undefined;
  if (page.number !== undefined) {
    if (size > page.number * page.perPage) return undefined;
    return new Page([], page.perPage, size, null, pageNumberCursors(page.perPage, page.number, false).prev);
  }
  return !page.cursor && size === 0 ? new Page([], page.perPage, 0, null, null) : undefined;
}

/** The filters of a list query, the Guest rule of the lists included (a project Guest, not a non-member). */
function filtersOf(query: Omit<IssueListQuery, 'page' | 'shape'>): IssueFilterSet {
  const { viewer, ...filters } = query;
  return { ...filters, guestViewerId: viewer && viewer.role === ROLE.GUEST ? viewer.userId : undefined };
}

/**
 * The paging keys of a grouped or sub-grouped answer (Plane's `paginate` for its grouped
 * paginators): `total` work items, `count` on this page, `more` when a group or cell has another
 * page, `pages` the largest group's; cursors by page number (none for an unpaged list, one page).
 */
function groupedPaging(page: PageRequest, total: number, count: number, more: boolean, pages: number) {
  const number = page.number;
  const cursors = number === undefined ? { next: null, prev: null } : pageNumberCursors(page.perPage, number, more);
  return {
    total_count: total,
    next_cursor: cursors.next,
    prev_cursor: cursors.prev,
    next_page_results: more,
    prev_page_results: cursors.prev !== null,
    count,
    total_pages: number === undefined ? 1 : pages,
    total_results: total,
    extra_stats: null,
  };
}

/** Groupings by a set (labels, assignees, modules): a work item may be in several of their groups. */
function overlaps(by: IssueGroupBy): boolean {
  return by === 'labels__id' || by === 'assignees__id' || by === 'issue_module__module_id';
}

/** How many groups of a grouped list are read at once (`listGrouped`). */
const GROUPS_AT_ONCE = 6;
/** How many groups of a sub-grouped list are read at once (`listSubGrouped`: each a `listGrouped`). */
const SUB_GROUPED_AT_ONCE = 2;

/**
 * The read side of work items (Plane `plane/api/views/issue.py`, `plane/app/views/issue/base.py`;
 * `plane-node-sdk/dist/api/WorkItems/`, `plane-mcp-server/build/tools/issues.js`): the v1 list and
 * the App list (one filter compiler, `issue-filters.ts`), grouped and archived lists, lookups,
 * search, and the renderings (v1 object with `fields`/`expand`, App values).
 */
@Injectable()
export class IssueQueryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: IssueRepository,
    private readonly states: StateService,
    private readonly labels: LabelService,
    private readonly projects: ProjectService,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
  ) {}

  /** `syncKeys`' cache, least recently used first: when each was read, and the read */
  private readonly syncKeysCache = new Map<string, { at: number; keys: Promise<SyncKeys> }>();

  /**
   * The project's visible work items, newest first unless `order_by` says otherwise (one of
   * `ISSUE_ORDER_BY`, else 400 `INVALID_QUERY_PARAMETER`); `fields`/`expand` applied. Optional
   * filters `state`, `priority`, `assignee`, `label` (each comma-separated, any value matches). With both
   * `external_id` and `external_source`, the one matching live work item instead (404 if none).
   */
  async list(
    projectId: string,
    query: IssueListQuery,
  ): Promise<Page<Partial<IssueJson> | AppIssueJson> | Partial<IssueJson>> {
    if (query.external_id !== undefined && query.external_source !== undefined) {
      const hit = await this.repo.findByExternalId(projectId, query.external_id, query.external_source);
      if (!hit) throw new MeridianError('NOT_FOUND');
      return (await this.render([hit], query.shape))[0];
    }
    const { page, shape, order_by, external_id: _id, external_source: _source, view, ...rest } = query;
    const { order, desc } = resolveIssueOrder(order_by);
    if (view === 'app') {
      // the App API's list (more filters, App values): the same filters
      const { page: result, rendered } = await this.renderedPage(projectId, filtersOf(rest), false, order, desc, query);
      return new Page(rendered, result.perPage, result.totalCount, result.nextCursor, result.prevCursor);
    }
    const result = await this.repo.visiblePage(projectId, filtersOf(rest), order, desc, page);
    const rendered = await this.render(result.results, shape);
    return new Page(rendered, result.perPage, result.totalCount, result.nextCursor, result.prevCursor);
  }

  /**
   * A page of `IssueRepository.filteredPage` rendered for a list query (`pageOf`, `renderRows`).
   */
  private async renderedPage(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    order: IssueOrderKey,
    desc: boolean,
    query: IssueListQuery,
  ): Promise<{ page: Page<IssueListRecord>; rendered: Array<Partial<IssueJson> | AppIssueJson> }> {
    // the App shape: a page by number reads its App values with its rows (one statement)
    const values = this.appShape(query) ? new Map<string, Record<string, unknown>>() : undefined;
    const page = await this.pageOf(scope, filters, archived, order, desc, query, undefined, values);
    return { page, rendered: await this.renderRows(page.results, query, values) };
  }

  /** Whether a list query renders Plane's App shape (`view: 'app'`, no `fields`/`expand`). */
  private appShape(query: IssueListQuery): boolean {
    return query.view === 'app' && !query.shape.fields && !query.shape.expand.size;
  }

  /**
   * A page of `IssueRepository.filteredPage` for a list query: without the descriptions for the App
   * shape (`appShape`, which does not show them), else whole work items (the v1 object). `values`
   * (the App shape): filled with the App values a page by number read with its rows, by id.
   */
  private pageOf(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    order: IssueOrderKey,
    desc: boolean,
    query: IssueListQuery,
    group?: IssueGroup,
    values?: Map<string, Record<string, unknown>>,
  ): Promise<Page<IssueListRecord>> {
    return this.appShape(query)
      ? this.repo.filteredPage(scope, filters, archived, order, desc, query.page, group, 'list', values)
      : this.repo.filteredPage(scope, filters, archived, order, desc, query.page, group);
  }

  /**
   * Rows of `pageOf` rendered for the list query: Plane's App shape, else the v1 object
   * (`fields`/`expand`). `values`: App values already read, by work item id (see `renderApp`).
   */
  private renderRows(
    rows: IssueListRecord[],
    query: IssueListQuery,
    values?: ReadonlyMap<string, Record<string, unknown>>,
  ): Promise<Array<Partial<IssueJson> | AppIssueJson>> {
    return this.appShape(query) ? this.renderApp(rows, values) : this.render(rows as IssueRecord[], query.shape);
  }

  /**
   * `?group_by=` on the App API list (Plane's `GroupedOffsetPaginator`, `plane/utils/paginator.py`):
   * the envelope with `grouped_by` set and `results` a map from each group's key (`"None"` for no
   * value) to `{results, total_results, next_cursor, prev_cursor}`. Every group of the scope is
   * present, empty ones included (Plane's `issue_group_values`). Each group is one page of the same
   * order and filters (page N of every group with Plane's page cursor `<per_page>:<N>:0`, as
   * Plane); `cursor` with a group's own filter (e.g. `state=<id>`) pages on inside it.
   * `total_pages` is the largest group's. An unknown `group_by` is 400 `INVALID_QUERY_PARAMETER`.
   * `scope`: a project id, or the caller's projects of a workspace (`listWorkspace`).
   */
  async listGrouped(
    scope: IssueScope,
    query: IssueListQuery,
    groupBy: string,
    archived = false,
  ): Promise<GroupedIssues> {
    if (!(ISSUE_GROUP_BY as readonly string[]).includes(groupBy)) {
      throw new MeridianError('INVALID_QUERY_PARAMETER', `group_by must be one of: ${ISSUE_GROUP_BY.join(', ')}.`);
    }
    const by = groupBy as IssueGroupBy;
    const { order, desc } = resolveIssueOrder(query.order_by);
    const filters = filtersOf(query);
    // every group's size in one statement, read with the keys: a group with no row at the page's
    // place is answered without reading it (a walk for the rows of an empty group would pass
    // every work item of the scope)
    const counts = this.repo.groupCounts(scope, by, filters, archived);
    counts.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    const overlapping = overlaps(by);
    // a work item may be in several of these groups: the total counts it once
    const distinct = overlapping ? this.repo.filteredCount(scope, filters, archived) : undefined;
    distinct?.catch(() => undefined);
    const keys = await this.groupKeysOf(scope, by, filters, archived);
    const sizes = await counts;
    const size = (key: string | null) => sizes.get(key) ?? 0;
    // a set's group small beside the list is read from its own rows (`readFromSet`)
    const listSize = [...sizes.values()].reduce((a, b) => a + b, 0);
    const offset = (query.page.number ?? 0) * query.page.perPage;
    const fromSet = (n: number) => readFromSet(n, offset, query.page.perPage + 1, listSize);
    const results: GroupedIssues['results'] = {};
    let sum = 0;
    let count = 0;
    let more = false;
    let pages = 0;
    const byCreation = order.key === ISSUE_ORDER_KEYS.created_at.key;
    const fromSetOf = (key: string | null) =>
      (overlapping || by === 'cycle_id') &&
      fromSet(size(key)) &&
      // an assignee's or a label's group in creation order is read from its rows whatever its size
      !(byCreation && key !== null && (by === 'assignees__id' || by === 'labels__id'));
    // a page by number of the groups with a value, but those read from their own rows: all in one
    // statement (`groupPages`), with their App values for the App shape, where the size bound does
    // not apply (the App shape, a workspace)
    const number = query.page.number;
    const together =
      number !== undefined && !archived && !query.page.all && (typeof scope !== 'string' || this.appShape(query))
        ? keys.filter((key): key is string => key !== null && !pastGroup(query.page, size(key)) && !fromSetOf(key))
        : [];
    const joint =
      together.length > 0
        ? this.repo.groupPages(
            scope,
            filters,
            order,
            desc,
            { ...query.page, number: number! },
            by,
            together,
            this.appShape(query) ? 'list' : undefined,
            this.appShape(query),
          )
        : undefined;
    joint?.catch(() => undefined); // awaited below
    const inPages = new Set(together);
    // the other groups' pages a statement each, a few at a time: a board's states at once, without
    // one request taking the pool for a grouping with many keys; then all rendered together (one
    // statement for the App values of the rows that have none yet)
    const read: Array<{ key: string | null; page: Page<IssueListRecord> | undefined }> = [];
    for (let at = 0; at < keys.length; at += GROUPS_AT_ONCE) {
      read.push(
        ...(await Promise.all(
          keys.slice(at, at + GROUPS_AT_ONCE).map(async (key) => ({
            key,
            page:
              key !== null && inPages.has(key)
                ? undefined
                : (pastGroup(query.page, size(key)) ??
                  (await this.pageOf(scope, filters, archived, order, desc, query, {
                    by,
                    key,
                    total: async () => size(key),
                    fromSet: fromSetOf(key),
                  }))),
          })),
        )),
      );
    }
    const { pages: jointPages, values } = (await joint) ?? {};
    if (jointPages) {
      for (const r of read) {
        if (r.page || r.key === null) continue;
        const fetched = jointPages.get(r.key) ?? [];
        const { next, prev } = pageNumberCursors(query.page.perPage, number!, fetched.length > query.page.perPage);
        r.page = new Page(fetched.slice(0, query.page.perPage), query.page.perPage, size(r.key), next, prev);
      }
    }
    const done = read as Array<{ key: string | null; page: Page<IssueListRecord> }>;
    const rendered = await this.renderRows(
      done.flatMap((r) => r.page.results),
      query,
      values,
    );
    let at = 0;
    for (const { key, page } of done) {
      results[key ?? 'None'] = {
        results: rendered.slice(at, (at += page.results.length)),
        total_results: page.totalCount,
        next_cursor: page.nextCursor,
        prev_cursor: page.prevCursor,
      };
      count += page.results.length;
      more ||= page.nextCursor !== null;
      pages = Math.max(pages, Math.ceil(page.totalCount / page.perPage));
      if (!overlapping) sum += page.totalCount;
    }
    if (distinct) sum = await distinct;
    return {
      grouped_by: groupBy,
      sub_grouped_by: null,
      ...groupedPaging(query.page, sum, count, more, pages),
      results,
    };
  }

  /** The keys of a grouping, in Plane's order: the state groups and priorities as Plane lists them, else the scope's. */
  private async groupKeysOf(
    scope: IssueScope,
    by: IssueGroupBy,
    filters: IssueFilterSet,
    archived: boolean,
  ): Promise<Array<string | null>> {
    if (by === 'state__group') return ['backlog', 'unstarted', 'started', 'completed', 'cancelled'];
    if (by === 'priority') return [...PRIORITIES];
    return this.repo.groupKeys(scope, by, filters, archived);
  }

  /**
   * A board with sub-groups (`group_by` and `sub_group_by`; Plane's `SubGroupedOffsetPaginator`):
   * every group of `groupBy` (the keys `listGrouped` answers) with its size (a work item counted
   * once) and, as `results`, its sub-groups by `subGroupBy` that hold work items: each cell the
   * page by number of its work items in the list's order (`per_page` a cell, as Plane's window per
   * group and sub-group) and its size. Each group is `listGrouped` of its own work items (the
   * `in_group` filter), a few groups at once. `total_count` counts each work item once;
   * `next_page_results` when a cell has more; `total_pages` from the largest group (Plane's
   * `max_hits`). 400 `INVALID_QUERY_PARAMETER` for an unknown grouping or the same one twice.
   */
  async listSubGrouped(
    scope: IssueScope,
    query: IssueListQuery,
    groupBy: string,
    subGroupBy: string,
    archived = false,
  ): Promise<SubGroupedIssues> {
    for (const [name, value] of [
      ['group_by', groupBy],
      ['sub_group_by', subGroupBy],
    ]) {
      if (!(ISSUE_GROUP_BY as readonly string[]).includes(value))
        throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be one of: ${ISSUE_GROUP_BY.join(', ')}.`);
    }
    if (groupBy === subGroupBy)
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'group_by and sub_group_by must differ.');
    const by = groupBy as IssueGroupBy;
    resolveIssueOrder(query.order_by); // 400 before any read
    const filters = filtersOf(query);
    const overlapping = overlaps(by);
    const distinct = overlapping ? this.repo.filteredCount(scope, filters, archived) : undefined;
    distinct?.catch(() => undefined); // awaited below
    const keys = await this.groupKeysOf(scope, by, filters, archived);
    const groups: Array<{ key: string | null; grouped: GroupedIssues }> = [];
    for (let at = 0; at < keys.length; at += SUB_GROUPED_AT_ONCE) {
      groups.push(
        ...(await Promise.all(
          keys.slice(at, at + SUB_GROUPED_AT_ONCE).map(async (key) => ({
            key,
            grouped: await this.listGrouped(scope, { ...query, in_group: { by, key } }, subGroupBy, archived),
          })),
        )),
      );
    }
    const results: SubGroupedIssues['results'] = {};
    let sum = 0;
    let count = 0;
    let more = false;
    let largest = 0;
    for (const { key, grouped } of groups) {
      const cells: SubGroupedIssues['results'][string]['results'] = {};
      for (const [sub, cell] of Object.entries(grouped.results)) {
        if (cell.total_results > 0) cells[sub] = { results: cell.results, total_results: cell.total_results };
      }
      results[key ?? 'None'] = { results: cells, total_results: grouped.total_count };
      sum += grouped.total_count;
      count += grouped.count;
      more ||= grouped.next_page_results;
      largest = Math.max(largest, grouped.total_count);
    }
    if (distinct) sum = await distinct;
    const pages = Math.ceil(largest / query.page.perPage);
    return {
      grouped_by: groupBy,
      sub_grouped_by: subGroupBy,
      ...groupedPaging(query.page, sum, count, more, pages),
      results,
    };
  }

  /**
   * `GET /api/workspaces/{slug}/issues/` (Plane's `WorkspaceViewIssuesViewSet.list`): the visible
   * work items of the workspace's live projects `userId` is an active member of, a Guest's under
   * each project's Guest rule; the App list's filters (`project=` too), order, `fields`/`expand` and
   * `group_by` (`project_id` too), paged as the project list.
   */
  async listWorkspace(
    workspaceId: string,
    userId: string,
    query: IssueListQuery,
    groupBy?: string,
    subGroupBy?: string,
  ): Promise<Page<Partial<IssueJson> | AppIssueJson> | GroupedIssues | SubGroupedIssues> {
    const scope = { workspaceId, viewerId: userId };
    const q: IssueListQuery = { ...query, viewer: undefined };
    if (groupBy && subGroupBy) return this.listSubGrouped(scope, q, groupBy, subGroupBy);
    if (groupBy) return this.listGrouped(scope, q, groupBy);
    const { order, desc } = resolveIssueOrder(q.order_by);
    const { page, rendered } = await this.renderedPage(scope, filtersOf(q), false, order, desc, q);
    return new Page(rendered, page.perPage, page.totalCount, page.nextCursor, page.prevCursor);
  }

  /** The archived work items of the project (App API `archived-issues/`), filters, order and `group_by` as `list`. */
  async listArchived(projectId: string, query: IssueListQuery): Promise<Page<Partial<IssueJson> | AppIssueJson>> {
    const { order, desc } = resolveIssueOrder(query.order_by);
    const { page, rendered } = await this.renderedPage(projectId, filtersOf(query), true, order, desc, query);
    return new Page<Partial<IssueJson> | AppIssueJson>(
      rendered,
      page.perPage,
      page.totalCount,
      page.nextCursor,
      page.prevCursor,
    );
  }

  /**
   * `GET v2/issues/` (Plane's `IssuePaginatedViewSet.list`), the web app's local cache sync: the
   * visible work items of the project (a Guest's under the Guest rule), changed after
   * `updatedAfter` when given, oldest change first, a page of `pageSize` by number; each with the
   * App values, `state__group` and, with `description`, `description_html`. Plane's envelope: the
   * cursors are `<page size>:<page>:0`, and `total_pages` tells the client how many pages to ask for.
   */
  async syncPage(projectId: string, query: SyncQuery): Promise<SyncPage> {
    const filters = filtersOf({ viewer: query.viewer, updated_after: query.updatedAfter });
    const { pageSize, page } = query;
    const { keys, total } = await this.syncKeys(projectId, filters, pageSize, page === 0);
    const issues =
      page >= keys.length
        ? []
        : await this.repo.syncPage(projectId, filters, page > 0 ? keys[page] : undefined, keys[page + 1], pageSize);
    const [values, groups] = await Promise.all([
      this.renderApp(issues),
      issues.length ? this.repo.stateGroups(issues.map((i) => i.id)) : new Map<string, string>(),
    ]);
    const results = values.map((v, n): SyncIssueJson => {
      const { deleted_at: _deleted, type_id: _type, ...rest } = v;
      const row: SyncIssueJson = { ...rest, state__group: groups.get(v.id) ?? null };
      if (query.description) row.description_html = issues[n].descriptionHtml;
      return row;
    });
    const next = (page + 1) * pageSize < total;
    return {
      prev_cursor: `${pageSize}:${page - 1}:0`,
      cursor: `${pageSize}:${page}:0`,
      next_cursor: next ? `${pageSize}:${page + 1}:0` : null,
      prev_page_results: page > 0,
      next_page_results: next,
      page_count: results.length,
      total_results: total,
      total_pages: Math.ceil(total / pageSize),
      results,
    };
  }

  /**
   * The start keys of a sync's pages (`IssueRepository.syncKeys`), kept `SYNC_KEYS_TTL_MS` per
   * project, filters and page size (at most `SYNC_KEYS_CACHED` of them, the oldest dropped first):
   * the web app asks for the first page, then for all the others at once. The first page (`fresh`)
   * reads them again, so a sync starts from the project as it is. Nothing needs to invalidate
   * them: a page is every work item from its start key up to the next page's, so the pages of one
   * set of keys cover the project once whatever changed since; a work item changed during the
   * sync moves to the end (`updated_at`) and comes in the last page, or the next delta (as with
   * Plane's offset pages); a deleted one leaves its page short. A concurrent read of the same keys
   * waits for the one under way.
   */
  private syncKeys(projectId: string, filters: IssueFilterSet, pageSize: number, fresh: boolean): Promise<SyncKeys> {
    const id = `${projectId}|${filters.guestViewerId ?? ''}|${filters.updated_after ?? ''}|${pageSize}`;
    const now = Date.now();
    const cached = this.syncKeysCache.get(id);
    this.syncKeysCache.delete(id);
    if (cached && !fresh && now - cached.at < SYNC_KEYS_TTL_MS) {
      this.syncKeysCache.set(id, cached);
      return cached.keys;
    }
    const keys = this.repo.syncKeys(projectId, filters, pageSize);
    const entry = { at: now, keys };
    this.syncKeysCache.set(id, entry);
    // a failed read is not kept
    keys.catch(() => this.syncKeysCache.get(id) === entry && this.syncKeysCache.delete(id));
    while (this.syncKeysCache.size > SYNC_KEYS_CACHED) {
      const oldest = this.syncKeysCache.keys().next().value as string;
      this.syncKeysCache.delete(oldest);
    }
    return keys;
  }

  /**
   * `GET deleted-issues/` (Plane's `DeletedIssuesListViewSet`): ids of the project's work items
   * deleted or archived, after `updatedAfter` when given, for the local cache to drop. A Guest's
   * under the Guest rule.
   */
  deletedIds(projectId: string, updatedAfter: string | undefined, viewer: IssueListQuery['viewer']): Promise<string[]> {
    return this.repo.deletedIds(projectId, updatedAfter, filtersOf({ viewer }).guestViewerId);
  }

  /**
   * Plane's App API work item values (`IssueViewSet.list`): ids instead of objects (`state_id`,
   * `parent_id`, `label_ids`, `assignee_ids`, `module_ids`, `cycle_id`), `state__group` and the counts
   * `sub_issues_count`, `link_count`, `attachment_count`. Archived modules and deleted cycles,
   * modules and labels are left out, as in Plane. `known`: the values of some of them already read
   * with their rows (`IssueRepository.groupPages`), by id; the others' are read here.
   */
  async renderApp(
    issues: IssueListRecord[],
    known?: ReadonlyMap<string, Record<string, unknown>>,
  ): Promise<AppIssueJson[]> {
    if (!issues.length) return [];
    const missing = known ? issues.filter((i) => !known.has(i.id)) : issues;
    const rows = missing.length ? await this.repo.appValues(missing.map((i) => i.id)) : [];
    let byId: ReadonlyMap<string, Record<string, unknown>> = new Map(rows.map((r) => [r.id as string, r]));
    if (known) byId = rows.length ? new Map([...known, ...byId]) : known;
    const arr = (v: unknown) =>
      Array.isArray(v)
        ? (v as string[])
        : typeof v === 'string'
          ? v
              .replace(/^\{|\}$/g, '')
              .split(',')
              .filter(Boolean)
          : [];
    return issues.map((i) => {
      const r = byId.get(i.id) ?? {};
      return {
        id: i.id,
        name: i.name,
        state_id: i.stateId,
        state__group: (r.state_group as string | null) ?? null,
        sort_order: i.sortOrder,
        completed_at: iso(i.completedAt),
        estimate_point: i.estimatePointId,
        priority: i.priority,
        start_date: i.startDate,
        target_date: i.targetDate,
        sequence_id: i.sequenceId,
        project_id: i.projectId,
        parent_id: i.parentId,
        cycle_id: (r.cycle_id as string | null) ?? null,
        module_ids: arr(r.module_ids),
        label_ids: arr(r.label_ids),
        assignee_ids: arr(r.assignee_ids),
        sub_issues_count: Number(r.sub_issues_count ?? 0),
        created_at: iso(i.createdAt),
        updated_at: iso(i.updatedAt),
        created_by: i.createdById,
        updated_by: i.updatedById,
        attachment_count: Number(r.attachment_count ?? 0),
        link_count: Number(r.link_count ?? 0),
        is_draft: i.isDraft,
        archived_at: i.archivedAt,
        deleted_at: iso(i.deletedAt),
        type_id: i.typeId,
      };
    });
  }

  /**
   * One work item in the App API's detail shape: the list values plus `description_html`,
   * `description_stripped` and `workspace_id` (Plane's `IssueDetailSerializer`). `archived`: an
   * archived one instead of a visible one. 404 `NOT_FOUND` otherwise, also for a Guest `viewer`
   * and another's work item when the project does not let Guests see all (Plane: 400).
   */
  async retrieveApp(
    projectId: string,
    issueId: string,
    archived = false,
    viewer?: IssueListQuery['viewer'],
  ): Promise<AppIssueDetailJson> {
    const issue = await this.repo.findFiltered(projectId, issueId, filtersOf({ viewer }), archived);
    if (!issue) throw new MeridianError('NOT_FOUND');
    return this.detailApp(issue);
  }

  /** `GET issues/{id}/meta/` (Plane's `IssueMetaEndpoint`): `{sequence_id, project_identifier}`; 404 as `retrieveApp`. */
  async metaApp(
    projectId: string,
    issueId: string,
    viewer?: IssueListQuery['viewer'],
  ): Promise<{ sequence_id: number; project_identifier: string }> {
    const issue = await this.repo.findFiltered(projectId, issueId, filtersOf({ viewer }), false);
    if (!issue) throw new MeridianError('NOT_FOUND');
    const project = await found(this.projects.findLive(projectId));
    return { sequence_id: issue.sequenceId, project_identifier: project.identifier };
  }

  /**
   * `GET issues/{id}/description-versions/` (Plane 0.25.3 `IssueDescriptionVersionEndpoint`): the
   * work item's description versions, newest first, in Plane's global paginator envelope (pages by
   * number, `<size>:<page>:0`); 404 when the work item is not visible to the caller (Guest rule).
   */
  async descriptionVersions(
    projectId: string,
    issueId: string,
    viewer: IssueListQuery['viewer'],
    pageSize: number,
    page: number,
  ) {
    await this.assertVisible(projectId, issueId, viewer);
    const { rows, total } = await this.repo.descriptionVersions(issueId, page * pageSize, pageSize);
    return globalPage(rows.map(versionListView), total, pageSize, page);
  }

  /** `GET issues/{id}/description-versions/{pk}/`: Plane's `IssueDescriptionVersionDetailSerializer`; 404 otherwise. */
  async descriptionVersion(projectId: string, issueId: string, versionId: string, viewer: IssueListQuery['viewer']) {
    await this.assertVisible(projectId, issueId, viewer);
    const version = await this.repo.descriptionVersion(issueId, versionId);
    if (!version) throw new MeridianError('NOT_FOUND');
    return descriptionVersionView(version);
  }

  /**
   * `GET issues/{id}/versions/` (Plane 0.25.3 `IssueVersionEndpoint`): Plane writes `IssueVersion`
   * rows only from its `sync_issue_version` maintenance command, never on a change, so a work item
   * has none: the envelope with no results (404 when the work item is not visible).
   */
  async versions(projectId: string, issueId: string, viewer: IssueListQuery['viewer'], pageSize: number, page: number) {
    await this.assertVisible(projectId, issueId, viewer);
    return globalPage([], 0, pageSize, page);
  }

  /** A live or archived work item of the project visible to the viewer, else 404. */
  private async assertVisible(projectId: string, issueId: string, viewer: IssueListQuery['viewer']): Promise<void> {
    const filters = filtersOf({ viewer });
    const issue =
      (await this.repo.findFiltered(projectId, issueId, filters, false)) ??
      (await this.repo.findFiltered(projectId, issueId, filters, true));
    if (!issue) throw new MeridianError('NOT_FOUND');
  }

  /** The App API detail shape of a work item by id, whatever its visibility (the answer to a create). */
  async detailAppById(issueId: string): Promise<AppIssueDetailJson> {
    return this.detailApp(await found(this.repo.issueById(this.repo.manager, issueId)));
  }

  /** The App API detail shape of a work item already loaded. */
  async detailApp(issue: Issue): Promise<AppIssueDetailJson> {
    const [view] = await this.renderApp([issue]);
    return {
      ...view,
      workspace_id: issue.workspaceId,
      description_html: issue.descriptionHtml,
      description_stripped: issue.descriptionStripped,
    };
  }

  /**
   * The App API detail's `expand=` values this room answers (Plane's `DynamicBaseSerializer` on
   * `IssueDetailSerializer`, `plane/app/serializers/base.py`, which Plane's web app asks for with
   * `expand=issue_reactions,issue_attachments,issue_link,parent` on every work item read):
   * - `parent`: `IssueLiteSerializer` `{id, sequence_id, project_id}`, `{}` without a parent (what
   *   Plane's serializer of no instance gives);
   * - `issue_link`: every live link, newest first (the `issue-links/` list's order), each Plane's
   *   `IssueLinkLiteSerializer` `{id, issue_id, title, url, metadata, created_by_id, created_at}`;
   * - `issue_reactions`: every live reaction, oldest first, each `IssueReactionLiteSerializer`
   *   `{id, actor, issue, reaction}`.
   * `issue_attachments` is the attachment room's (`AttachmentService.expandedAttachments`); other
   * values add nothing here.
   */
  async detailExpansions(
    detail: { id: string; parent_id: string | null },
    expand: Set<string>,
  ): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    if (expand.has('parent')) {
      const parent = detail.parent_id ? await this.repo.issueLite(detail.parent_id) : null;
      out.parent = parent ? { id: parent.id, sequence_id: parent.sequenceId, project_id: parent.projectId } : {};
    }
    if (expand.has('issue_link')) {
      const links = await this.repo.linksPage(detail.id, { perPage: 100, all: true });
      out.issue_link = links.results.map(linkLiteView);
    }
    if (expand.has('issue_reactions')) {
      const reactions = await this.repo.issueReactionsPage(detail.id, { perPage: 100, all: true });
      out.issue_reactions = reactions.results.map((r) => ({
        id: r.id,
        actor: r.actorId,
        issue: r.issueId,
        reaction: r.reaction,
      }));
    }
    return out;
  }

  /** `retrieveByKey` in the App API's detail shape (`GET /api/workspaces/{slug}/work-items/{IDENT}-{seq}/`). */
  async retrieveByKeyApp(workspaceId: string, userId: string, key: string): Promise<AppIssueDetailJson> {
    const { id } = await this.retrieveByKey(workspaceId, userId, key, { fields: ['id'], expand: new Set() });
    const issue = await found(this.repo.issueById(this.repo.manager, id!));
    const role = await this.repo.activeRole(issue.projectId, userId);
    if (role === undefined) throw new MeridianError('NOT_FOUND'); // left the project meanwhile
    return this.retrieveApp(issue.projectId, issue.id, false, { userId, role });
  }

  /** One visible work item of the project; 404 `NOT_FOUND` otherwise. */
  async retrieve(projectId: string, issueId: string, shape: Shape): Promise<Partial<IssueJson>> {
    // one statement: the row with its assignee and label ids
    const row = await this.repo.findVisibleRow(projectId, issueId);
    if (!row) throw new MeridianError('NOT_FOUND');
    const issue = issueRecordFromRow(row);
    const sets = {
      assignees: new Map([[issue.id, row.assignee_ids as string[]]]),
      labels: new Map([[issue.id, row.label_ids as string[]]]),
    };
    return (await this.render([issue], shape, sets))[0];
  }

  /**
   * `GET /workspaces/{slug}/issues/{IDENT}-{seq}/` (Plane WorkspaceIssueAPIEndpoint): the key splits
   * at its last `-`; the identifier is matched case-insensitively. A key that is not `IDENT-number`,
   * an unknown one, or a project the caller is not an active member of is a 404 `NOT_FOUND`.
   */
  async retrieveByKey(workspaceId: string, userId: string, key: string, shape: Shape): Promise<Partial<IssueJson>> {
    const match = /^(.+)-(\d{1,9})$/.exec(key);
    if (!match) throw new MeridianError('NOT_FOUND');
    const issue = await this.repo.findVisibleByKey(workspaceId, userId, match[1].toUpperCase(), Number(match[2]));
    if (!issue) throw new MeridianError('NOT_FOUND');
    return (await this.render([issue], shape))[0];
  }

  /**
   * `work-items/search/` and `issues/search/` (`plane-node-sdk/dist/api/WorkItems/index.js`
   * `search`): visible work items of the projects the caller is an active member of whose name
   * contains `search`, or whose key or sequence number is `search`; newest first, at most `limit`
   * (default 10, at most 100). With `batch`, its statement goes in it (see `ReadBatch`).
   */
  async search(
    workspaceId: string,
    userId: string,
    search: string,
    projectId: string | undefined,
    limit: number,
    batch?: ReadBatch,
  ): Promise<{ issues: IssueSearchHit[] }> {
    return { issues: await this.repo.search(workspaceId, userId, search.trim(), projectId, limit, batch) };
  }

  /**
   * The work item picker (the search room's `search-issues/`): visible work items of `userId`'s
   * projects of the workspace (the project `projectId`, or all of them when undefined) whose name
   * contains `q` or whose key or number is `q`, without the `exclude`d ones; newest first, at most
   * `limit`: `{name, id, start_date, sequence_id, project__name, project__identifier, project_id,
   * workspace__slug, state__name, state__group, state__color}` rows.
   */
  pickerRows(
    workspaceId: string,
    projectId: string | undefined,
    userId: string,
    q: string,
    exclude: PickerExclusions,
    limit: number,
  ): Promise<Array<Record<string, unknown>>> {
    return this.repo.pickerRows(workspaceId, projectId, userId, q, exclude, limit);
  }

  /**
   * Work items to mention (the search room's `entity-search/`): visible ones of `userId`'s
   * projects of the workspace (the one project with `projectId`), under each project's Guest rule;
   * `q` in the name or the project identifier, or a number in `q` as the sequence id; newest first,
   * at most `limit`: `{name, id, sequence_id, project__identifier, project_id, priority, state_id,
   * type_id}` rows. With `batch`, its statement goes in it (see `ReadBatch`).
   */
  mentionable(
    scope: { workspaceId: string; userId: string; projectId?: string },
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    return this.repo.mentionable(scope, q, limit, batch);
  }

  /** The work item as `retrieve` renders it, whatever its visibility (for intake's `issue_detail`). */
  async detail(issueId: string): Promise<IssueJson> {
    return (await this.details([issueId]))[0];
  }

  /**
   * `detail` of several work items, in the order of `issueIds`, with one read and one rendering
   * for all (a list's page); 404 `NOT_FOUND` when one of them is gone.
   */
  async details(issueIds: string[]): Promise<IssueJson[]> {
    if (issueIds.length === 0) return [];
    const rows = await this.repo.issuesByIds(issueIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const issues = issueIds.map((id) => byId.get(id));
    if (issues.some((i) => i === undefined)) throw new MeridianError('NOT_FOUND');
    return (await this.render(issues as Issue[], { expand: new Set() })) as IssueJson[];
  }

  /** A just-created work item as `retrieve` renders it, with the assignee and label ids the create wrote. */
  async renderCreated(issue: Issue, assignees: string[], labels: string[]): Promise<IssueJson> {
    const sets = { assignees: new Map([[issue.id, assignees]]), labels: new Map([[issue.id, labels]]) };
    return (await this.render([issue], { expand: new Set() }, sets))[0] as IssueJson;
  }

  /** A visible work item of the project, for sub-resources; 404 `NOT_FOUND` otherwise. */
  async assertExists(projectId: string, issueId: string, em: EntityManager = this.dataSource.manager): Promise<Issue> {
    const issue = await this.repo.findVisible(projectId, issueId, em);
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  /**
   * As `assertExists`, and the `viewer` may see the work item: a project Guest (or a non-member)
   * only the work items they created, unless the project has `guest_view_all_features` (Plane's
   * Guest rule, as on `retrieveApp`); another's is a 404 `NOT_FOUND`.
   */
  async assertVisibleTo(
    projectId: string,
    issueId: string,
    viewer: { userId: string; role: number | null },
    em: EntityManager = this.dataSource.manager,
  ): Promise<Issue> {
    const issue = await this.repo.findVisible(
      projectId,
      issueId,
      em,
      (viewer.role ?? 0) <= ROLE.GUEST ? viewer.userId : undefined,
    );
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  /** Renders work items as the work item list does (`fields=`/`expand=` applied): for cycle and module work item lists. */
  renderMany(issues: IssueRecord[], shape: Shape): Promise<Array<Partial<IssueJson>>> {
    return this.render(issues, shape);
  }

  /** Views for a page of work items: one query for the assignee and label sets (unless given), one per expanded kind. */
  private async render(issues: IssueRecord[], shape: Shape, given?: IssueSets): Promise<Array<Partial<IssueJson>>> {
    if (!issues.length) return [];
    const sets = given ?? (await this.repo.sets(issues.map((i) => i.id)));
    const views: Array<Record<string, unknown>> = issues.map((i) =>
      issueView(i, sets.assignees.get(i.id) ?? [], sets.labels.get(i.id) ?? []),
    );
    const expand = shape.fields ? new Set([...shape.expand].filter((e) => shape.fields!.includes(e))) : shape.expand;
    if (expand.size) await this.expand(views, issues, expand, sets.assignees, sets.labels);
    return views.map((v) => pick(v, shape.fields) as Partial<IssueJson>);
  }

  /**
   * `expand=` for work items (Plane `plane/api/serializers/base.py`): an expanded null reference
   * becomes `{}`.
   */
  private async expand(
    views: Array<Record<string, unknown>>,
    issues: IssueRecord[],
    expand: Set<string>,
    assignees: Map<string, string[]>,
    labels: Map<string, string[]>,
  ): Promise<void> {
    // each room's rows through its door (deleted ones too, but labels), one statement per key
    const load = async <T extends { id: string }>(read: (ids: string[]) => Promise<T[]>, ids: Array<string | null>) => {
      const wanted = [...new Set(ids.filter((x): x is string => !!x))];
      const rows = wanted.length ? await read(wanted) : [];
      return new Map(rows.map((r) => [r.id, r]));
    };
    const one = <T>(map: Map<string, T>, id: string | null, fn: (x: T) => unknown) =>
      id && map.has(id) ? fn(map.get(id)!) : {};
    if (expand.has('state')) {
      const m = await load(
        (ids) => this.states.statesWithDeleted(ids),
        issues.map((i) => i.stateId),
      );
      views.forEach((v, n) => (v.state = one(m, issues[n].stateId, stateLiteView)));
    }
    if (expand.has('project')) {
      const m = await load(
        (ids) => this.projects.projectsWithDeleted(ids),
        issues.map((i) => i.projectId),
      );
      views.forEach(
        (v, n) =>
          (v.project = one(m, issues[n].projectId, (p) => ({
            id: p.id,
            identifier: p.identifier,
            name: p.name,
            cover_image: p.coverImage,
            icon_prop: p.iconProp ?? null,
            emoji: p.emoji,
            description: p.description,
            cover_image_url: p.coverImage,
          }))),
      );
    }
    if (expand.has('workspace')) {
      const m = await load(
        (ids) => this.workspaces.workspacesWithDeleted(ids),
        issues.map((i) => i.workspaceId),
      );
      views.forEach(
        (v, n) => (v.workspace = one(m, issues[n].workspaceId, (w) => ({ name: w.name, slug: w.slug, id: w.id }))),
      );
    }
    if (expand.has('parent')) {
      const m = await load(
        (ids) => this.repo.issuesWithDeleted(ids),
        issues.map((i) => i.parentId),
      );
      views.forEach(
        (v, n) =>
          (v.parent = one(m, issues[n].parentId, (p) => ({
            id: p.id,
            sequence_id: p.sequenceId,
            project_id: p.projectId,
          }))),
      );
    }
    for (const key of ['created_by', 'updated_by'] as const) {
      if (!expand.has(key)) continue;
      const prop = key === 'created_by' ? 'createdById' : 'updatedById';
      const m = await load(
        (ids) => this.users.liveUsers(ids),
        issues.map((i) => i[prop]),
      );
      views.forEach((v, n) => (v[key] = one(m, issues[n][prop], userLiteView)));
    }
    if (expand.has('assignees')) {
      const m = await load((ids) => this.users.liveUsers(ids), [...assignees.values()].flat());
      views.forEach(
        (v, n) =>
          (v.assignees = (assignees.get(issues[n].id) ?? [])
            .filter((id) => m.has(id))
            .map((id) => userLiteView(m.get(id)!))),
      );
    }
    if (expand.has('labels')) {
      const m = await load((ids) => this.labels.liveLabels(ids), [...labels.values()].flat());
      views.forEach(
        (v, n) =>
          (v.labels = (labels.get(issues[n].id) ?? []).filter((id) => m.has(id)).map((id) => labelView(m.get(id)!))),
      );
    }
  }

  // ---- the published boards (the deploy-board room resolves the board and its project first)

  /**
   * A page of the work items a published board shows of the project (visible, `VISIBLE_ISSUE`, and
   * not in a triage state) with the board's filters (any value of one matches), in `order`.
   */
  boardIssuesPage(
    projectId: string,
    filters: BoardIssueFilters,
    page: PageRequest,
    order: BoardIssueOrder,
  ): Promise<Page<Issue>> {
    return this.repo.boardIssuesPage(projectId, filters, page, order);
  }

  /**
   * The work item `issueId` of the project if a published board shows it, locked `FOR UPDATE` when
   * `lock`, in the caller's transaction when `em` is given; null otherwise.
   */
  boardIssue(
    projectId: string,
    issueId: string,
    opts: { em?: EntityManager; lock?: boolean } = {},
  ): Promise<Issue | null> {
    return this.repo.boardIssue(opts.em ?? this.repo.manager, projectId, issueId, opts.lock ?? false);
  }

  /**
   * How many visible work items the live projects of the workspace that `viewerId` is an active
   * member of hold (their counters: one row per project), or null when the Guest rule narrows one
   * of them for the viewer (then only a count tells). What an unfiltered chart of the workspace
   * counts as its `total` (the analytics room).
   */
  workspaceVisibleCount(workspaceId: string, viewerId: string): Promise<number | null> {
    return this.repo.workspaceVisibleCount(workspaceId, viewerId);
  }

  /** The visible work items of each project (its counter; 0 without one), whoever asks: `project-stats/`'s `total_issues`. */
  visibleCounts(projectIds: string[]): Promise<Map<string, number>> {
    return this.repo.visibleCounts(projectIds);
  }

  /**
   * What a board's page of work items shows of them, one statement each: assignee and label links
   * (every link; the caller drops deleted labels), votes and reactions (oldest first).
   */
  boardRows(issueIds: string[]) {
    return this.repo.boardRows(issueIds);
  }

  // ---- reads for the rooms above that run in a change's transaction (notifications)

  /** The live work item `id` (entity, archived or a draft too), in `em`'s transaction; or null. */
  liveIssue(id: string, em: EntityManager = this.dataSource.manager): Promise<Issue | null> {
    return this.repo.issueById(em, id);
  }

  /** The work item `id` (entity), soft-deleted too, or null; in `em`'s transaction when given (the intake's reads). */
  issueWithDeleted(id: string, em: EntityManager = this.dataSource.manager): Promise<Issue | null> {
    return this.repo.issueWithDeleted(em, id);
  }

  /** The live work item `id` of the project (entity, archived or a draft too), or null; in `em`'s transaction when given. */
  issueInProject(projectId: string, id: string, em: EntityManager = this.dataSource.manager): Promise<Issue | null> {
    return this.repo.issueInProject(em, projectId, id);
  }

  /** The user ids assigned to the work item, in `em`'s transaction. */
  assigneeIds(issueId: string, em: EntityManager = this.dataSource.manager): Promise<string[]> {
    return this.repo.assigneeIdsOf(em, issueId);
  }

  /** The label ids of the work item, in `em`'s transaction. */
  labelIds(issueId: string, em: EntityManager = this.dataSource.manager): Promise<string[]> {
    return this.repo.labelIdsOf(em, issueId);
  }

  // ---- reads for the rooms above: relations and attachments (in the caller's transaction when `em` is given)

  /**
   * The work item of the project that is live, not archived and not a draft, in a live, unarchived
   * project (entity), or null: what a relation hangs on (Plane's `IssueRelationViewSet` 404s otherwise).
   */
  openIssue(projectId: string, issueId: string, em: EntityManager = this.dataSource.manager): Promise<Issue | null> {
    return this.repo.findOpen(em, projectId, issueId);
  }

  /**
   * The live, non-draft work item of the project, archived or not, in a live project (archived or
   * not) (entity), or null; with `guestViewerId` (a project Guest) only one they may see (Plane's
   * Guest rule, as `assertVisibleTo`): what an attachment or description image hangs on.
   */
  nonDraftIssue(
    projectId: string,
    issueId: string,
    opts: { em?: EntityManager; guestViewerId?: string } = {},
  ): Promise<Issue | null> {
    return this.repo.findNonDraft(opts.em ?? this.dataSource.manager, projectId, issueId, opts.guestViewerId);
  }

  /**
   * The live work items among `ids` (entities, archived and drafts too, in no order) in live,
   * unarchived projects that are `projectId` or one `userId` is an active member of: the work items
   * at the other end of a relation the caller may see (Plane's relation lists).
   */
  issuesInReach(userId: string, projectId: string, ids: string[]): Promise<Issue[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.issuesInReach(userId, projectId, [...new Set(ids)]);
  }

  /**
   * The live, unarchived, non-draft work items of the workspace among `ids` (entities, in no order)
   * in live, unarchived projects `userId` is an active member of: the work items a caller may relate.
   */
  openIssuesOfMember(
    workspaceId: string,
    userId: string,
    ids: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<Issue[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.openIssuesOfMember(em, workspaceId, userId, [...new Set(ids)]);
  }

  /**
   * A live work item of the workspace in a live project that is `projectId` or one `userId` is an
   * active member of (entity), or null: a parent the caller can reach, as a work item's own parent
   * check reads it (a workspace draft's `parent_id`). In the caller's transaction when `em` is given.
   */
  reachableParent(
    workspaceId: string,
    projectId: string,
    userId: string,
    issueId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Issue | null> {
    return this.repo.findReachable(em, workspaceId, projectId, userId, issueId);
  }

  /** Which of `ids` are live, unarchived work items (drafts too), in no order. */
  liveUnarchivedIds(ids: string[], em: EntityManager = this.dataSource.manager): Promise<string[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.liveUnarchivedIds(em, [...new Set(ids)]);
  }

  /**
   * Each work item among `ids` (deleted ones too, in no order): its project, the project's
   * `identifier` and its `seq` (sequence id), which make its `IDENT-seq` key in history rows.
   */
  issueKeys(
    ids: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ id: string; projectId: string; identifier: string; seq: number }>> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.issueKeys(em, [...new Set(ids)]);
  }

  // ---- reads for the rooms above: cycles and modules (in the caller's transaction when `em` is given)

  /**
   * A page of the project's non-archived, non-draft work items in the cycle or module `link`
   * (entities, by creation time, `order`): what `cycle-issues/` and `module-issues/` list.
   */
  linkedIssuesPage(
    projectId: string,
    link: PlanningLinkScope,
    page: PageRequest,
    order: 'ASC' | 'DESC',
  ): Promise<Page<Issue>> {
    return this.repo.linkedIssuesPage(projectId, link, page, order);
  }

  /** The live work items of the project among `ids` (entities, archived and drafts too, in no order). */
  issuesInProject(projectId: string, ids: string[], em: EntityManager = this.dataSource.manager): Promise<Issue[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.issuesInProject(em, projectId, [...new Set(ids)]);
  }

  /** The number of live sub-items of each of `ids` (work items without any are absent). */
  subItemCounts(ids: string[], em: EntityManager = this.dataSource.manager): Promise<Map<string, number>> {
    if (!ids.length) return Promise.resolve(new Map());
    return this.repo.subItemCounts(em, [...new Set(ids)]);
  }

  /**
   * Which of `ids` are live work items whose state's group is one of `groups`, or that have no
   * state (in no order): the open work items a cycle's transfer moves.
   */
  idsInStateGroupsOrNone(
    ids: string[],
    groups: readonly string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.idsInStateGroupsOrNone(em, [...new Set(ids)], [...groups]);
  }

  // ---- reads for the rooms above: a user's history (the profile pages)

  /**
   * A page of `actorId`'s history rows (entities), newest first (`asc`: oldest first), without the
   * rows of `exceptFields`; with `scope`, only those of that workspace's live, unarchived projects
   * `scope.viewerId` is an active member of (and of `scope.projectIds` when given).
   */
  actorActivityPage(
    actorId: string,
    page: PageRequest,
    opts: { asc: boolean; exceptFields: string[]; scope?: ActorActivityScope },
  ): Promise<Page<IssueActivity>> {
    return this.repo.actorActivityPage(actorId, opts.exceptFields, page, opts.asc, opts.scope);
  }

  /** `actorId`'s history rows of one UTC day (`YYYY-MM-DD`), as `actorActivityPage` narrows them, newest first, at most `limit`. */
  actorActivitiesOn(
    actorId: string,
    day: string,
    limit: number,
    opts: { exceptFields: string[]; scope: ActorActivityScope },
  ): Promise<IssueActivity[]> {
    return this.repo.actorActivitiesOn(actorId, opts.exceptFields, day, limit, opts.scope);
  }

  /** The work items among `ids` (entities), deleted ones too, in no order. */
  issuesWithDeleted(ids: string[]): Promise<Issue[]> {
    return this.repo.issuesWithDeleted([...new Set(ids)]);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the project's live work items (`issue`) or comments (`comment`) that
   * came from `source` (their `external_source`); those without an `external_id` are left out.
   * `em`: the caller's transaction.
   */
  externalIds(
    kind: 'issue' | 'comment',
    projectId: string,
    source: string,
    em?: EntityManager,
  ): Promise<Map<string, string>> {
    return this.repo.externalIds(kind, projectId, source, em);
  }

  /** The natural keys `{issueId, url}` of the project's live links, in no order. `em`: the caller's transaction. */
  linkKeys(projectId: string, em?: EntityManager): Promise<Array<{ issueId: string; url: string }>> {
    return this.repo.linkKeysOfProject(projectId, em);
  }
}
