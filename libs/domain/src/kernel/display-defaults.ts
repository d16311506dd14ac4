/**
 * Plane's defaults for a new list settings row (`get_default_filters`,
 * `get_default_display_filters`, `get_default_display_properties` in `plane/db/models/issue.py`
 * and `cycle.py`). Fresh copies each call: the rows own their JSON.
 */
export function defaultFilters(): Record<string, unknown> {
  return {
    priority: null,
    state: null,
    state_group: null,
    assignees: null,
    created_by: null,
    labels: null,
    start_date: null,
    target_date: null,
    subscriber: null,
  };
}

export function defaultDisplayFilters(): Record<string, unknown> {
  return {
    group_by: null,
    order_by: '-created_at',
    type: null,
    sub_issue: true,
    show_empty_groups: true,
    layout: 'list',
    calendar_date_range: '',
  };
}

export function defaultDisplayProperties(): Record<string, unknown> {
  return {
    assignee: true,
    attachment_count: true,
    created_on: true,
    due_date: true,
    estimate: true,
    key: true,
    labels: true,
    link: true,
    priority: true,
    start_date: true,
    state: true,
    sub_issue_count: true,
    updated_on: true,
  };
}
