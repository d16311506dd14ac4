import { CycleJson, EstimatePointSums } from './cycle.view';
import { isoInZone } from './zoned-date';

/** Plane's computed cycle status (`plane/app/views/cycle/base.py` CycleViewSet.get_queryset `status`). */
export type CycleStatus = 'CURRENT' | 'UPCOMING' | 'COMPLETED' | 'DRAFT';

/**
 * CURRENT while start ≤ now ≤ end, UPCOMING before the start, COMPLETED after the end, DRAFT
 * without dates (Plane's `Case(When(...))`, in the same order).
 */
export function cycleStatus(start: string | null, end: string | null, now = new Date()): CycleStatus {
  const t = now.getTime();
  const s = start === null ? null : Date.parse(start);
  const e = end === null ? null : Date.parse(end);
  if (s !== null && e !== null && s <= t && e >= t) return 'CURRENT';
  if (s !== null && s > t) return 'UPCOMING';
  if (e !== null && e < t) return 'COMPLETED';
  return 'DRAFT';
}

/** What the App API adds to a cycle beyond the counts and sums: one batch per page. */
export interface AppCycleExtras {
  assignee_ids: string[];
  /** whether the caller has the cycle among their favourites */
  is_favorite: boolean;
  /** live sub-items among the cycle's work items; only on retrieve, as Plane */
  sub_issues?: number;
}

/**
 * A cycle on the App API: Plane's `CycleViewSet` list/retrieve `.values(...)` (`id`,
 * `workspace_id`, `project_id`, model fields, `owned_by_id`, `is_favorite`, `total_issues`,
 * `cancelled_issues`, `completed_issues`, `assignee_ids`, `status`, `version`, `created_by`;
 * retrieve adds `sub_issues`), kept beside the v1 keys (`owned_by`, `project`, `workspace`, the other
 * state group counts and the `*_estimate_points` sums of `CycleProgressEndpoint`). `is_favorite`: the
 * caller has the cycle among their favourites (`user_favorites`). `start_date` and `end_date` are
 * written in the cycle's time zone with its offset (`2024-01-01T00:00:00+05:30`), as Plane writes
 * them in a time zone (`user_timezone_converter`): the web app reads their first ten characters as
 * the cycle's first and last day, the days its burndown (`completion_chart`) is keyed by.
 */
export function appCycleView<T extends CycleJson & EstimatePointSums>(c: T, extras: AppCycleExtras, now = new Date()) {
  return {
    ...c,
    start_date: c.start_date === null ? null : isoInZone(c.start_date, c.timezone),
    end_date: c.end_date === null ? null : isoInZone(c.end_date, c.timezone),
    workspace_id: c.workspace,
    project_id: c.project,
    owned_by_id: c.owned_by,
    is_favorite: extras.is_favorite,
    status: cycleStatus(c.start_date, c.end_date, now),
    assignee_ids: extras.assignee_ids,
    ...(extras.sub_issues === undefined ? {} : { sub_issues: extras.sub_issues }),
  };
}
export type AppCycleJson = ReturnType<typeof appCycleView>;
