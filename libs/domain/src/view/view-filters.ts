import { dateCondition, isDateValue, isUuid, validationError } from '#common';
import { PRIORITIES } from '../issue';
import type { IssueListQuery } from '../issue';
import { STATE_GROUPS } from '../state';

/**
 * A saved view's `filters` (the web app's `IIssueFilterOptions`: each key a list of strings, or
 * null) checked on write, turned into the work item list's filters (the one compiler,
 * `issue-filters.ts`, through `IssueQueryService`) and into Plane's `query` (the Django lookups
 * `plane/utils/issue_filters.py` stores, read-only).
 */

const uuidOrNone = (v: string) => isUuid(v) || v === 'None' || v === 'null';

/** The filter keys a view may hold that Meridian checks, and the test each value must pass. */
const RULES: Record<string, (v: string) => boolean> = {
  state: isUuid,
  state_group: (v) => (STATE_GROUPS as readonly string[]).includes(v),
  priority: (v) => (PRIORITIES as readonly string[]).includes(v),
  assignees: isUuid,
  labels: isUuid,
  created_by: isUuid,
  mentions: isUuid,
  subscriber: isUuid,
  project: isUuid,
  cycle: uuidOrNone,
  module: uuidOrNone,
  start_date: isDateValue,
  target_date: isDateValue,
};

/** The list of a filter key: null (no filter), a list of strings, or one comma-separated string. */
function valuesOf(raw: unknown): string[] | null | undefined {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string') {
    const out = raw
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return out.length ? out : null;
  }
  if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) return raw.length ? (raw as string[]) : null;
  return undefined;
}

/**
 * Checks a view's `filters` (422 `filters` naming the bad key): each key Meridian knows (see
 * `RULES`) is null, a list of strings or one comma-separated string, each value valid for it (ids,
 * priorities, state groups, Plane's absolute or relative dates, `None` for "no cycle/module"). Other
 * keys are kept as they are (the web app owns the object).
 */
export function assertViewFilters(filters: Record<string, unknown>): void {
  const errors: string[] = [];
  for (const [key, test] of Object.entries(RULES)) {
    if (!(key in filters)) continue;
    const values = valuesOf(filters[key]);
    if (values === undefined) errors.push(`${key} must be a list of strings or null.`);
    else if (values && !values.every(test)) errors.push(`${key} has a value that is not valid.`);
  }
  if (errors.length) throw validationError({ filters: errors });
}

/** The filters of the work item list a view's stored `filters` (checked on write) asks for. */
export type ViewIssueFilters = Pick<
  IssueListQuery,
  | 'state'
  | 'state_group'
  | 'priority'
  | 'assignee'
  | 'label'
  | 'created_by'
  | 'mentions'
  | 'cycle'
  | 'module'
  | 'start_date'
  | 'target_date'
>;

/**
 * The list filters of a view's `filters`. `subscriber`, `project` and keys Meridian
 * does not know are not applied (docs/decisions.md, "Saved views").
 */
export function viewIssueFilters(filters: Record<string, unknown>, today = new Date()): ViewIssueFilters {
  const get = (key: string) => {
    const values = valuesOf(filters[key]);
    return values && values.every(RULES[key]) ? values.map((v) => (isUuid(v) ? v.toLowerCase() : v)) : undefined;
  };
  const idsOrNone = (key: string) => get(key)?.map((v) => (isUuid(v) ? v : null));
  return {
    state: get('state'),
    state_group: get('state_group'),
    priority: get('priority'),
    assignee: get('assignees'),
    label: get('labels'),
    created_by: get('created_by'),
    mentions: get('mentions'),
    cycle: idsOrNone('cycle'),
    module: idsOrNone('module'),
    start_date: get('start_date')?.map((v) => dateCondition(v, today)),
    target_date: get('target_date')?.map((v) => dateCondition(v, today)),
  };
}

/** Plane's lookup for each filter key (`plane/utils/issue_filters.py`, method POST). */
const LOOKUPS: Record<string, string> = {
  state: 'state__in',
  state_group: 'state__group__in',
  priority: 'priority__in',
  assignees: 'assignees__in',
  labels: 'labels__in',
  created_by: 'created_by__in',
  mentions: 'issue_mention__mention__id__in',
  subscriber: 'issue_subscribers__subscriber_id__in',
  project: 'project__in',
  cycle: 'issue_cycle__cycle_id__in',
  module: 'issue_module__module_id__in',
};

/** Plane's `query` of a view: its filters as Django lookups, relative dates resolved on `today`. */
export function planeQuery(filters: Record<string, unknown>, today = new Date()): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, lookup] of Object.entries(LOOKUPS)) {
    const values = valuesOf(filters[key]);
    if (values) query[lookup] = values;
  }
  for (const key of ['start_date', 'target_date']) {
    for (const v of valuesOf(filters[key]) ?? []) {
      const f = dateCondition(v, today);
      query[`${key}__${f.op === 'after' ? 'gte' : f.op === 'before' ? 'lte' : 'contains'}`] = f.date;
    }
  }
  return query;
}
