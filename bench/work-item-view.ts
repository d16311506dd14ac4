/**
 * The External API v1 work item as the benchmark baselines write it (bench/bare-server.ts,
 * bench/floor-server.ts): the same fields, order and values as Meridian's, from a row of the
 * issue room's SQL texts (`ISSUE_COLUMNS`) read with pg's default type parsers (times as `Date`).
 */
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function view(i: Row, assignees: string[], labels: string[]) {
  return {
    id: i.id,
    name: i.name,
    description_html: i.description_html,
    description_stripped: i.description_stripped,
    description_binary: null,
    priority: i.priority,
    state: i.state_id,
    parent: i.parent_id,
    point: i.point,
    estimate_point: i.estimate_point_id,
    start_date: i.start_date,
    target_date: i.target_date,
    sequence_id: i.sequence_id,
    sort_order: i.sort_order,
    completed_at: iso(i.completed_at),
    archived_at: i.archived_at,
    is_draft: i.is_draft,
    external_source: i.external_source,
    external_id: i.external_id,
    type: i.type_id,
    type_id: i.type_id,
    assignees,
    labels,
    project: i.project_id,
    workspace: i.workspace_id,
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    deleted_at: iso(i.deleted_at),
    created_by: i.created_by_id,
    updated_by: i.updated_by_id,
  };
}
