import type { Bind, IssueFilterSet, IssueGroupBy } from './issue-filters';
import { issueFilterConditions } from './issue-filters';
import { LIVE_PROJECT } from './issue.sql';

/**
 * The tallies of visible work items per assignee and per label (`issue_set_tallies`, kept by the
 * triggers of migration `IssueSetTallies`): `kind` `a` for assignees, `l` for labels; per value
 * (NULL: none), project, state and `done` (`completed_at` set), `n` work items. docs/decisions.md
 * "Tallies per assignee and per label".
 */
export type TallyKind = 'a' | 'l';

/** A UUID as text (another value is left to the counting path, which answers it as before). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A project Guest's role (`ROLE.GUEST` of `#common`, as in `issue.sql.ts`). */
const GUEST_ROLE = 5;

/**
 * The projects whose tallies a scope reads, as `SELECT p.id, <whole> AS whole …` (values bound
 * with `bind`): one project (`projectId`, when live), or the live projects of the workspace that
 * `viewerId` is an active member of. `whole` is false for a project whose list the Guest rule
 * narrows for the viewer (a Guest where `guest_view_all_features` is off): a reader must then not
 * use the tallies (`bool_and(whole)`, as `SQL_WORKSPACE_VISIBLE_COUNT`), but count.
 */
export function tallyProjects(scope: string | { workspaceId: string; viewerId: string }, bind: Bind): string {
  if (typeof scope === 'string')
    return `SELECT p.id, true AS whole FROM projects p WHERE p.id = ${bind(scope)}::uuid AND ${LIVE_PROJECT}`;
  return `SELECT p.id, (pm.role > ${GUEST_ROLE} OR p.guest_view_all_features) AS whole
FROM project_members pm JOIN projects p ON p.id = pm.project_id AND ${LIVE_PROJECT} AND p.workspace_id = ${bind(scope.workspaceId)}::uuid
WHERE pm.member_id = ${bind(scope.viewerId)}::uuid AND pm.is_active = true AND pm.deleted_at IS NULL`;
}

/** The tally kind of a grouping (`assignees__id`, `labels__id`), or undefined. */
export function tallyKindOf(by: IssueGroupBy): TallyKind | undefined {
  return by === 'assignees__id' ? 'a' : by === 'labels__id' ? 'l' : undefined;
}

/**
 * Whether `filters` hold nothing but one assignee or one label (no other filter, no Guest rule),
 * so that a list's total is that value's tally: its kind and value, else undefined. Two values of a
 * set are not a sum (a work item may have both).
 */
export function tallyFilterOf(filters: IssueFilterSet): { kind: TallyKind; value: string } | undefined {
  const { assignee, label, ...rest } = filters;
  if (issueFilterConditions(rest, () => '$0').length) return undefined;
  const one = (values: string[] | undefined) => values?.length === 1 && UUID.test(values[0]);
  if (one(assignee) && !label?.length) return { kind: 'a', value: assignee![0] };
  if (one(label) && !assignee?.length) return { kind: 'l', value: label![0] };
  return undefined;
}
