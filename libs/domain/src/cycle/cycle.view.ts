import { iso, RowStamps, rowStamps } from '../kernel/time';
import { Cycle } from './cycle.entity';
import { CycleIssue } from './cycle-issue.entity';

/** Work item counts of a cycle or module, by the state group of its live, non-archived, non-draft work items. */
export interface IssueCounts {
  total_issues: number;
  completed_issues: number;
  cancelled_issues: number;
  started_issues: number;
  unstarted_issues: number;
  backlog_issues: number;
}

/** Estimate point sums of a cycle's work items, by state group (Plane's `*_estimate_points`). */
export interface EstimatePointSums {
  total_estimate_points: number;
  completed_estimate_points: number;
  cancelled_estimate_points: number;
  started_estimate_points: number;
  unstarted_estimate_points: number;
  backlog_estimate_points: number;
}

export const ZERO_COUNTS: IssueCounts = {
  total_issues: 0,
  completed_issues: 0,
  cancelled_issues: 0,
  started_issues: 0,
  unstarted_issues: 0,
  backlog_issues: 0,
};

/**
 * Plane's CycleSerializer plus the counts (`plane/api/serializers/cycle.py`); dates as ISO 8601 UTC
 * instants.
 */
export function cycleView(c: Cycle, counts: IssueCounts = ZERO_COUNTS) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    start_date: iso(c.startDate),
    end_date: iso(c.endDate),
    view_props: c.viewProps,
    sort_order: c.sortOrder,
    external_source: c.externalSource,
    external_id: c.externalId,
    progress_snapshot: c.progressSnapshot,
    archived_at: iso(c.archivedAt),
    logo_props: c.logoProps,
    timezone: c.timezone,
    version: c.version,
    owned_by: c.ownedById,
    project: c.projectId,
    project_id: c.projectId,
    workspace: c.workspaceId,
    ...counts,
    ...rowStamps(c),
  };
}
export type CycleJson = ReturnType<typeof cycleView>;

/**
 * A cycle-issue or module-issue link row (Plane's CycleIssueSerializer, ModuleIssueSerializer), with
 * `sub_issues_count`; `key` (`cycle`, `module`) holds the owner's id.
 */
export function planningLinkView<K extends 'cycle' | 'module'>(
  key: K,
  ownerId: string,
  l: PlanningLinkFields,
  subIssues = 0,
) {
  return {
    id: l.id,
    sub_issues_count: subIssues,
    [key]: ownerId,
    issue: l.issueId,
    project: l.projectId,
    workspace: l.workspaceId,
    ...rowStamps(l),
  } as { id: string; sub_issues_count: number } & Record<K, string> & {
      issue: string;
      project: string;
      workspace: string;
    } & ReturnType<typeof rowStamps>;
}

/** What a link row needs for `planningLinkView`. */
export interface PlanningLinkFields extends RowStamps {
  id: string;
  issueId: string;
  projectId: string;
  workspaceId: string;
}

/** A cycle-issue link row (Plane's CycleIssueSerializer), with `sub_issues_count`. */
export function cycleIssueView(l: CycleIssue, subIssues = 0) {
  return planningLinkView('cycle', l.cycleId, l, subIssues);
}
