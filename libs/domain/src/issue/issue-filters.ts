import { MeridianError } from '#common';
import { PRIORITIES } from './issue.entity';

/**
 * The work item list filters and orders, compiled once for every list: the v1 list (plain SQL,
 * `$n` placeholders), the App list, its groups and the archived list (query builder, named
 * parameters), and the published boards' order. A new filter is one field of `IssueFilterSet` and
 * one condition below. Conditions are SQL over the work items `i` joined to their project `p`, with
 * the database's column names.
 */

/** One date condition of Plane's `target_date=2025-01-01;after` filter. */
export interface DateFilter {
  date: string;
  op: 'after' | 'before' | 'on';
}

/** The parsed filters of a list (each list: any of its values matches; all filters must hold). */
export interface IssueFilterSet {
  /** state ids, priorities, assignee ids, label ids (the SDK's `ListWorkItemsParams`, Plane's `issue_filters`) */
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
  /**
   * `created_at` / `updated_at` / `completed_at` (Plane's `…__date` lookups): the instant's UTC day
   * compared with each `{date, op}` as above (all must hold). Plane 0.25.3's `filter_updated_at`
   * compares `created_at` (a slip Meridian does not copy): here it is the work item's `updated_at`.
   */
  created_at?: DateFilter[];
  updated_at?: DateFilter[];
  completed_at?: DateFilter[];
  /** Plane's `name` filter (`name__icontains`): the name holds this text, in any case */
  name?: string;
  /** Plane's `parent` filter: these parents' work items; `null` (Plane's `None`): work items without a parent */
  parent?: Array<string | null>;
  /** Plane's `estimate_point` filter: work items with one of these estimate points (ids) */
  estimate_point?: string[];
  /** Plane's `start_target_date=true`: only work items with both a start date and a target date */
  both_dates?: boolean;
  /** App API filters (Plane's `issue_filters`): projects, subscribers (`issue_subscribers`) */
  project?: string[];
  subscriber?: string[];
  /**
   * App API filter (Plane's `mentions`: `issue_mention__mention__id__in`): user ids mentioned in the
   * work item's description, read from its editor markup (`mentionCondition`)
   */
  mentions?: string[];
  /** Plane's `type` filter: the state groups a work item's state must be in (`active`: unstarted, started) */
  state_type?: string[];
  /** `sub_issue=false` (Plane): only work items without a parent */
  top_level?: boolean;
  /** `issues/list/?issues=` (Plane's `IssueListEndpoint`): only these work items */
  ids?: string[];
  /** `updated_at__gt` (Plane's `IssuePaginatedViewSet`, the web app's local cache sync): changed after this instant (ISO 8601 UTC) */
  updated_after?: string;
  /** Plane's Guest rule: only the work items this user created, unless the project has `guest_view_all_features` */
  guestViewerId?: string;
  /** A sub-grouped list's group (`listSubGrouped`): only the work items of this group (`groupCondition`) */
  in_group?: { by: IssueGroupBy; key: string | null };
}

/** Registers a parameter value and answers its placeholder (`$3`, `:f0`). */
export type Bind = (value: unknown) => string;

/** Placeholders `$n` after the values already in `params` (plain SQL). */
export function bindPositional(params: unknown[]): Bind {
  return (value) => `$${params.push(value)}`;
}

/** Named placeholders `:<prefix><n>` collected in `params` (query builder). */
export function bindNamed(params: Record<string, unknown>, prefix = 'if'): Bind {
  let n = 0;
  return (value) => {
    const name = `${prefix}${n++}`;
    params[name] = value;
    return `:${name}`;
  };
}

/**
 * Plane's Guest rule for work items (`IssueViewSet.list` and `retrieve`, the comment and
 * subscription views at v0.25.3): a Guest sees only the work items they created, unless the project
 * has `guest_view_all_features`. The caller decides who counts as a Guest.
 */
export function guestCondition(viewerId: string, bind: Bind): string {
  return guestRule(bind(viewerId));
}

/**
 * `guestCondition` with the viewer as an SQL expression instead of a bound value (a column, such as
 * `pm.member_id`, to decide it for several users in one statement): `i` is the work item (its
 * `created_by_id`), `p` its project. NULL, not false, when the work item has no creator: compare
 * with `IS TRUE` outside a `WHERE`.
 */
export function guestRule(viewer: string): string {
  return `(i.created_by_id = ${viewer} OR p.guest_view_all_features = true)`;
}

/**
 * The work items `i` in one state (`state`: its bound value): `i.state_id`, and the state's project
 * as `i.project_id` as well. A work item's state is always one of its project's (every write checks
 * it: `IssueCommandService.stateOf`, the importer maps states per project), so this selects the
 * same rows; with the project, a page of them newest first is a range of
 * `ix_issues_project_state_live_created`, read up to the page, also across a workspace's projects,
 * where a walk of the workspace's work items newest first passed every newer work item of the other
 * projects to reach an old project's state (a board column of a million work items: 5 s).
 */
export function inState(state: string): string {
  return `i.state_id = ${state} AND i.project_id = (SELECT sf.project_id FROM states sf WHERE sf.id = ${state})`;
}

/**
 * The work items `i` with one label (`label`: its bound value): an `issue_labels` row, and the
 * label's project as `i.project_id` as well. A work item's labels are always its project's (every
 * write drops the others: `IssueCommandService.filterLabels` on create and update, which the bulk
 * update, the draft's conversion and the import go through; a label's project never changes, and
 * Meridian has no workspace-level label: `labels.project_id` is NOT NULL), so this selects the same
 * rows; with the project, a page of them newest first is a walk of that project's
 * `ix_issues_project_live_created` probing each work item's labels, where a walk of the workspace's
 * work items newest first probed every newer work item of the other projects to reach an old
 * project's label (18.8 s at a million work items in ten projects). A label written around the API
 * onto a work item of another project would be left out.
 */
export function withLabel(label: string): string {
  return `EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id = ${label}) AND ${inLabelProject(label)}`;
}

/**
 * The work items `i` of the project of one label (`label`: an SQL value): `withLabel`'s condition on
 * the project, also written on its own where the label's rows are joined (a page read from them).
 */
export function inLabelProject(label: string): string {
  return `i.project_id = (SELECT lf.project_id FROM labels lf WHERE lf.id = ${label})`;
}

/** The conditions of `filters` (to be joined with `AND`), their values bound with `bind`. */
export function issueFilterConditions(filters: IssueFilterSet, bind: Bind): string[] {
  const where: string[] = [];
  const any = (values: string[], type: 'uuid' | 'text') => `= ANY(${bind(values)}::${type}[])`;
  // one state (a board column's next page: the web app filters by the column's state): see `inState`
  if (filters.state?.length === 1) where.push(inState(`${bind(filters.state[0])}::uuid`));
  else if (filters.state?.length) where.push(`i.state_id ${any(filters.state, 'uuid')}`);
  if (filters.priority?.length) where.push(`i.priority ${any(filters.priority, 'text')}`);
  if (filters.assignee?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.assignee_id ${any(filters.assignee, 'uuid')})`,
    );
  }
  // the labels' projects as well: see `withLabel`
  if (filters.label?.length === 1) where.push(withLabel(`${bind(filters.label[0])}::uuid`));
  else if (filters.label?.length) {
    const labels = `${bind(filters.label)}::uuid[]`;
    where.push(
      `EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id = ANY(${labels}))`,
      `i.project_id = ANY(ARRAY(SELECT lf.project_id FROM labels lf WHERE lf.id = ANY(${labels})))`,
    );
  }
  if (filters.state_group?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM states sg WHERE sg.id = i.state_id AND sg."group" ${any(filters.state_group, 'text')})`,
    );
  }
  if (filters.state_type?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM states st WHERE st.id = i.state_id AND st."group" ${any(filters.state_type, 'text')})`,
    );
  }
  if (filters.created_by?.length) where.push(`i.created_by_id ${any(filters.created_by, 'uuid')}`);
  if (filters.project?.length) where.push(`i.project_id ${any(filters.project, 'uuid')}`);
  if (filters.subscriber?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM issue_subscribers su WHERE su.issue_id = i.id AND su.subscriber_id ${any(filters.subscriber, 'uuid')})`,
    );
  }
  if (filters.mentions?.length) where.push(mentionCondition(filters.mentions, bind));
  if (filters.top_level) where.push('i.parent_id IS NULL');
  if (filters.parent?.length) {
    const ids = filters.parent.filter((v): v is string => v !== null);
    const parts = [];
    if (ids.length) parts.push(`i.parent_id ${any(ids, 'uuid')}`);
    if (ids.length < filters.parent.length) parts.push('i.parent_id IS NULL');
    where.push(parts.length > 1 ? `(${parts.join(' OR ')})` : parts[0]);
  }
  if (filters.estimate_point?.length) where.push(`i.estimate_point_id ${any(filters.estimate_point, 'uuid')}`);
  if (filters.name !== undefined && filters.name !== '')
    where.push(`i.name ILIKE ${bind(containsPattern(filters.name))}`);
  if (filters.both_dates) where.push('i.start_date IS NOT NULL AND i.target_date IS NOT NULL');
  if (filters.ids?.length) where.push(`i.id ${any(filters.ids, 'uuid')}`);
  // at the millisecond the times leave Meridian with, so the newest one a client has is not sent again
  if (filters.updated_after !== undefined)
    where.push(`date_trunc('milliseconds', i.updated_at) > ${bind(filters.updated_after)}::timestamptz`);
  if (filters.guestViewerId !== undefined) where.push(guestCondition(filters.guestViewerId, bind));
  if (filters.in_group) where.push(groupCondition(filters.in_group, bind));
  const plans = [
    [filters.cycle, 'cycle_issues', 'cycle_id'],
    [filters.module, 'module_issues', 'module_id'],
  ] as const;
  for (const [list, table, column] of plans) {
    if (!list?.length) continue;
    const ids = list.filter((v): v is string => v !== null);
    const parts = [];
    if (ids.length) {
      parts.push(
        `EXISTS (SELECT 1 FROM ${table} x WHERE x.issue_id = i.id AND x.deleted_at IS NULL AND x.${column} ${any(ids, 'uuid')})`,
      );
    }
    if (list.includes(null))
      parts.push(`NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.issue_id = i.id AND x.deleted_at IS NULL)`);
    where.push(`(${parts.join(' OR ')})`);
  }
  for (const [list, column] of [
    [filters.start_date, 'i.start_date'],
    [filters.target_date, 'i.target_date'],
  ] as const) {
    for (const f of list ?? [])
      where.push(`${column} ${f.op === 'after' ? '>=' : f.op === 'before' ? '<=' : '='} ${bind(f.date)}`);
  }
  // an instant's UTC day against a day, as a range of instants (the column's indexes stay usable)
  for (const [list, column] of [
    [filters.created_at, 'i.created_at'],
    [filters.updated_at, 'i.updated_at'],
    [filters.completed_at, 'i.completed_at'],
  ] as const) {
    for (const f of list ?? []) {
      const day = bind(f.date);
      const start = `(${day}::date)::timestamp AT TIME ZONE 'UTC'`;
      const next = `(${day}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
      if (f.op !== 'before') where.push(`${column} >= ${start}`);
      if (f.op !== 'after') where.push(`${column} < ${next}`);
    }
  }
  return where;
}

/**
 * An `ILIKE` pattern matching names that hold `text` anywhere (Django's `icontains`): `%`, `_` and
 * the escape character (a backslash) of `text` taken literally.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A UUID as text (what may go into `mentionCondition`'s pattern). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Work items whose description mentions one of `userIds` (UUIDs), for the `mentions` filter. Plane
 * keeps `issue_mention` rows, written by its worker from the description's editor markup; Meridian
 * reads the markup itself, with the rule of `mentionedUserIds` (the notification room): a
 * `<mention-component>` element whose `entity_identifier` is the user's id and whose `entity_name`
 * is `user_mention` or absent, attributes quoted either way, ids in any case. A substring test first
 * (cheap), the pattern only on the descriptions that hold an id. Not indexed: a pass over the
 * scope's descriptions where the list's walk does not stop early.
 */
export function mentionCondition(userIds: string[], bind: Bind): string {
  const ids = [...new Set(userIds.map((id) => id.toLowerCase()))].filter((id) => UUID_TEXT.test(id));
  if (!ids.length) return 'false';
  const pattern =
    `<mention-component(?![^>]*\\yentity_name\\s*=\\s*["'](?!user_mention["'])[^"']*["'])` +
    `[^>]*\\yentity_identifier\\s*=\\s*["'](${ids.join('|')})["']`;
  const has = ids.map((id) => `strpos(lower(i.description_html), ${bind(id)}) > 0`).join(' OR ');
  return `((${has}) AND i.description_html ~* ${bind(pattern)})`;
}

/**
 * Each filter of `IssueFilterSet`: whether its condition reads only a work item's project, state
 * (and the state's group), priority and creator (and its project's `guest_view_all_features`),
 * what `project_issue_tallies` holds per row (migration `IssueTallies`), so that a count of the
 * visible work items under it is a sum of tally rows (the same conditions over the alias `i`). A
 * record of every key: a new filter does not compile until it is classified here.
 */
const TALLIED_FILTERS: Readonly<Record<keyof IssueFilterSet, boolean>> = {
  state: true,
  priority: true,
  state_group: true,
  state_type: true,
  created_by: true,
  project: true,
  guestViewerId: true,
  assignee: false,
  label: false,
  cycle: false,
  module: false,
  start_date: false,
  target_date: false,
  created_at: false,
  updated_at: false,
  completed_at: false,
  name: false,
  parent: false,
  estimate_point: false,
  both_dates: false,
  in_group: false,
  subscriber: false,
  mentions: false,
  top_level: false,
  ids: false,
  updated_after: false,
};

/**
 * Whether every condition of `filters` (`issueFilterConditions`) reads only the keys of the
 * visible work items' tallies (`TALLIED_FILTERS`): then the number of matches is a sum of the
 * tallies, the same number a count of the work items gives. Any other filter given (a non-empty
 * list, a date, `top_level`, `updated_after`, …): false. Keys that are no filter (a list query's
 * `order_by`, `cursor`, …) compile to no condition and are not looked at.
 */
export function talliedFilters(filters: IssueFilterSet): boolean {
  for (const [name, tallied] of Object.entries(TALLIED_FILTERS) as Array<[keyof IssueFilterSet, boolean]>) {
    if (tallied) continue;
    const value: unknown = filters[name];
    if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) continue;
    return false;
  }
  return true;
}

/** `group_by` values of the App API list (Plane's `issue_group_values`), with their aliases. */
export const ISSUE_GROUP_BY = [
  'state_id',
  'state__group',
  'priority',
  'labels__id',
  'assignees__id',
  'cycle_id',
  'issue_module__module_id',
  'created_by',
  'start_date',
  'target_date',
  'project_id',
] as const;
export type IssueGroupBy = (typeof ISSUE_GROUP_BY)[number];

/** Plane's priority order, highest first, as an SQL rank over `i` (urgent 0 … none 4). */
const RANKED = PRIORITIES.filter((p) => p !== 'none').map((p, n) => `WHEN '${p}' THEN ${n}`);
export const PRIORITY_RANK = `CASE i.priority ${RANKED.join(' ')} ELSE ${PRIORITIES.length - 1} END`;

/** Plane's state group order (backlog 0 … cancelled 4, none 5), as an SQL rank over `i`. */
const GROUP_RANK = `(SELECT CASE st."group" WHEN 'backlog' THEN 0 WHEN 'unstarted' THEN 1 WHEN 'started' THEN 2 WHEN 'completed' THEN 3 \
WHEN 'cancelled' THEN 4 ELSE 5 END FROM states st WHERE st.id = i.state_id)`;

/** A keyset order: the SQL key over `i` and its kind (see `paginate`). */
export interface IssueOrderKey {
  key: string;
  keyType: 'timestamp' | 'bigint' | 'double';
}

/**
 * Order keys for `?order_by=` (Plane `plane/api/views/issue.py` IssueAPIEndpoint.get); `-` reverses.
 * SQL over the alias `i`.
 */
export const ISSUE_ORDER_KEYS: Readonly<Record<string, IssueOrderKey>> = {
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
export const ISSUE_ORDER_BY = Object.keys(ISSUE_ORDER_KEYS).flatMap((k) => [k, `-${k}`]);

/**
 * `order_by` (default `-created_at`) → the keyset key and direction, among `keys` (the work item
 * lists': `ISSUE_ORDER_KEYS`); anything else is 400 `INVALID_QUERY_PARAMETER`.
 */
export function resolveIssueOrder(
  orderBy: string | undefined,
  keys: Readonly<Record<string, IssueOrderKey>> = ISSUE_ORDER_KEYS,
): { order: IssueOrderKey; desc: boolean } {
  const raw = orderBy?.trim() || '-created_at';
  const desc = raw.startsWith('-');
  const order = keys[desc ? raw.slice(1) : raw] as IssueOrderKey | undefined;
  if (!order) {
    const accepted = Object.keys(keys).flatMap((k) => [k, `-${k}`]);
    throw new MeridianError('INVALID_QUERY_PARAMETER', `order_by must be one of: ${accepted.join(', ')}.`);
  }
  return { order, desc };
}

/**
 * One group of a grouped list: `by` and its `key` (`null`: the work items without a value); how the
 * repository reads it (`fromSet`, `keySql`) is described on `IssueGroup` (issue.repository.ts).
 */
export interface GroupKey {
  by: IssueGroupBy;
  key: string | null;
  /** read from the value's own rows as well (`IssueGroup.fromSet`) */
  fromSet?: boolean;
  /** the key as an SQL expression instead of a bound value (`IssueGroup.keySql`) */
  keySql?: string;
}

/** The SQL condition on `i` of one group (`null` key: the work items with no value), its values bound with `bind`. */
export function groupCondition({ by, key, fromSet, keySql }: GroupKey, bind: Bind): string {
  // the key: a value bound, or an SQL expression (`keySql`)
  const valueOf = keySql === undefined ? bind : () => keySql;
  const set = (table: string, column: string) => {
    const live = table === 'issue_assignees' || table === 'issue_labels' ? '' : ' AND g.deleted_at IS NULL';
    if (key === null) return `NOT EXISTS (SELECT 1 FROM ${table} g WHERE g.issue_id = i.id${live})`;
    const value = valueOf(key);
    let exists = `EXISTS (SELECT 1 FROM ${table} g WHERE g.issue_id = i.id AND g.${column} = ${value}${live})`;
    // a label's work items are all of its project (`withLabel`)
    if (table === 'issue_labels') exists = withLabel(`${value}::uuid`);
    // the same rows, listed from the set (`fromSet`): the planner reads them by id and sorts them
    return fromSet
      ? `${exists} AND i.id = ANY(ARRAY(SELECT g.issue_id FROM ${table} g WHERE g.${column} = ${value}${live}))`
      : exists;
  };
  const equals = (column: string) => (key === null ? `${column} IS NULL` : `${column} = ${valueOf(key)}`);
  switch (by) {
    case 'state_id':
      return key === null ? 'i.state_id IS NULL' : inState(`${valueOf(key)}::uuid`);
    case 'state__group':
      return `EXISTS (SELECT 1 FROM states g WHERE g.id = i.state_id AND g."group" = ${valueOf(key)})`;
    case 'priority':
      return equals('i.priority');
    case 'created_by':
      return equals('i.created_by_id');
    case 'project_id':
      return equals('i.project_id');
    case 'labels__id':
      return set('issue_labels', 'label_id');
    case 'assignees__id':
      return set('issue_assignees', 'assignee_id');
    case 'cycle_id':
      return set('cycle_issues', 'cycle_id');
    case 'issue_module__module_id':
      return set('module_issues', 'module_id');
    case 'start_date':
      return equals('i.start_date');
    case 'target_date':
      return equals('i.target_date');
  }
}
