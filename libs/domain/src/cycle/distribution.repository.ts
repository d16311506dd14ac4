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

/**
 * Per assignee (a row with a null `assignee_id` for work items without one) and per label (null for
 * unlabelled), the visible work items of the cycle or module (not deleted, archived, draft or in
 * intake triage) in total, completed (`completed_at` set) and pending; by count, or by the sum of
 * their numeric estimate points. Plus the burndown's total and completions per day in `timezone`.
 * Four statements whatever the size.
 */
export async function distribution(
  em: EntityManager,
  scope: DistributionScope,
  unit: DistributionUnit,
  opts: DistributionOptions,
): Promise<Distribution> {
  const from = `FROM ${scope.table} l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND ${VISIBLE_ISSUE}
       LEFT JOIN estimate_points ep ON ep.id = i.estimate_point_id AND ep.deleted_at IS NULL`;
  const where = `WHERE l.deleted_at IS NULL AND l.${scope.column} = $1`;
  const measures =
    unit === 'issues'
      ? `COUNT(DISTINCT i.id)::int AS total_issues,
         COUNT(DISTINCT i.id) FILTER (WHERE i.completed_at IS NOT NULL)::int AS completed_issues,
         COUNT(DISTINCT i.id) FILTER (WHERE i.completed_at IS NULL)::int AS pending_issues`
      : `COALESCE(SUM(${POINT}), 0)::float8 AS total_estimates,
         COALESCE(SUM(${POINT}) FILTER (WHERE i.completed_at IS NOT NULL), 0)::float8 AS completed_estimates,
         COALESCE(SUM(${POINT}) FILTER (WHERE i.completed_at IS NULL), 0)::float8 AS pending_estimates`;
  const userKeys = opts.names
    ? 'u.first_name, u.last_name, u.id AS assignee_id, u.avatar AS avatar_url, u.display_name'
    : 'u.display_name, u.id AS assignee_id, u.avatar AS avatar_url';
  const assignees: DistributionRow[] = await em.query(
    `SELECT ${userKeys}, ${measures}
       ${from}
       LEFT JOIN issue_assignees ia ON ia.issue_id = i.id
       LEFT JOIN users u ON u.id = ia.assignee_id
      ${where}
      GROUP BY u.id, u.first_name, u.last_name, u.avatar, u.display_name
      ORDER BY ${opts.names ? 'u.first_name, u.last_name' : 'u.display_name'}, u.id`,
    [scope.id],
  );
  const labels: DistributionRow[] = await em.query(
    `SELECT lb.name AS label_name, lb.color, lb.id AS label_id, ${measures}
       ${from}
       LEFT JOIN (issue_labels il JOIN labels lb ON lb.id = il.label_id AND lb.deleted_at IS NULL) ON il.issue_id = i.id
      ${where}
      GROUP BY lb.id, lb.name, lb.color
      ORDER BY lb.name, lb.id`,
    [scope.id],
  );
  // the burndown counts a work item once; by points, only those with an estimate point (Plane's burndown_plot)
  const amount = unit === 'issues' ? '1' : POINT;
  const withPoint = unit === 'issues' ? '' : 'AND ep.id IS NOT NULL';
  const days: Array<{ day: string | null; n: number | string }> = await em.query(
    `SELECT (d.completed_at AT TIME ZONE $2)::date::text AS day, SUM(d.amount)::float8 AS n
       FROM (SELECT DISTINCT ON (i.id) i.completed_at, ${amount} AS amount ${from} ${where} ${withPoint}) d
      GROUP BY 1`,
    [scope.id, opts.timezone],
  );
  let total = 0;
  const completed: DayAmount[] = [];
  for (const r of days) {
    const n = Number(r.n);
    total += n;
    if (r.day !== null) completed.push({ day: r.day, n });
  }
  return { assignees: assignees.map(numeric), labels: labels.map(numeric), total, completed };
}

/** The measures as numbers (the drivers may answer sums as strings). */
function numeric(row: DistributionRow): DistributionRow {
  const out: DistributionRow = { ...row };
  for (const k of Object.keys(out)) {
    if (/^(total|completed|pending)_(issues|estimates)$/.test(k)) out[k] = Number(out[k]);
  }
  return out;
}
