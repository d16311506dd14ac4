import type { EstimatePointSums } from '../cycle';
import type { ModuleLinkJson } from './module-link.view';
import type { ModuleDistribution } from './module.repository';
import { ModuleJson } from './module.view';

/** What the App API adds to a module's detail (Plane's `ModuleDetailSerializer` and `retrieve`). */
export interface AppModuleDetail {
  sub_issues: number;
  distribution: ModuleDistribution;
  /** the module's live links, newest first */
  link_module: ModuleLinkJson[];
}

/** The longest burndown a module's detail draws, in days (Plane draws any length). */
export const MAX_CHART_DAYS = 3660;

/**
 * Plane's issue burndown (`plane/utils/analytics_plot.py` burndown_plot, module branch): for each
 * day from `start_date` to `target_date`, the work items not yet completed by the end of that day;
 * null for days after today (UTC). Empty without both dates or without work items.
 */
export function completionChart(
  start: string | null,
  target: string | null,
  total: number,
  completed: Array<{ day: string; n: number }>,
  now = new Date(),
): Record<string, number | null> {
  const chart: Record<string, number | null> = {};
  if (!start || !target || total <= 0) return chart;
  const today = now.toISOString().slice(0, 10);
  const first = Date.parse(`${start}T00:00:00Z`);
  const last = Date.parse(`${target}T00:00:00Z`);
  for (let t = first, n = 0; t <= last && n < MAX_CHART_DAYS; t += 86_400_000, n++) {
    const day = new Date(t).toISOString().slice(0, 10);
    const done = completed.reduce((sum, c) => (c.day <= day ? sum + c.n : sum), 0);
    chart[day] = day > today ? null : total - done;
  }
  return chart;
}

/**
 * A module on the App API: Plane's `ModuleViewSet` list `.values(...)` / `ModuleSerializer`
 * (`plane/app/serializers/module.py`): `workspace_id`, `project_id`, `lead_id`, `member_ids`,
 * `is_favorite`, the state group counts, `total_estimate_points`, `completed_estimate_points`. With
 * `detail` (retrieve, `ModuleDetailSerializer`): `link_module`, `sub_issues`, the other
 * `*_estimate_points`, `distribution` (`assignees`, `labels`, `completion_chart`) and
 * `estimate_distribution`. The v1 keys (`lead`, `members`, `project`, `workspace`) stay.
 * `is_favorite`: the caller has the module among their favourites (`user_favorites`);
 * `link_module`: `ModuleLinkSerializer` objects; `estimate_distribution` is `{}` (docs/decisions.md).
 */
export function appModuleView(m: ModuleJson, sums: EstimatePointSums, isFavorite: boolean, detail?: AppModuleDetail) {
  const base = {
    ...m,
    workspace_id: m.workspace,
    project_id: m.project,
    lead_id: m.lead,
    member_ids: m.members,
    is_favorite: isFavorite,
    total_estimate_points: sums.total_estimate_points,
    completed_estimate_points: sums.completed_estimate_points,
  };
  if (!detail) return base;
  return {
    ...base,
    backlog_estimate_points: sums.backlog_estimate_points,
    unstarted_estimate_points: sums.unstarted_estimate_points,
    started_estimate_points: sums.started_estimate_points,
    cancelled_estimate_points: sums.cancelled_estimate_points,
    link_module: detail.link_module,
    sub_issues: detail.sub_issues,
    distribution: {
      assignees: detail.distribution.assignees,
      labels: detail.distribution.labels,
      completion_chart: completionChart(m.start_date, m.target_date, m.total_issues, detail.distribution.completed),
    },
    estimate_distribution: {},
  };
}
export type AppModuleJson = ReturnType<typeof appModuleView>;
