import { EntityManager } from 'typeorm';
import { VISIBLE_ISSUE } from '../issue';

/** What a distribution measures: work items (`issues`) or their estimate points (`points`). */
export type DistributionUnit = 'issues' | 'points';

/** The work items linked to one cycle or module. */
export interface DistributionScope {
  table: 'cycle_issues' | 'module_issues';
  column: 'cycle_id' | 'module_id';
  id: string;
}

/**
 * One row of a distribution: the assignee's or the label's keys, then `total_issues`,
 * `completed_issues`, `pending_issues` (unit `issues`) or `total_estimates`, `completed_estimates`,
 * `pending_estimates` (unit `points`).
 */
export type DistributionRow = Record<string, string | number | null>;

/** How much was completed on one day (`YYYY-MM-DD`). */
export interface DayAmount {
  day: string;
  n: number;
}

/**
 * A cycle's or module's distribution (Plane's `CycleAnalyticsEndpoint`, `ModuleViewSet.retrieve`):
 * rows per assignee and per label, the total the burndown starts from, and what was completed each day.
 */
export interface Distribution {
  assignees: DistributionRow[];
  labels: DistributionRow[];
  /** work items, or the sum of the estimate points of those that have one */
  total: number;
  completed: DayAmount[];
}

/** How a distribution is drawn: Plane's cycle and module views differ in the assignee keys and order. */
export interface DistributionOptions {
  /** `first_name`, `last_name` on the assignee rows, ordered by them (module); else by `display_name` (cycle) */
  names: boolean;
  /** IANA time zone whose calendar days the completions fall on */
  timezone: string;
}

/** A numeric estimate point value (points that are not numbers, as in a `categories` estimate, count 0). */
const POINT = `CASE WHEN ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ep.value::float8 ELSE 0 END`;

/** The measures of each unit on the assignee and label rows. */
const MEASURES: Record<DistributionUnit, string> = {
  issues: `COUNT(DISTINCT i.id)::int AS total_issues,
         COUNT(DISTINCT i.id) FILTER (WHERE i.completed_at IS NOT NULL)::int AS completed_issues,
         COUNT(DISTINCT i.id) FILTER (WHERE i.completed_at IS NULL)::int AS pending_issues`,
  points: `COALESCE(SUM(i.point), 0)::float8 AS total_estimates,
         COALESCE(SUM(i.point) FILTER (WHERE i.completed_at IS NOT NULL), 0)::float8 AS completed_estimates,
         COALESCE(SUM(i.point) FILTER (WHERE i.completed_at IS NULL), 0)::float8 AS pending_estimates`,
};

/** The measure keys of each unit, dropped from a row drawn for the other unit. */
const KEYS: Record<DistributionUnit, string[]> = {
  issues: ['total_issues', 'completed_issues', 'pending_issues'],
  points: ['total_estimates', 'completed_estimates', 'pending_estimates'],
};

/**
 * Per assignee (a row with a null `assignee_id` for work items without one) and per label (null for
 * unlabelled), the visible work items of the cycle or module (not deleted, archived, draft or in
 * intake triage) in total, completed (`completed_at` set) and pending; by count, or by the sum of
 * their numeric estimate points. Plus the burndown's total and completions per day in `timezone`.
 * One statement whatever the size (see `distributions`).
 */
export async function distribution(
  em: EntityManager,
  scope: DistributionScope,
  unit: DistributionUnit,
  opts: DistributionOptions,
): Promise<Distribution> {
  return (await distributions(em, scope, [unit], opts))[0];
}

/**
 * The distributions of `units` (see `distribution`), in that order, in one statement: the work
 * items are looked up once (from the link rows by their index, then by id), and the assignee rows,
 * label rows and completions per day of every unit are drawn from them together (the rows of two
 * units share their groups and order; each keeps only its own measures).
 */
export async function distributions(
  em: EntityManager,
  scope: DistributionScope,
  units: DistributionUnit[],
  opts: DistributionOptions,
): Promise<Distribution[]> {
  const measures = units.map((u) => MEASURES[u]).join(',\n         ');
  const userKeys = opts.names
    ? 'u.first_name, u.last_name, u.id AS assignee_id, u.avatar AS avatar_url, u.display_name'
    : 'u.display_name, u.id AS assignee_id, u.avatar AS avatar_url';
  const userOrder = opts.names ? 'a.first_name, a.last_name' : 'a.display_name';
  // the burndown counts a work item once; by points, only those with an estimate point (Plane's burndown_plot)
  const rows: Array<{ assignees: unknown; labels: unknown; days: unknown }> = await em.query(
    `WITH i AS MATERIALIZED (
       SELECT i.id, i.completed_at, ep.id IS NOT NULL AS pointed, ${POINT} AS point
         FROM ${scope.table} l
         JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND ${VISIBLE_ISSUE}
         LEFT JOIN estimate_points ep ON ep.id = i.estimate_point_id AND ep.deleted_at IS NULL
        WHERE l.deleted_at IS NULL AND l.${scope.column} = $1),
     a AS (
       SELECT ${userKeys}, ${measures}
         FROM i
         LEFT JOIN issue_assignees ia ON ia.issue_id = i.id
         LEFT JOIN users u ON u.id = ia.assignee_id
        GROUP BY u.id, u.first_name, u.last_name, u.avatar, u.display_name),
     b AS (
       SELECT lb.name AS label_name, lb.color, lb.id AS label_id, ${measures}
         FROM i
         LEFT JOIN (issue_labels il JOIN labels lb ON lb.id = il.label_id AND lb.deleted_at IS NULL) ON il.issue_id = i.id
        GROUP BY lb.id, lb.name, lb.color),
     d AS (
       SELECT (i.completed_at AT TIME ZONE $2)::date::text AS day, COUNT(*)::float8 AS issues,
              COALESCE(SUM(i.point) FILTER (WHERE i.pointed), 0)::float8 AS points,
              COUNT(*) FILTER (WHERE i.pointed)::int AS pointed
         FROM i
        GROUP BY 1)
     SELECT (SELECT json_agg(a ORDER BY ${userOrder}, a.assignee_id) FROM a) AS assignees,
            (SELECT json_agg(b ORDER BY b.label_name, b.label_id) FROM b) AS labels,
            (SELECT json_agg(d) FROM d) AS days`,
    [scope.id, opts.timezone],
  );
  const assignees = rowsOf(rows[0].assignees);
  const labels = rowsOf(rows[0].labels);
  const days = rowsOf(rows[0].days);
  return units.map((unit) => {
    const other = units.filter((u) => u !== unit).flatMap((u) => KEYS[u]);
    let total = 0;
    const completed: DayAmount[] = [];
    for (const r of days) {
      if (unit === 'points' && Number(r.pointed) === 0) continue;
      const n = Number(r[unit]);
      total += n;
      if (r.day !== null) completed.push({ day: String(r.day), n });
    }
    return {
      assignees: assignees.map((r) => numeric(r, other)),
      labels: labels.map((r) => numeric(r, other)),
      total,
      completed,
    };
  });
}

/** A `json_agg` column's rows (`[]` for none; the drivers may answer json as text). */
function rowsOf(value: unknown): DistributionRow[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as DistributionRow[];
}

/** The row without the `drop` keys, its measures as numbers (the drivers may answer sums as strings). */
function numeric(row: DistributionRow, drop: string[]): DistributionRow {
  const out: DistributionRow = { ...row };
  for (const k of drop) delete out[k];
  for (const k of Object.keys(out)) {
    if (/^(total|completed|pending)_(issues|estimates)$/.test(k)) out[k] = Number(out[k]);
  }
  return out;
}
