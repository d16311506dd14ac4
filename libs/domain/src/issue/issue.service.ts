import { MeridianError, Page, PageRequest, paginate, paginateSql, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { assertEstimatePoint } from '../estimate';
import { Label } from '../label';
import { labelView } from '../label';
import { ProjectMember } from '../project';
import { notInTriage } from './triage';
import { emitChange, IssueCreateDraft } from '../kernel/change-bus';
import { Project } from '../project';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { onlyWhatGuestSees } from './guest-visibility';
import { iso } from '../kernel/time';
import { assertExternalIdFree } from '../kernel/external-id';
import { assertProjectWritable } from '../kernel/project-writable';
import { pick, Shape } from '../kernel/fields';
import { State } from '../state';
import { stateLiteView } from '../state';
import { User } from '../user';
import { userLiteView } from '../user';
import { Workspace } from '../workspace';
import { hotQuery, hotTxPipeline, hotTxQuery } from '../kernel/hot-query';
import {
  ISSUE_COLUMNS, SQL_CREATE_ISSUE, SQL_CREATE_ISSUE_NO_STATE, SQL_DEFAULT_STATE, SQL_ISSUE_SETS, SQL_NEXT_SEQUENCE,
  SQL_PROJECT_FOR_CREATE, SQL_VISIBLE_ISSUE, SQL_VISIBLE_ISSUES_OF_PROJECT,
} from '../kernel/hot-sql';
import { ActivityEntry, ChangeContext, stripHtml, writeActivities } from './activity-writer';
import { IssueCreateBatcher } from './issue-create-batcher';
import { Issue, IssueAssignee, IssueLabel, Priority } from './issue.entity';
import { issueFromRow, IssueJson, issueView } from './issue.view';

/** Writable work item fields, Plane's names (`plane/api/serializers/issue.py` IssueSerializer). */
export interface IssueInput {
  name?: string;
  description_html?: string;
  priority?: Priority;
  state?: string | null;
  parent?: string | null;
  point?: number | null;
  estimate_point?: string | null;
  start_date?: string | null;
  target_date?: string | null;
  sort_order?: number;
  is_draft?: boolean;
  external_source?: string | null;
  external_id?: string | null;
  type?: string | null;
  type_id?: string | null;
  assignees?: string[];
  labels?: string[];
}

/** The caller inside a project, as the access guard resolved it. */
export interface IssueContext extends ChangeContext {
  /** the caller's project role, null for a non-member of a public project */
  role: number | null;
}

export interface IssueListQuery {
  page: PageRequest;
  shape: Shape;
  order_by?: string;
  external_id?: string;
  external_source?: string;
  /** optional filters (the SDK's `ListWorkItemsParams`): each a set of accepted values */
  state?: string[];
  priority?: string[];
  assignee?: string[];
  label?: string[];
  /** App API filters (Plane's `issue_filters`): state groups, creators, cycles, modules (`null` = none) */
  state_group?: string[];
  created_by?: string[];
  cycle?: Array<string | null>;
  module?: Array<string | null>;
  /** `start_date` / `target_date`: each `{date, op}`; `after` ≥, `before` ≤, `on` = (all must hold) */
  start_date?: DateFilter[];
  target_date?: DateFilter[];
  /** App API: render Plane's App list shape (ids, counts) instead of the v1 object, unless `fields`/`expand` */
  view?: 'app';
  /** `sub_issue=false` (Plane): only work items without a parent */
  top_level?: boolean;
  /** `issues/list/?issues=` (Plane's `IssueListEndpoint`): only these work items */
  ids?: string[];
  /**
   * App API: the caller. A project Guest sees only the work items they created unless the project
   * has `guest_view_all_features` (Plane's `IssueViewSet.list` and `retrieve`).
   */
  viewer?: { userId: string; role: number | null };
}

/** One date condition of Plane's `target_date=2025-01-01;after` filter. */
export interface DateFilter {
  date: string;
  op: 'after' | 'before' | 'on';
}

/** `group_by` values of the App API list (Plane's `issue_group_values`), with their aliases. */
export const ISSUE_GROUP_BY = ['state_id', 'state__group', 'priority', 'labels__id', 'assignees__id', 'cycle_id', 'issue_module__module_id', 'created_by', 'start_date', 'target_date'] as const;
export type IssueGroupBy = (typeof ISSUE_GROUP_BY)[number];

/**
 * Order keys for `?order_by=` (Plane `plane/api/views/issue.py` IssueAPIEndpoint.get); `-` reverses.
 * SQL over the alias `i`.
 */
const PRIORITY_RANK = `CASE i.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END`;
const GROUP_RANK = `(SELECT CASE st."group" WHEN 'backlog' THEN 0 WHEN 'unstarted' THEN 1 WHEN 'started' THEN 2 WHEN 'completed' THEN 3 WHEN 'cancelled' THEN 4 ELSE 5 END FROM states st WHERE st.id = i.state_id)`;
const ORDER_KEYS: Record<string, { key: string; keyType: 'timestamp' | 'bigint' | 'double' }> = {
  created_at: { key: 'i.created_at', keyType: 'timestamp' },
  updated_at: { key: 'i.updated_at', keyType: 'timestamp' },
  completed_at: { key: `COALESCE(i.completed_at, TIMESTAMPTZ '9999-01-01')`, keyType: 'timestamp' },
  sequence_id: { key: 'i.sequence_id', keyType: 'bigint' },
  sort_order: { key: 'i.sort_order', keyType: 'double' },
  priority: { key: PRIORITY_RANK, keyType: 'bigint' },
  state__group: { key: `COALESCE(${GROUP_RANK}, 5)`, keyType: 'bigint' },
  state__name: { key: `COALESCE(${GROUP_RANK}, 5)`, keyType: 'bigint' },
  start_date: { key: `COALESCE(i.start_date - DATE '1970-01-01' + 1000000, 99999999)`, keyType: 'bigint' },
  target_date: { key: `COALESCE(i.target_date - DATE '1970-01-01' + 1000000, 99999999)`, keyType: 'bigint' },
};
export const ISSUE_ORDER_BY = Object.keys(ORDER_KEYS).flatMap((k) => [k, `-${k}`]);

/** Fields whose changes become history rows, with the activity's field name. */
const TRACKED_SCALARS: Array<[keyof IssueInput, keyof Issue, string]> = [
  ['name', 'name', 'name'],
  ['description_html', 'descriptionHtml', 'description'],
  ['priority', 'priority', 'priority'],
  ['start_date', 'startDate', 'start_date'],
  ['target_date', 'targetDate', 'target_date'],
  ['point', 'point', 'point'],
  ['estimate_point', 'estimatePointId', 'estimate_point'],
  ['sort_order', 'sortOrder', 'sort_order'],
  ['is_draft', 'isDraft', 'is_draft'],
  ['external_id', 'externalId', 'external_id'],
  ['external_source', 'externalSource', 'external_source'],
  ['type_id', 'typeId', 'type'],
];

/**
 * Work items of a project (Plane `plane/api/views/issue.py`; `plane-node-sdk/dist/api/WorkItems/`,
 * `plane-mcp-server/build/tools/issues.js`):
 * one implementation behind `/issues/` and `/work-items/`. Every create, update and delete writes
 * its history rows (`issue_activities`) in the same transaction.
 */
@Injectable()
export class IssueService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly batcher: IssueCreateBatcher,
  ) {}

  /**
   * The visible work items of a project: not deleted, not archived, not drafts, project not archived,
   * and not pending (−2) or snoozed (0) in the intake (Plane's IssueManager, `plane/db/models/issue.py`).
   */
  private visible(em: EntityManager = this.dataSource.manager): SelectQueryBuilder<Issue> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .where('i.archivedAt IS NULL AND i.isDraft = false')
      .andWhere(notInTriage('i'));
  }

  /** The visibility rule above as a query (`i` work items, `p` their project), for pickers and search elsewhere. */
  visibleQuery(em: EntityManager = this.dataSource.manager): SelectQueryBuilder<Issue> {
    return this.visible(em);
  }

  /**
   * The project's visible work items, newest first unless `order_by` says otherwise (one of
   * `ISSUE_ORDER_BY`, else 400 `INVALID_QUERY_PARAMETER`); `fields`/`expand` applied. Optional
   * filters `state`, `priority`, `assignee`, `label` (each comma-separated, any value matches). With both
   * `external_id` and `external_source`, the one matching live work item instead (404 if none).
   */
  async list(projectId: string, query: IssueListQuery): Promise<Page<Partial<IssueJson> | AppIssueJson> | Partial<IssueJson>> {
    if (query.external_id !== undefined && query.external_source !== undefined) {
      const found = await this.dataSource.getRepository(Issue).findOne({
        where: { projectId, externalId: query.external_id, externalSource: query.external_source },
      });
      if (!found) throw new MeridianError('NOT_FOUND');
      return (await this.render([found], query.shape))[0];
    }
    // the App API's list (more filters, App values) goes through the query builder below
    if (query.view === 'app') return this.listApp(projectId, query);
    const raw = query.order_by?.trim() || '-created_at';
    const desc = raw.startsWith('-');
    const order = ORDER_KEYS[desc ? raw.slice(1) : raw];
    if (!order) {
      throw new MeridianError('INVALID_QUERY_PARAMETER', `order_by must be one of: ${ISSUE_ORDER_BY.join(', ')}.`);
    }
    // plain SQL (hot-sql.ts): the project join cannot duplicate a row, so the total is a COUNT(*)
    // that ix_issues_project_live_created serves; no query builder per request
    let from = SQL_VISIBLE_ISSUES_OF_PROJECT;
    const params: unknown[] = [projectId];
    const any = (column: string, values: string[]) => {
      params.push(values);
      return ` AND ${column} = ANY($${params.length}::${column.endsWith('priority') ? 'text' : 'uuid'}[])`;
    };
    if (query.state?.length) from += any('i.state_id', query.state);
    if (query.priority?.length) from += any('i.priority', query.priority);
    if (query.assignee?.length) {
      params.push(query.assignee);
      from += ` AND EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.assignee_id = ANY($${params.length}::uuid[]))`;
    }
    if (query.label?.length) {
      params.push(query.label);
      from += ` AND EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id = ANY($${params.length}::uuid[]))`;
    }
    const page = await paginateSql(
      { select: ISSUE_COLUMNS, from, params, key: order.key, id: 'i.id', keyType: order.keyType, order: desc ? 'DESC' : 'ASC' },
      query.page,
      (text, values) => hotQuery(this.dataSource, text, values),
    );
    const rendered = await this.render(page.results.map(issueFromRow), query.shape);
    return new Page(rendered, page.perPage, page.totalCount, page.nextCursor, page.prevCursor);
  }

  /** The App API list (`view: 'app'`): `filtered` below, keyset-paginated, rendered by `renderFor`. */
  private async listApp(projectId: string, query: IssueListQuery): Promise<Page<Partial<IssueJson> | AppIssueJson>> {
    const { order, desc } = resolveOrder(query.order_by);
    const page = await paginate(this.filtered(projectId, query), query.page, { key: order.key, keyType: order.keyType, order: desc ? 'DESC' : 'ASC' });
    const rendered: Array<Partial<IssueJson> | AppIssueJson> = await this.renderFor(page.results, query);
    return new Page(rendered, page.perPage, page.totalCount, page.nextCursor, page.prevCursor);
  }

  /**
   * The project's work items with the list filters applied: visible ones, or with `archived` the
   * archived ones (not deleted, not drafts, project live and not archived). Shared by `list` and
   * `listGrouped`, so both filter alike.
   */
  private filtered(projectId: string, query: IssueListQuery, archived = false): SelectQueryBuilder<Issue> {
    const qb = archived
      ? this.dataSource.getRepository(Issue).createQueryBuilder('i')
        .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
        .where('i.archivedAt IS NOT NULL AND i.isDraft = false')
      : this.visible();
    qb.andWhere('i.projectId = :projectId', { projectId });
    if (query.state?.length) qb.andWhere('i.stateId IN (:...states)', { states: query.state });
    if (query.priority?.length) qb.andWhere('i.priority IN (:...priorities)', { priorities: query.priority });
    if (query.assignee?.length) {
      qb.andWhere('EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.assignee_id IN (:...assignees))', { assignees: query.assignee });
    }
    if (query.label?.length) {
      qb.andWhere('EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN (:...labels))', { labels: query.label });
    }
    if (query.state_group?.length) {
      qb.andWhere('EXISTS (SELECT 1 FROM states sg WHERE sg.id = i.state_id AND sg."group" IN (:...stateGroups))', { stateGroups: query.state_group });
    }
    if (query.created_by?.length) qb.andWhere('i.createdById IN (:...creators)', { creators: query.created_by });
    if (query.top_level) qb.andWhere('i.parentId IS NULL');
    if (query.ids?.length) qb.andWhere('i.id IN (:...onlyIds)', { onlyIds: query.ids });
    if (query.viewer && query.viewer.role === ROLE.GUEST) onlyWhatGuestSees(qb, query.viewer.userId);
    for (const [name, list, table, column] of [
      ['cycles', query.cycle, 'cycle_issues', 'cycle_id'], ['modules', query.module, 'module_issues', 'module_id'],
    ] as const) {
      if (!list?.length) continue;
      const ids = list.filter((v): v is string => v !== null);
      const parts = [];
      if (ids.length) parts.push(`EXISTS (SELECT 1 FROM ${table} x WHERE x.issue_id = i.id AND x.deleted_at IS NULL AND x.${column} IN (:...${name}))`);
      if (list.includes(null)) parts.push(`NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.issue_id = i.id AND x.deleted_at IS NULL)`);
      qb.andWhere(`(${parts.join(' OR ')})`, { [name]: ids });
    }
    for (const [name, list, column] of [['sd', query.start_date, 'i.startDate'], ['td', query.target_date, 'i.targetDate']] as const) {
      (list ?? []).forEach((f, n) => {
        const op = f.op === 'after' ? '>=' : f.op === 'before' ? '<=' : '=';
        qb.andWhere(`${column} ${op} :${name}${n}`, { [`${name}${n}`]: f.date });
      });
    }
    return qb;
  }

  /** Renders for a list query: Plane's App shape (`view: 'app'`, no `fields`/`expand`), else the v1 object. */
  private async renderFor(issues: Issue[], query: IssueListQuery): Promise<Array<Partial<IssueJson> | AppIssueJson>> {
    if (query.view === 'app' && !query.shape.fields && !query.shape.expand.size) return this.renderApp(issues);
    return this.render(issues, query.shape);
  }

  /**
   * `?group_by=` on the App API list (Plane's `GroupedOffsetPaginator`, `plane/utils/paginator.py`):
   * the envelope with `grouped_by` set and `results` a map from each group's key (`"None"` for no
   * value) to `{results, total_results, next_cursor, prev_cursor}`. Every group of the project is
   * present, empty ones included (Plane's `issue_group_values`). Each group is one keyset page of the
   * same order and filters; `cursor` with a group's own filter (e.g. `state=<id>`) pages on inside
   * it. An unknown `group_by` is 400 `INVALID_QUERY_PARAMETER`.
   */
  async listGrouped(projectId: string, query: IssueListQuery, groupBy: string, archived = false): Promise<GroupedIssues> {
    if (!(ISSUE_GROUP_BY as readonly string[]).includes(groupBy)) {
      throw new MeridianError('INVALID_QUERY_PARAMETER', `group_by must be one of: ${ISSUE_GROUP_BY.join(', ')}.`);
    }
    const { order, desc } = resolveOrder(query.order_by);
    const keys = await this.groupKeys(projectId, groupBy as IssueGroupBy, query, archived);
    const results: GroupedIssues['results'] = {};
    let total = 0;
    let count = 0;
    let more = false;
    for (const key of keys) {
      const qb = this.filtered(projectId, query, archived);
      this.whereGroup(qb, groupBy as IssueGroupBy, key);
      const page = await paginate(qb, query.page, { key: order.key, keyType: order.keyType, order: desc ? 'DESC' : 'ASC' });
      results[key ?? 'None'] = {
        results: await this.renderFor(page.results, query), total_results: page.totalCount,
        next_cursor: page.nextCursor, prev_cursor: page.prevCursor,
      };
      count += page.results.length;
      more ||= page.nextCursor !== null;
      if (groupBy !== 'labels__id' && groupBy !== 'assignees__id' && groupBy !== 'issue_module__module_id') total += page.totalCount;
    }
    if (groupBy === 'labels__id' || groupBy === 'assignees__id' || groupBy === 'issue_module__module_id') {
      total = await this.filtered(projectId, query, archived).getCount();
    }
    return {
      grouped_by: groupBy, sub_grouped_by: null, total_count: total, next_cursor: null, prev_cursor: null,
      next_page_results: more, prev_page_results: false, count, total_pages: 1, total_results: total, extra_stats: null, results,
    };
  }

  /** The archived work items of the project (App API `archived-issues/`), filters, order and `group_by` as `list`. */
  async listArchived(projectId: string, query: IssueListQuery): Promise<Page<Partial<IssueJson> | AppIssueJson>> {
    const { order, desc } = resolveOrder(query.order_by);
    const page = await paginate(this.filtered(projectId, query, true), query.page, { key: order.key, keyType: order.keyType, order: desc ? 'DESC' : 'ASC' });
    return new Page<Partial<IssueJson> | AppIssueJson>(await this.renderFor(page.results, query), page.perPage, page.totalCount, page.nextCursor, page.prevCursor);
  }

  /** Every key of a grouping for the project, `null` for "no value" (Plane's `issue_group_values`). */
  private async groupKeys(projectId: string, groupBy: IssueGroupBy, query: IssueListQuery, archived: boolean): Promise<Array<string | null>> {
    const ids = async (sql: string) => ((await this.dataSource.query(sql, [projectId])) as Array<{ id: string }>).map((r) => r.id);
    switch (groupBy) {
      case 'state_id': return ids('SELECT id FROM states WHERE project_id = $1 AND deleted_at IS NULL AND is_triage = false ORDER BY sequence, id');
      case 'state__group': return ['backlog', 'unstarted', 'started', 'completed', 'cancelled'];
      case 'priority': return [...PRIORITY_ORDER];
      case 'labels__id': return [...(await ids('SELECT id FROM labels WHERE project_id = $1 AND deleted_at IS NULL ORDER BY sort_order, id')), null];
      case 'assignees__id': return [...(await ids('SELECT member_id AS id FROM project_members WHERE project_id = $1 AND is_active = true AND deleted_at IS NULL ORDER BY created_at, id')), null];
      case 'created_by': return ids('SELECT member_id AS id FROM project_members WHERE project_id = $1 AND is_active = true AND deleted_at IS NULL ORDER BY created_at, id');
      case 'cycle_id': return [...(await ids('SELECT id FROM cycles WHERE project_id = $1 AND deleted_at IS NULL ORDER BY created_at, id')), null];
      case 'issue_module__module_id': return [...(await ids('SELECT id FROM modules WHERE project_id = $1 AND deleted_at IS NULL ORDER BY created_at, id')), null];
      case 'start_date':
      case 'target_date': {
        const column = groupBy === 'start_date' ? 'i.startDate' : 'i.targetDate';
        const rows = await this.filtered(projectId, query, archived).select(`DISTINCT to_char(${column}, 'YYYY-MM-DD')`, 'd').orderBy('d').getRawMany<{ d: string | null }>();
        const dates = rows.map((r) => r.d).filter((d): d is string => d !== null);
        return [...dates, null];
      }
    }
  }

  private whereGroup(qb: SelectQueryBuilder<Issue>, groupBy: IssueGroupBy, key: string | null): void {
    const p = { g: key };
    const set = (table: string, column: string) => key === null
      ? qb.andWhere(`NOT EXISTS (SELECT 1 FROM ${table} g WHERE g.issue_id = i.id${table === 'issue_assignees' || table === 'issue_labels' ? '' : ' AND g.deleted_at IS NULL'})`)
      : qb.andWhere(`EXISTS (SELECT 1 FROM ${table} g WHERE g.issue_id = i.id AND g.${column} = :g${table === 'issue_assignees' || table === 'issue_labels' ? '' : ' AND g.deleted_at IS NULL'})`, p);
    switch (groupBy) {
      case 'state_id': qb.andWhere('i.stateId = :g', p); break;
      case 'state__group': qb.andWhere('EXISTS (SELECT 1 FROM states g WHERE g.id = i.state_id AND g."group" = :g)', p); break;
      case 'priority': qb.andWhere('i.priority = :g', p); break;
      case 'created_by': qb.andWhere('i.createdById = :g', p); break;
      case 'labels__id': set('issue_labels', 'label_id'); break;
      case 'assignees__id': set('issue_assignees', 'assignee_id'); break;
      case 'cycle_id': set('cycle_issues', 'cycle_id'); break;
      case 'issue_module__module_id': set('module_issues', 'module_id'); break;
      case 'start_date': qb.andWhere(key === null ? 'i.startDate IS NULL' : 'i.startDate = :g', p); break;
      case 'target_date': qb.andWhere(key === null ? 'i.targetDate IS NULL' : 'i.targetDate = :g', p); break;
    }
  }

  /**
   * Plane's App API work item values (`IssueViewSet.list`): ids instead of objects (`state_id`,
   * `parent_id`, `label_ids`, `assignee_ids`, `module_ids`, `cycle_id`) and the counts
   * `sub_issues_count`, `link_count`, `attachment_count`. Archived modules and deleted cycles,
   * modules and labels are left out, as in Plane.
   */
  async renderApp(issues: Issue[]): Promise<AppIssueJson[]> {
    if (!issues.length) return [];
    const ids = issues.map((i) => i.id);
    const params = ids.map((_, n) => `$${n + 1}`).join(', ');
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT i.id,
        ARRAY(SELECT ia.assignee_id FROM issue_assignees ia WHERE ia.issue_id = i.id ORDER BY ia.assignee_id) AS assignee_ids,
        ARRAY(SELECT il.label_id FROM issue_labels il JOIN labels l ON l.id = il.label_id AND l.deleted_at IS NULL WHERE il.issue_id = i.id ORDER BY il.label_id) AS label_ids,
        ARRAY(SELECT mi.module_id FROM module_issues mi JOIN modules m ON m.id = mi.module_id AND m.deleted_at IS NULL AND m.archived_at IS NULL
              WHERE mi.issue_id = i.id AND mi.deleted_at IS NULL ORDER BY mi.module_id) AS module_ids,
        (SELECT ci.cycle_id FROM cycle_issues ci JOIN cycles c ON c.id = ci.cycle_id AND c.deleted_at IS NULL WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL LIMIT 1) AS cycle_id,
        (SELECT COUNT(*) FROM issues s WHERE s.parent_id = i.id AND s.deleted_at IS NULL AND s.archived_at IS NULL AND s.is_draft = false) AS sub_issues_count,
        (SELECT COUNT(*) FROM issue_links k WHERE k.issue_id = i.id AND k.deleted_at IS NULL) AS link_count,
        (SELECT COUNT(*) FROM file_assets f WHERE f.issue_id = i.id AND f.entity_type = 'ISSUE_ATTACHMENT' AND f.deleted_at IS NULL) AS attachment_count
       FROM issues i WHERE i.id IN (${params})`,
      ids,
    );
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const arr = (v: unknown) => (Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? v.replace(/^\{|\}$/g, '').split(',').filter(Boolean) : []);
    return issues.map((i) => {
      const r = byId.get(i.id) ?? {};
      return {
        id: i.id, name: i.name, state_id: i.stateId, sort_order: i.sortOrder, completed_at: iso(i.completedAt),
        estimate_point: i.estimatePointId, priority: i.priority, start_date: i.startDate, target_date: i.targetDate,
        sequence_id: i.sequenceId, project_id: i.projectId, parent_id: i.parentId, cycle_id: (r.cycle_id as string | null) ?? null,
        module_ids: arr(r.module_ids), label_ids: arr(r.label_ids), assignee_ids: arr(r.assignee_ids),
        sub_issues_count: Number(r.sub_issues_count ?? 0), created_at: iso(i.createdAt), updated_at: iso(i.updatedAt),
        created_by: i.createdById, updated_by: i.updatedById, attachment_count: Number(r.attachment_count ?? 0),
        link_count: Number(r.link_count ?? 0), is_draft: i.isDraft, archived_at: i.archivedAt, deleted_at: iso(i.deletedAt),
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
  async retrieveApp(projectId: string, issueId: string, archived = false, viewer?: IssueListQuery['viewer']): Promise<AppIssueDetailJson> {
    const issue = await this.filtered(projectId, { page: { perPage: 1 }, shape: { expand: new Set() }, viewer }, archived)
      .andWhere('i.id = :issueId', { issueId }).getOne();
    if (!issue) throw new MeridianError('NOT_FOUND');
    return this.detailApp(issue);
  }

  /** `GET issues/{id}/meta/` (Plane's `IssueMetaEndpoint`): `{sequence_id, project_identifier}`; 404 as `retrieveApp`. */
  async metaApp(projectId: string, issueId: string, viewer?: IssueListQuery['viewer']): Promise<{ sequence_id: number; project_identifier: string }> {
    const issue = await this.filtered(projectId, { page: { perPage: 1 }, shape: { expand: new Set() }, viewer })
      .andWhere('i.id = :issueId', { issueId }).getOne();
    if (!issue) throw new MeridianError('NOT_FOUND');
    const project = await found(this.dataSource.getRepository(Project).findOne({ where: { id: projectId } }));
    return { sequence_id: issue.sequenceId, project_identifier: project.identifier };
  }

  /** The App API detail shape of a work item by id, whatever its visibility (the answer to a create). */
  async detailAppById(issueId: string): Promise<AppIssueDetailJson> {
    return this.detailApp(await found(this.dataSource.getRepository(Issue).findOne({ where: { id: issueId } })));
  }

  /** The App API detail shape of a work item already loaded. */
  async detailApp(issue: Issue): Promise<AppIssueDetailJson> {
    const [view] = await this.renderApp([issue]);
    return { ...view, workspace_id: issue.workspaceId, description_html: issue.descriptionHtml, description_stripped: issue.descriptionStripped };
  }

  /** `retrieveByKey` in the App API's detail shape (`GET /api/workspaces/{slug}/work-items/{IDENT}-{seq}/`). */
  async retrieveByKeyApp(workspaceId: string, userId: string, key: string): Promise<AppIssueDetailJson> {
    const { id } = await this.retrieveByKey(workspaceId, userId, key, { fields: ['id'], expand: new Set() });
    const issue = await found(this.dataSource.getRepository(Issue).findOne({ where: { id: id! } }));
    const [member] = await this.dataSource.query(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2 AND is_active = true AND deleted_at IS NULL LIMIT 1',
      [issue.projectId, userId],
    );
    if (!member) throw new MeridianError('NOT_FOUND'); // left the project meanwhile
    return this.retrieveApp(issue.projectId, issue.id, false, { userId, role: Number(member.role) });
  }

  /** One visible work item of the project; 404 `NOT_FOUND` otherwise. */
  async retrieve(projectId: string, issueId: string, shape: Shape): Promise<Partial<IssueJson>> {
    // one statement: the row with its assignee and label ids
    const [row] = await hotQuery(this.dataSource, SQL_VISIBLE_ISSUE, [projectId, issueId]);
    if (!row) throw new MeridianError('NOT_FOUND');
    const issue = issueFromRow(row);
    const sets = { assignees: new Map([[issue.id, row.assignee_ids as string[]]]), labels: new Map([[issue.id, row.label_ids as string[]]]) };
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
    const issue = await this.visible()
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL', { userId })
      .andWhere('p.workspaceId = :workspaceId AND p.identifier = :identifier AND i.sequenceId = :seq', {
        workspaceId,
        identifier: match[1].toUpperCase(),
        seq: Number(match[2]),
      })
      .getOne();
    if (!issue) throw new MeridianError('NOT_FOUND');
    return (await this.render([issue], shape))[0];
  }

  /**
   * `work-items/search/` and `issues/search/` (`plane-node-sdk/dist/api/WorkItems/index.js`
   * `search`): visible work items of the projects the caller is an active member of whose name
   * contains `search`, or whose key or sequence number is `search`; newest first, at most `limit`
   * (default 10, at most 100).
   */
  async search(workspaceId: string, userId: string, search: string, projectId: string | undefined, limit: number) {
    const qb = this.visible()
      .innerJoin(ProjectMember, 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL', { userId })
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId')
      .andWhere('p.workspaceId = :workspaceId', { workspaceId })
      .select(['i.id AS id', 'i.name AS name', 'i.sequence_id AS sequence_id', 'p.identifier AS project__identifier', 'p.id AS project_id', 'w.slug AS workspace__slug'])
      .orderBy('i.createdAt', 'DESC')
      .limit(limit);
    if (projectId) qb.andWhere('p.id = :projectId', { projectId });
    const q = search.trim();
    if (q) {
      const key = /^(.+)-(\d{1,9})$/.exec(q);
      qb.andWhere(
        `(i.name ILIKE :like ESCAPE '\\' ${/^\d{1,9}$/.test(q) ? 'OR i.sequenceId = :seq' : ''} ${key ? 'OR (p.identifier = :ident AND i.sequenceId = :kseq)' : ''})`,
        { like: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, seq: Number(q), ident: key?.[1].toUpperCase(), kseq: Number(key?.[2]) },
      );
    }
    const rows = await qb.getRawMany<{ id: string; name: string; sequence_id: number; project__identifier: string; project_id: string; workspace__slug: string }>();
    return { issues: rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id) })) };
  }

  /**
   * Creates a work item (Plane IssueAPIEndpoint.post): the default state when none is given, the next
   * `sequence_id` of the project (unique and never reused, also under concurrent creates),
   * `sort_order` after the others in its state, the project's default assignee when none is given,
   * `completed_at` for a completed-group state, and the history row "created the issue".
   *
   * Errors: 409 `EXTERNAL_ID_TAKEN` (with the holder's `id`); 422 for a state or parent outside the
   * project/workspace or `start_date` after `target_date`. Assignees who are not project members
   * with role ≥ 15 and labels of other projects are dropped, as Plane does.
   *
   * With `outer`, the rows are written in the caller's transaction (intake adds its own row in
   * the same one) and only `{id}` is returned: render it after the commit (`detail`).
   */
  async create(ctx: IssueContext, input: IssueInput & { name: string }, outer?: EntityManager): Promise<IssueJson> {
    try {
      // The checks and reads come first, before any lock: in the caller's transaction (intake), else
      // outside any transaction (in READ COMMITTED each read sees what is committed when it runs,
      // inside a transaction or not).
      const prepared = await this.prepareCreate(outer ?? this.dataSource.manager, ctx, input);
      const { values, state, assigned, labelled, draft } = prepared;
      let issue: Issue;
      if (!outer && !draft.needsTransaction) {
        // nothing else to write in its transaction: group commit with the project's other creates
        issue = issueFromRow(await this.batcher.create(ctx.projectId, values, !state));
      } else {
        const write = async (em: EntityManager): Promise<Issue> => {
          // listeners read what they need before the counter lock (the outbox: the workspace's webhooks)
          await emitChange(em, 'issue.create.locking', draft);
          // From here the project's counter row is locked until the commit: concurrent creates in the
          // project queue on it. Under it: the counter upsert, then one statement for the work item
          // (its sequence_id read back from the counter row), its history row, assignees, labels and
          // subscribers — a statement of its own, so that its snapshot sees the previous creator's
          // sort_order — sent together as named statements on the transaction's connection.
          const [, [row]] = await hotTxPipeline(em, [
            [SQL_NEXT_SEQUENCE, [ctx.projectId]],
            [state ? SQL_CREATE_ISSUE : SQL_CREATE_ISSUE_NO_STATE, values],
          ]);
          const created = issueFromRow(row);
          const entry: ActivityEntry = { issueId: created.id, verb: 'created', comment: 'created the issue' };
          await emitChange(em, 'issue.created', { draft, issue: created, entry, activityId: (row.activity_id as string | undefined) ?? null });
          return created;
        };
        issue = outer ? await write(outer) : await this.dataSource.transaction(write);
        if (outer) return { id: issue.id } as IssueJson;
      }
      const sets = { assignees: new Map([[issue.id, assigned]]), labels: new Map([[issue.id, labelled]]) };
      return (await this.render([issue], { expand: new Set() }, sets))[0] as IssueJson;
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issues_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  /**
   * Everything of a create that can be read or decided without the new row: the checks (project
   * writable, `external_id` free, dates, state, parent, estimate point), the assignees and labels
   * kept, what the `issue.create.prepare` listeners add (subscribers, and whether they write in the
   * create's transaction: notifications, webhook events), and the create statement's `$1`–`$23`.
   */
  private async prepareCreate(em: EntityManager, ctx: IssueContext, input: IssueInput & { name: string }) {
    const [project] = await hotTxQuery(em, SQL_PROJECT_FOR_CREATE, [ctx.projectId]);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    if (project.archived_at) throw new MeridianError('PROJECT_ARCHIVED');
    await assertExternalIdFree(em, Issue, ctx.projectId, input.external_source, input.external_id);
    this.assertDates(input.start_date ?? null, input.target_date ?? null);
    type CreateState = { id: string; group: string; name: string };
    const state: CreateState | null = input.state
      ? await this.stateOf(em, ctx.projectId, input.state)
      : (((await hotTxQuery(em, SQL_DEFAULT_STATE, [ctx.projectId]))[0] as CreateState | undefined) ?? null);
    if (input.parent) await this.assertParent(em, ctx, input.parent);
    if (input.estimate_point) await assertEstimatePoint(em, ctx.projectId, input.estimate_point);
    let assignees = input.assignees ?? [];
    if (!input.assignees?.length && project.default_assignee_id) assignees = [project.default_assignee_id];
    const assigned = await this.filterAssignees(em, ctx.projectId, assignees);
    const labelled = await this.filterLabels(em, ctx.projectId, input.labels ?? []);
    const html = input.description_html || '<p></p>';
    const draft: IssueCreateDraft = {
      ctx, assigned, descriptionHtml: html, state: state ? { name: state.name, group: state.group } : null,
      subscribers: [...new Set([ctx.userId, ...assigned])], needsTransaction: false, scratch: new Map(),
    };
    await emitChange(em, 'issue.create.prepare', draft);
    const values = [
      ctx.workspaceId, ctx.projectId, input.name.trim(), html, stripHtml(html), input.priority ?? 'none',
      state?.id ?? null, input.parent ?? null, input.point ?? null, input.estimate_point ?? null,
      input.start_date ?? null, input.target_date ?? null,
      state?.group === 'completed' ? new Date() : null, input.is_draft ?? false,
      input.external_source ?? null, input.external_id ?? null, input.type_id ?? input.type ?? null,
      ctx.userId, input.sort_order ?? null, Date.now() / 1000, assigned, labelled, draft.subscribers,
    ];
    return { values, state, assigned, labelled, draft };
  }

  /**
   * Partial update (Plane IssueAPIEndpoint.patch): `assignees` / `labels`, when present, replace the set;
   * `completed_at` follows the state's group; each changed field writes a history row with the
   * old and new value (ids in `old_identifier` / `new_identifier` for state, parent, assignees,
   * labels). Same errors as create. Archived and draft work items can be patched, as in Plane.
   */
  async update(ctx: IssueContext, issueId: string, input: IssueInput, outer?: EntityManager): Promise<IssueJson> {
    try {
      await this.inTransaction(outer, async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const issue = await em.getRepository(Issue).createQueryBuilder('i').setLock('pessimistic_write')
          .where('i.id = :issueId AND i.projectId = :projectId', { issueId, projectId: ctx.projectId }).getOne();
        if (!issue) throw new MeridianError('NOT_FOUND');
        if (input.type !== undefined && input.type_id === undefined) input = { ...input, type_id: input.type };
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em, Issue, ctx.projectId,
            input.external_source !== undefined ? input.external_source : issue.externalSource,
            input.external_id !== undefined ? input.external_id : issue.externalId,
            issueId,
          );
        }
        this.assertDates(
          input.start_date !== undefined ? input.start_date : issue.startDate,
          input.target_date !== undefined ? input.target_date : issue.targetDate,
        );
        if (input.estimate_point && input.estimate_point !== issue.estimatePointId) await assertEstimatePoint(em, ctx.projectId, input.estimate_point);
        const patch: Partial<Issue> = { updatedById: ctx.userId, updatedAt: new Date() };
        const history: ActivityEntry[] = [];
        for (const [from, to, field] of TRACKED_SCALARS) {
          if (input[from] === undefined) continue;
          let value = input[from] as unknown;
          if (from === 'name') value = (value as string).trim();
          if (from === 'description_html') value = (value as string) || '<p></p>';
          const before = issue[to] as unknown;
          if (before === value) continue;
          (patch as Record<string, unknown>)[to] = value;
          if (from === 'description_html') patch.descriptionStripped = stripHtml(value as string);
          history.push({
            issueId, verb: 'updated', field, oldValue: str(before), newValue: str(value),
            comment: `updated the ${field.replace('_', ' ')} to`,
          });
        }
        if (input.state !== undefined && input.state !== issue.stateId) {
          const state = input.state ? await this.stateOf(em, ctx.projectId, input.state) : await this.defaultState(em, ctx.projectId);
          const old = issue.stateId ? await em.getRepository(State).findOne({ where: { id: issue.stateId }, withDeleted: true }) : null;
          patch.stateId = state?.id ?? null;
          patch.completedAt = state?.group === 'completed' ? (issue.completedAt ?? new Date()) : null;
          history.push({
            issueId, verb: 'updated', field: 'state', oldValue: old?.name ?? null, newValue: state?.name ?? null,
            oldIdentifier: old?.id ?? null, newIdentifier: state?.id ?? null, comment: 'updated the state to',
          });
        }
        if (input.parent !== undefined && input.parent !== issue.parentId) {
          const parent = input.parent ? await this.assertParent(em, ctx, input.parent, issueId) : null;
          const old = issue.parentId ? await em.getRepository(Issue).findOne({ where: { id: issue.parentId }, withDeleted: true }) : null;
          patch.parentId = input.parent;
          history.push({
            issueId, verb: 'updated', field: 'parent',
            oldValue: old ? await this.keyOf(em, old) : null, newValue: parent ? await this.keyOf(em, parent) : null,
            oldIdentifier: old?.id ?? null, newIdentifier: parent?.id ?? null, comment: 'updated the parent issue to',
          });
        }
        await em.update(Issue, { id: issueId }, patch as never);
        if (input.assignees !== undefined) {
          const next = await this.filterAssignees(em, ctx.projectId, input.assignees);
          history.push(...(await this.replaceSet(em, IssueAssignee, 'assigneeId', issueId, next, 'assignees', async (ids) => {
            const users = await em.getRepository(User).find({ where: { id: In(ids) } });
            return new Map(users.map((u) => [u.id, u.displayName]));
          })));
        }
        if (input.labels !== undefined) {
          const next = await this.filterLabels(em, ctx.projectId, input.labels);
          history.push(...(await this.replaceSet(em, IssueLabel, 'labelId', issueId, next, 'labels', async (ids) => {
            const labels = await em.getRepository(Label).find({ where: { id: In(ids) }, withDeleted: true });
            return new Map(labels.map((l) => [l.id, l.name]));
          })));
        }
        await writeActivities(em, ctx, history);
      });
      if (outer) return { id: issueId } as IssueJson;
      return this.renderOne(issueId);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issues_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  /**
   * `PUT …/issues/` (Plane 0.25.3's import upsert, IssueAPIEndpoint.put): with `external_id` and
   * `external_source` (else 422), updates the live work item holding that pair (`created: false`,
   * 200) or creates one (`created: true`, 201; `name` then required).
   *
   * Concurrent upserts of one pair resolve as they would one after the other: one creates, the
   * others update it. A create that loses the race (409 `EXTERNAL_ID_TAKEN`, from the check or from
   * the unique index `uq_issues_external_live`) looks the holder up again and updates it; a holder
   * deleted meanwhile lets the next round create again (a few rounds at most).
   */
  async upsert(ctx: IssueContext, input: IssueInput): Promise<{ created: boolean; issue: IssueJson }> {
    const errors: Record<string, string[]> = {};
    if (!input.external_id) errors.external_id = ['This field is required.'];
    if (!input.external_source) errors.external_source = ['This field is required.'];
    if (Object.keys(errors).length) throw validationError(errors);
    for (let round = 1; ; round++) {
      const holder = await this.dataSource.getRepository(Issue).findOne({
        where: { projectId: ctx.projectId, externalId: input.external_id!, externalSource: input.external_source! },
        select: { id: true },
      });
      try {
        if (holder) return { created: false, issue: await this.update(ctx, holder.id, input) };
        if (!input.name) throw validationError({ name: ['This field is required.'] });
        return { created: true, issue: await this.create(ctx, { ...input, name: input.name }) };
      } catch (err) {
        // the create lost to a concurrent one (taken) or the holder was deleted before the update (not found)
        const lost = err instanceof MeridianError && (holder ? err.code === 'NOT_FOUND' : err.code === 'EXTERNAL_ID_TAKEN');
        if (!lost || round >= 3) throw err;
      }
    }
  }

  /**
   * Soft-deletes a work item (Plane IssueAPIEndpoint.delete): only its creator or a project Admin (else 403
   * `PERMISSION_DENIED`); writes "deleted the issue". Its sub-items lose their parent.
   */
  async remove(ctx: IssueContext, issueId: string, outer?: EntityManager): Promise<void> {
    await this.inTransaction(outer, async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const issue = await em.getRepository(Issue).findOne({ where: { id: issueId, projectId: ctx.projectId } });
      if (!issue) throw new MeridianError('NOT_FOUND');
      if (issue.createdById !== ctx.userId && (ctx.role ?? 0) < ROLE.ADMIN) {
        throw new MeridianError('PERMISSION_DENIED', 'Only admin or creator can delete the work item.');
      }
      await em.update(Issue, { parentId: issueId }, { parentId: null });
      await em.update(Issue, { id: issueId }, { deletedAt: new Date(), updatedById: ctx.userId });
      await writeActivities(em, ctx, [{ issueId, verb: 'deleted', field: 'issue', comment: 'deleted the issue' }]);
    });
  }

  /** `fn` in the caller's transaction when there is one, else in a new one. */
  private inTransaction<T>(outer: EntityManager | undefined, fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return outer ? fn(outer) : this.dataSource.transaction(fn);
  }

  /** The work item as `retrieve` renders it, whatever its visibility (for intake's `issue_detail`). */
  async detail(issueId: string): Promise<IssueJson> {
    return this.renderOne(issueId);
  }

  /** A live work item of the project (any visibility), for sub-resources; 404 `NOT_FOUND` otherwise. */
  async assertExists(projectId: string, issueId: string, em: EntityManager = this.dataSource.manager): Promise<Issue> {
    const issue = await this.visible(em).andWhere('i.id = :issueId AND i.projectId = :projectId', { issueId, projectId }).getOne();
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  /**
   * As `assertExists`, and the `viewer` may see the work item: a project Guest (or a non-member)
   * only the work items they created, unless the project has `guest_view_all_features` (Plane's
   * Guest rule, as on `retrieveApp`); another's is a 404 `NOT_FOUND`.
   */
  async assertVisibleTo(projectId: string, issueId: string, viewer: { userId: string; role: number | null }, em: EntityManager = this.dataSource.manager): Promise<Issue> {
    const qb = this.visible(em).andWhere('i.id = :issueId AND i.projectId = :projectId', { issueId, projectId });
    if ((viewer.role ?? 0) <= ROLE.GUEST) onlyWhatGuestSees(qb, viewer.userId);
    const issue = await qb.getOne();
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  /** Renders work items as the work item list does (`fields=`/`expand=` applied): for cycle and module work item lists. */
  renderMany(issues: Issue[], shape: Shape): Promise<Array<Partial<IssueJson>>> {
    return this.render(issues, shape);
  }

  private async renderOne(issueId: string): Promise<IssueJson> {
    const issue = await found(this.dataSource.getRepository(Issue).findOne({ where: { id: issueId } }));
    return (await this.render([issue], { expand: new Set() }))[0] as IssueJson;
  }

  /** Views for a page of work items: one query for the assignee and label sets (unless given), one per expanded kind. */
  private async render(
    issues: Issue[], shape: Shape, sets?: { assignees: Map<string, string[]>; labels: Map<string, string[]> },
  ): Promise<Array<Partial<IssueJson>>> {
    if (!issues.length) return [];
    let byIssueA = sets?.assignees;
    let byIssueL = sets?.labels;
    if (!byIssueA || !byIssueL) {
      byIssueA = new Map();
      byIssueL = new Map();
      const rows = await hotQuery(this.dataSource, SQL_ISSUE_SETS, [issues.map((i) => i.id)]);
      for (const r of rows) {
        const m = r.k === 'a' ? byIssueA : byIssueL;
        const list = m.get(r.issue_id);
        if (list) list.push(r.v);
        else m.set(r.issue_id, [r.v]);
      }
      for (const v of byIssueA.values()) v.sort();
      for (const v of byIssueL.values()) v.sort();
    }
    const views: Array<Record<string, unknown>> = issues.map((i) => issueView(i, byIssueA.get(i.id) ?? [], byIssueL.get(i.id) ?? []));
    const expand = shape.fields ? new Set([...shape.expand].filter((e) => shape.fields!.includes(e))) : shape.expand;
    if (expand.size) await this.expand(views, issues, expand, byIssueA, byIssueL);
    return views.map((v) => pick(v, shape.fields) as Partial<IssueJson>);
  }

  /**
   * `expand=` for work items (Plane `plane/api/serializers/base.py`): an expanded null reference
   * becomes `{}`.
   */
  private async expand(
    views: Array<Record<string, unknown>>, issues: Issue[], expand: Set<string>,
    assignees: Map<string, string[]>, labels: Map<string, string[]>,
  ): Promise<void> {
    const repo = <T extends object>(e: new () => T) => this.dataSource.getRepository(e);
    const load = async <T extends { id: string }>(e: new () => T, ids: Array<string | null>, withDeleted = true) => {
      const wanted = [...new Set(ids.filter((x): x is string => !!x))];
      const rows = wanted.length ? await repo(e).find({ where: { id: In(wanted) } as never, withDeleted }) : [];
      return new Map(rows.map((r) => [r.id, r]));
    };
    const one = <T>(map: Map<string, T>, id: string | null, fn: (x: T) => unknown) => (id && map.has(id) ? fn(map.get(id)!) : {});
    if (expand.has('state')) {
      const m = await load(State, issues.map((i) => i.stateId));
      views.forEach((v, n) => (v.state = one(m, issues[n].stateId, stateLiteView)));
    }
    if (expand.has('project')) {
      const m = await load(Project, issues.map((i) => i.projectId));
      views.forEach((v, n) => (v.project = one(m, issues[n].projectId, (p) => ({
        id: p.id, identifier: p.identifier, name: p.name, cover_image: p.coverImage, icon_prop: p.iconProp ?? null,
        emoji: p.emoji, description: p.description, cover_image_url: p.coverImage,
      }))));
    }
    if (expand.has('workspace')) {
      const m = await load(Workspace, issues.map((i) => i.workspaceId));
      views.forEach((v, n) => (v.workspace = one(m, issues[n].workspaceId, (w) => ({ name: w.name, slug: w.slug, id: w.id }))));
    }
    if (expand.has('parent')) {
      const m = await load(Issue, issues.map((i) => i.parentId));
      views.forEach((v, n) => (v.parent = one(m, issues[n].parentId, (p) => ({ id: p.id, sequence_id: p.sequenceId, project_id: p.projectId }))));
    }
    for (const key of ['created_by', 'updated_by'] as const) {
      if (!expand.has(key)) continue;
      const prop = key === 'created_by' ? 'createdById' : 'updatedById';
      const m = await load(User, issues.map((i) => i[prop]));
      views.forEach((v, n) => (v[key] = one(m, issues[n][prop], userLiteView)));
    }
    if (expand.has('assignees')) {
      const m = await load(User, [...assignees.values()].flat());
      views.forEach((v, n) => (v.assignees = (assignees.get(issues[n].id) ?? []).filter((id) => m.has(id)).map((id) => userLiteView(m.get(id)!))));
    }
    if (expand.has('labels')) {
      const m = await load(Label, [...labels.values()].flat(), false);
      views.forEach((v, n) => (v.labels = (labels.get(issues[n].id) ?? []).filter((id) => m.has(id)).map((id) => labelView(m.get(id)!))));
    }
  }

  private assertDates(start: string | null, target: string | null): void {
    if (start && target && start > target) throw validationError({ start_date: ['Start date cannot exceed target date.'] });
  }

  private async stateOf(em: EntityManager, projectId: string, stateId: string): Promise<State> {
    const state = await em.getRepository(State).findOne({ where: { id: stateId, projectId } });
    if (!state) throw validationError({ state: ['State is not valid please pass a valid state_id.'] });
    return state;
  }

  /** The project's default non-triage state, else its first non-triage state, else none. */
  private async defaultState(em: EntityManager, projectId: string): Promise<State | null> {
    return em.getRepository(State).createQueryBuilder('s')
      .where('s.projectId = :projectId AND s.isTriage = false', { projectId })
      .orderBy('s.default', 'DESC').addOrderBy('s.sequence', 'ASC').getOne();
  }

  /**
   * The parent must be a live work item of the workspace that the caller can reach (in this project,
   * or in a live project they are an active member of), and not the item itself or below it; else
   * 422. A work item of a project the caller is not in is refused like an unknown one, so its key
   * never shows up in `expand=parent` or the history.
   */
  private async assertParent(em: EntityManager, ctx: ChangeContext, parentId: string, selfId?: string): Promise<Issue> {
    const invalid = () => validationError({ parent: ['Parent is not valid issue_id please pass a valid issue_id.'] });
    const parent = await em.getRepository(Issue).createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL')
      .where('i.id = :parentId AND i.workspaceId = :workspaceId', { parentId, workspaceId: ctx.workspaceId })
      .andWhere(`(i.projectId = :projectId OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id
        AND pm.member_id = :userId AND pm.is_active = true AND pm.deleted_at IS NULL))`, { projectId: ctx.projectId, userId: ctx.userId })
      .getOne();
    if (!parent) throw invalid();
    let current: Issue | null = parent;
    for (let depth = 0; current && selfId && depth < 1000; depth++) {
      if (current.id === selfId) throw invalid();
      current = current.parentId ? await em.getRepository(Issue).findOne({ where: { id: current.parentId } }) : null;
    }
    return parent;
  }

  private async keyOf(em: EntityManager, issue: Issue): Promise<string> {
    const project = await em.getRepository(Project).findOne({ where: { id: issue.projectId }, withDeleted: true });
    return `${project?.identifier ?? '?'}-${issue.sequenceId}`;
  }

  /** Plane: assignees who are not active project members with role ≥ 15 are dropped. */
  private async filterAssignees(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await em.getRepository(ProjectMember).createQueryBuilder('pm').select('pm.memberId', 'id')
      .where('pm.projectId = :projectId AND pm.memberId IN (:...ids) AND pm.isActive = true AND pm.role >= :role', { projectId, ids, role: ROLE.MEMBER })
      .getRawMany<{ id: string }>();
    return [...new Set(rows.map((r) => r.id))].sort();
  }

  /** Plane: labels of other projects are dropped. */
  private async filterLabels(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await em.getRepository(Label).find({ where: { id: In([...new Set(ids)]), projectId }, select: { id: true } });
    return rows.map((r) => r.id).sort();
  }

  /** Replaces a work item's assignee or label set and returns one history row per addition and removal. */
  private async replaceSet<T extends IssueAssignee | IssueLabel>(
    em: EntityManager, entity: new () => T, column: 'assigneeId' | 'labelId', issueId: string, next: string[],
    field: 'assignees' | 'labels', names: (ids: string[]) => Promise<Map<string, string>>,
  ): Promise<ActivityEntry[]> {
    const current = (await em.getRepository(entity).find({ where: { issueId } as never })).map((r) => (r as unknown as Record<string, string>)[column]);
    const added = next.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !next.includes(id));
    if (removed.length) await em.delete(entity, { issueId, [column]: In(removed) } as never);
    if (added.length) await em.insert(entity, added.map((id) => ({ issueId, [column]: id })) as never);
    const label = await names([...added, ...removed]);
    const noun = field === 'assignees' ? 'assignee' : 'label';
    return [
      ...added.map((id) => ({ issueId, verb: 'updated', field, newValue: label.get(id) ?? id, newIdentifier: id, comment: `added ${noun} ` })),
      ...removed.map((id) => ({ issueId, verb: 'updated', field, oldValue: label.get(id) ?? id, oldIdentifier: id, comment: `removed ${noun} ` })),
    ];
  }
}

function str(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

/** `order_by` → the keyset key (one of `ISSUE_ORDER_BY`, else 400 `INVALID_QUERY_PARAMETER`). */
function resolveOrder(orderBy: string | undefined) {
  const raw = orderBy?.trim() || '-created_at';
  const desc = raw.startsWith('-');
  const order = ORDER_KEYS[desc ? raw.slice(1) : raw];
  if (!order) {
    throw new MeridianError('INVALID_QUERY_PARAMETER', `order_by must be one of: ${ISSUE_ORDER_BY.join(', ')}.`);
  }
  return { order, desc };
}

const PRIORITY_ORDER = ['urgent', 'high', 'medium', 'low', 'none'] as const;

/** Plane's App API work item values (`IssueViewSet.list`). */
export interface AppIssueJson {
  id: string; name: string; state_id: string | null; sort_order: number; completed_at: string | null;
  estimate_point: string | null; priority: string; start_date: string | null; target_date: string | null;
  sequence_id: number; project_id: string; parent_id: string | null; cycle_id: string | null;
  module_ids: string[]; label_ids: string[]; assignee_ids: string[]; sub_issues_count: number;
  created_at: string | null; updated_at: string | null; created_by: string | null; updated_by: string | null;
  attachment_count: number; link_count: number; is_draft: boolean; archived_at: string | null; deleted_at: string | null;
  type_id: string | null;
}
export type AppIssueDetailJson = AppIssueJson & { workspace_id: string; description_html: string; description_stripped: string | null };

/** Plane's grouped paginator envelope (`plane/utils/paginator.py`), with a keyset cursor per group. */
export interface GroupedIssues {
  grouped_by: string; sub_grouped_by: null; total_count: number; next_cursor: null; prev_cursor: null;
  next_page_results: boolean; prev_page_results: false; count: number; total_pages: number; total_results: number; extra_stats: null;
  results: Record<string, { results: unknown[]; total_results: number; next_cursor: string | null; prev_cursor: string | null }>;
}
