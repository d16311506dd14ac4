import { burndown } from '../cycle';
import type { Distribution, EstimatePointSums } from '../cycle';
import type { ModuleLinkJson } from './module-link.view';
import { ModuleJson } from './module.view';

/** What the App API adds to a module's detail (Plane's `ModuleDetailSerializer` and `retrieve`). */
export interface AppModuleDetail {
  sub_issues: number;
  /** by work items */
  distribution: Distribution;
  /** by estimate points, when the project's estimate is of type `points` */
  estimate_distribution?: Distribution;
  /** the module's live links, newest first */
  link_module: ModuleLinkJson[];
}

/**
 * A module's burndown (`burndown_plot`, module branch): each day from `start_date` to
 * `target_date`, days after today (UTC) at today's amount (`burndown`); `{}` without both dates.
 */
function moduleChart(m: ModuleJson, d: Distribution, now: Date): Record<string, number | null> {
  if (!m.start_date || !m.target_date) return {};
  return burndown(m.start_date, m.target_date, d.total, d.completed, now.toISOString().slice(0, 10));
}

/**
 * A module on the App API: Plane's `ModuleViewSet` list `.values(...)` / `ModuleSerializer`
 * (`plane/app/serializers/module.py`): `workspace_id`, `project_id`, `lead_id`, `member_ids`,
 * `is_favorite`, the state group counts, `total_estimate_points`, `completed_estimate_points`. With
 * `detail` (retrieve, `ModuleDetailSerializer`): `link_module`, `sub_issues`, the other
 * `*_estimate_points`, `distribution` (`assignees`, `labels`, `completion_chart`) and
 * `estimate_distribution`. The v1 keys (`lead`, `members`, `project`, `workspace`) stay.
 * `is_favorite`: the caller has the module among their favourites (`user_favorites`);
 * `link_module`: `ModuleLinkSerializer` objects; `estimate_distribution` is `{}` unless the project's
 * estimate is of type `points` (docs/decisions.md).
 */
export function appModuleView(
  m: ModuleJson,
  sums: EstimatePointSums,
  isFavorite: boolean,
  detail?: AppModuleDetail,
  now = new Date(),
) {
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
      // Plane draws the work item burndown only for a module with work items
      completion_chart: m.total_issues > 0 ? moduleChart(m, detail.distribution, now) : {},
    },
    estimate_distribution: detail.estimate_distribution
      ? {
          assignees: detail.estimate_distribution.assignees,
          labels: detail.estimate_distribution.labels,
          ...(m.start_date && m.target_date
            ? { completion_chart: moduleChart(m, detail.estimate_distribution, now) }
            : {}),
        }
      : {},
  };
}
export type AppModuleJson = ReturnType<typeof appModuleView>;
