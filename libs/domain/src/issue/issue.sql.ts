/**
 * The work item room's fixed SQL texts (the hot paths: list, read and create), with `$n`
 * placeholders, and the one definition of what a list or lookup may show. Sent as named statements
 * by `IssueRepository` (parsed and planned once per connection); `bench/bare-server.ts` runs the
 * same texts, so the benchmark compares frameworks, not SQL.
 *
 * This module imports nothing: keep it that way (the bare server loads it alone, without Nest or
 * TypeORM). Only `issue.repository.ts`, `issue-filters.ts` and the bare server import it.
 */

/**
 * Intake statuses (`intake_issues.status`, Plane's `IntakeIssue.status`; the intake room's
 * `INTAKE_STATUS`) that keep a work item out of every list and lookup until it is accepted,
 * declined or marked duplicate.
 */
export const INTAKE_PENDING = -2;
export const INTAKE_SNOOZED = 0;
/** `INTAKE_PENDING, INTAKE_SNOOZED` as an SQL list. */
const IN_TRIAGE = `${INTAKE_PENDING}, ${INTAKE_SNOOZED}`;

/** A live project that is not archived, over the alias `p` (raw column names). */
export const LIVE_PROJECT = 'p.deleted_at IS NULL AND p.archived_at IS NULL';

/**
 * SQL condition on a work item alias: not waiting in intake (pending or snoozed). Such work items
 * stay out of every list and lookup (v1, App and public) until they are accepted, declined or
 * marked duplicate (Plane's issue manager).
 */
export function notInTriage(alias: string): string {
  return `NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = ${alias}.id AND ii.deleted_at IS NULL AND ii.status IN (${
    IN_TRIAGE
  }))`;
}

/**
 * A work item `i` that is neither archived nor a draft (what comments, links, reactions and
 * sub-items hang on). Deleted rows are left out besides (`i.deleted_at IS NULL`, which the query
 * builder adds by itself).
 */
export const OPEN_ISSUE = 'i.archived_at IS NULL AND i.is_draft = false';

/**
 * What a list or lookup may show of the work items `i` (joined to their project `p`, `LIVE_PROJECT`):
 * not deleted, not archived, not a draft, not waiting in intake (Plane's IssueManager,
 * `plane/db/models/issue.py`). The Guest rule (`issue-filters.ts`) narrows it per caller.
 */
export const VISIBLE_ISSUE = `${OPEN_ISSUE} AND ${notInTriage('i')}`;

const ISSUE_HEAD_COLUMNS = `i.id, i.created_at, i.updated_at, i.deleted_at, i.created_by_id, i.updated_by_id, i.workspace_id, i.project_id,
i.name`;
const ISSUE_TAIL_COLUMNS = `i.priority, i.state_id, i.parent_id, i.point, i.estimate_point_id,
i.start_date::text AS start_date, i.target_date::text AS target_date, i.sequence_id, i.sort_order, i.completed_at,
i.archived_at::text AS archived_at, i.is_draft, i.external_source, i.external_id, i.type_id`;

/** The columns of a work item row, dates as `YYYY-MM-DD` text (as TypeORM maps `date` columns). */
export const ISSUE_COLUMNS = `${ISSUE_HEAD_COLUMNS}, i.description_html, i.description_stripped, ${ISSUE_TAIL_COLUMNS}`;

/**
 * `ISSUE_COLUMNS` without `description_html` and `description_stripped`: what the App API's list and
 * board show of a work item (Plane's `IssueViewSet.list` reads its `.values()` without the
 * description), so that a page of them does not carry every description out of the database.
 */
export const ISSUE_LIST_COLUMNS = `${ISSUE_HEAD_COLUMNS}, ${ISSUE_TAIL_COLUMNS}`;

/**
 * The visible work items of project `$1` (not deleted, archived, draft or waiting in intake;
 * project live and not archived), as a `FROM … WHERE …` fragment. The project join is one row
 * per work item, so `COUNT(*)` over it is exact. Served by `ix_issues_project_live_created`.
 *
 * The intake condition is `notInTriage` written as `NOT IN` over the project's pending and snoozed
 * intake rows (an intake row is in its work item's project; `issue_id` is never null, so `NOT IN`
 * means `NOT EXISTS`): PostgreSQL hashes that small set once per statement, where the
 * `NOT EXISTS` form may be planned as a nested loop that rescans `intake_issues` once per work
 * item (226 ms instead of 35–60 ms for a count over 100k).
 */
export const SQL_VISIBLE_ISSUES_OF_PROJECT = `FROM issues i
JOIN projects p ON p.id = i.project_id AND ${LIVE_PROJECT}
WHERE i.project_id = $1 AND i.deleted_at IS NULL AND ${OPEN_ISSUE}
AND i.id NOT IN (SELECT ii.issue_id FROM intake_issues ii WHERE ii.project_id = $1 AND ii.deleted_at IS NULL AND ii.status IN (${IN_TRIAGE}))`;

/** `$1` project id, `$2` work item id: one visible work item with its assignee and label ids (sorted). */
export const SQL_VISIBLE_ISSUE = `SELECT ${ISSUE_COLUMNS},
ARRAY(SELECT a.assignee_id::text FROM issue_assignees a WHERE a.issue_id = i.id ORDER BY a.assignee_id::text COLLATE "C") AS assignee_ids,
ARRAY(SELECT l.label_id::text FROM issue_labels l WHERE l.issue_id = i.id ORDER BY l.label_id::text COLLATE "C") AS label_ids
${SQL_VISIBLE_ISSUES_OF_PROJECT} AND i.id = $2`;

/** `$1` work item ids (uuid[]): their assignee (`k = 'a'`) and label (`k = 'l'`) ids. */
export const SQL_ISSUE_SETS = `SELECT 'a' AS k, issue_id::text AS issue_id, assignee_id::text AS v FROM issue_assignees WHERE issue_id = ANY($1::uuid[])
UNION ALL SELECT 'l', issue_id::text, label_id::text FROM issue_labels WHERE issue_id = ANY($1::uuid[])`;

/** `$1` project id: the live project's archive date and default assignee (create's first read). */
export const SQL_PROJECT_FOR_CREATE = `SELECT archived_at::text AS archived_at, default_assignee_id FROM projects WHERE id = $1 AND deleted_at IS NULL`;

/** `$1` project id: the project's default non-triage state, else its first non-triage state. */
export const SQL_DEFAULT_STATE = `SELECT id, "group", name FROM states WHERE project_id = $1 AND is_triage = false AND deleted_at IS NULL
ORDER BY "default" DESC, sequence ASC LIMIT 1`;

/**
 * `$1` project id, `$2` 1 when the work item is visible (not a draft), else 0: the next
 * `sequence_id`, and the project's `visible_count` (see `SQL_PROJECT_VISIBLE_COUNT`) counts the
 * work item. Locks the project's counter row until the transaction ends.
 */
export const SQL_NEXT_SEQUENCE = `INSERT INTO project_issue_counters (project_id, last_sequence, visible_count) VALUES ($1, 1, $2::int)
ON CONFLICT (project_id) DO UPDATE SET last_sequence = project_issue_counters.last_sequence + 1,
visible_count = project_issue_counters.visible_count + $2::int
RETURNING last_sequence`;

/**
 * `$1` project id, `$2` how many work items a batch creates (`IssueCreateBatcher`), `$3` how many
 * of them are visible (not drafts): takes `$2` numbers at once and counts `$3` visible work items
 * (one update of the counter row per batch); the batch's k-th work item (from 0) gets
 * `last_sequence - ($2 - 1 - k)`. Locks the counter row as `SQL_NEXT_SEQUENCE` does.
 */
export const SQL_NEXT_SEQUENCES = `INSERT INTO project_issue_counters (project_id, last_sequence, visible_count) VALUES ($1, $2::int, $3::int)
ON CONFLICT (project_id) DO UPDATE SET last_sequence = project_issue_counters.last_sequence + $2::int,
visible_count = project_issue_counters.visible_count + $3::int
RETURNING last_sequence`;

/** The key of a NULL `state_id` or `created_by_id` in `project_issue_tallies`' unique index. */
const NO_KEY = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * `$1` workspace id, `$2` project id, `$3` state ids, `$4` priorities, `$5` creator ids (uuid[],
 * text[], uuid[] side by side; each key once): locks the project's tally rows of those keys
 * (`project_issue_tallies`, migration `IssueTallies`), made with 0 when missing, in the tallies' key
 * order, until the transaction ends. A batch of creates with several keys sends it before its
 * statements, whose insert trigger then adds to rows it already holds: every writer of the tallies
 * takes its rows in key order (a change of one work item takes its old and new row so too), so a
 * batch and a change moving a work item between two of its keys cannot wait for each other in a
 * cycle.
 */
export const SQL_LOCK_TALLIES = `INSERT INTO project_issue_tallies AS t (workspace_id, project_id, state_id, priority, created_by_id, n)
SELECT $1::uuid, $2::uuid, k.s, k.p, k.c, 0 FROM unnest($3::uuid[], $4::text[], $5::uuid[]) AS k(s, p, c)
ORDER BY COALESCE(k.s, ${NO_KEY}), k.p, COALESCE(k.c, ${NO_KEY})
ON CONFLICT (project_id, (COALESCE(state_id, ${NO_KEY})), priority, (COALESCE(created_by_id, ${NO_KEY}))) DO UPDATE SET n = t.n`;

/**
 * `$1` project id: how many work items `SQL_VISIBLE_ISSUES_OF_PROJECT` holds (`n`), read from the
 * project's counter (`project_issue_counters.visible_count`, kept in every writing transaction:
 * creates count in their counter upsert, every other change of visibility is counted by the
 * database's triggers, migration `IssueVisibleCounts`); 0 for a project that is deleted, archived
 * or has no counter row. The unfiltered total of every list page: one row read instead of the
 * whole list.
 */
export const SQL_PROJECT_VISIBLE_COUNT = `SELECT COALESCE(MAX(c.visible_count), 0)::int AS n FROM projects p
LEFT JOIN project_issue_counters c ON c.project_id = p.id WHERE p.id = $1 AND ${LIVE_PROJECT}`;

/** A project Guest's role (`ROLE.GUEST` of `#common`, not imported here). */
const GUEST_ROLE = 5;

/**
 * `$1` workspace id, `$2` user id: how many visible work items (`n`) the live projects of the
 * workspace the user is an active member of hold, the sum of their counters (as
 * `SQL_PROJECT_VISIBLE_COUNT`); null when the user is a Guest of one of them that does not let
 * Guests see every work item (the Guest rule narrows that project's list: count it instead). The
 * unfiltered total of the workspace list (`GET workspaces/{slug}/issues/`): one row per project.
 */
export const SQL_WORKSPACE_VISIBLE_COUNT = `SELECT CASE WHEN bool_and(pm.role > ${GUEST_ROLE} OR p.guest_view_all_features)
THEN COALESCE(SUM(c.visible_count), 0)::int END AS n
FROM project_members pm JOIN projects p ON p.id = pm.project_id AND ${LIVE_PROJECT} AND p.workspace_id = $1
LEFT JOIN project_issue_counters c ON c.project_id = p.id
WHERE pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL`;

/**
 * The live, unarchived projects of workspace `ws` that user `viewer` is an active member of (SQL
 * values: placeholders or literals), as a `SELECT pm.project_id … WHERE …` to narrow with `AND`.
 */
function memberProjects(ws: string, viewer: string): string {
  return `SELECT pm.project_id FROM project_members pm JOIN projects sp ON sp.id = pm.project_id AND sp.workspace_id = ${ws}
AND sp.deleted_at IS NULL AND sp.archived_at IS NULL
WHERE pm.member_id = ${viewer} AND pm.is_active = true AND pm.deleted_at IS NULL`;
}

/**
 * The work items `i` of workspace `ws` that user `viewer` may see by project (SQL values:
 * placeholders or literals), as a condition: those of the live, unarchived projects they are an
 * active member of, a Guest's (`pm.role` 5) only their own unless the project has
 * `guest_view_all_features` (the Guest rule of each project, Plane's `WorkspaceViewIssuesViewSet`).
 * The projects are two arrays read once per statement (`ARRAY(…)`, an init plan), so a walk of the
 * workspace's work items checks each with `project_id` and `created_by_id` alone: no join per row,
 * and an index that holds them (`ix_issues_workspace_live_created`) answers it without the table.
 */
export function workspaceScope(ws: string, viewer: string): string {
  const projects = memberProjects(ws, viewer);
  return `i.workspace_id = ${ws} AND (i.project_id = ANY(ARRAY(${projects} AND (pm.role > ${GUEST_ROLE} OR sp.guest_view_all_features = true)))
OR (i.created_by_id = ${viewer} AND i.project_id = ANY(ARRAY(${projects}))))`;
}

/**
 * The visible work items of workspace `$1` that user `$2` may see (`workspaceScope`), as a
 * `FROM … WHERE …` fragment without a join: one row per work item, so `COUNT(*)` over it is exact.
 * The intake condition is `notInTriage` as `NOT IN` over the workspace's pending and snoozed intake
 * rows (hashed once per statement, as in `SQL_VISIBLE_ISSUES_OF_PROJECT`; an intake row is in its
 * work item's project, so in its workspace). Served newest first by `ix_issues_workspace_live_created`,
 * which also holds every column these conditions read: a walk to a deep page's start key, and a
 * count with the `state`, `priority` or `project` filters, read the index alone.
 */
export const SQL_VISIBLE_ISSUES_OF_WORKSPACE = `FROM issues i
WHERE ${workspaceScope('$1', '$2')} AND i.deleted_at IS NULL AND ${OPEN_ISSUE}
AND i.id NOT IN (SELECT ii.issue_id FROM intake_issues ii WHERE ii.workspace_id = $1 AND ii.deleted_at IS NULL AND ii.status IN (${IN_TRIAGE}))`;

/**
 * The tallies of the visible work items of project `$1` (`project_issue_tallies`, migration
 * `IssueTallies`: per state, priority and creator, kept by triggers), project live and not
 * archived, as a `FROM … WHERE …` fragment over the alias `i` (and `p`): `SUM(i.n)` over it, with
 * conditions on `i.state_id`, `i.priority`, `i.created_by_id` or `i.project_id`, is what
 * `COUNT(*)` over `SQL_VISIBLE_ISSUES_OF_PROJECT` with the same conditions gives.
 */
export const SQL_TALLIES_OF_PROJECT = `FROM project_issue_tallies i
JOIN projects p ON p.id = i.project_id AND ${LIVE_PROJECT}
WHERE i.project_id = $1`;

/**
 * The tallies of the visible work items of workspace `$1` that user `$2` may see
 * (`workspaceScope`, the Guest rule included: the creator is a key), as `SQL_TALLIES_OF_PROJECT`
 * is of `SQL_VISIBLE_ISSUES_OF_PROJECT` for `SQL_VISIBLE_ISSUES_OF_WORKSPACE`.
 */
export const SQL_TALLIES_OF_WORKSPACE = `FROM project_issue_tallies i
WHERE ${workspaceScope('$1', '$2')}`;

/**
 * Inserts a work item: `$1` workspace, `$2` project, `$3` name, `$4` description_html, `$5`
 * description_stripped, `$6` priority, `$7` state, `$8` parent, `$9` point, `$10` estimate point,
 * `$11` start_date, `$12` target_date, `$13` completed_at, `$14` is_draft, `$15` external_source,
 * `$16` external_id, `$17` type, `$18` creator, `$19` sort_order. `sequence_id` is the project's
 * counter as `SQL_NEXT_SEQUENCE` just left it (an earlier statement of the same transaction, so its
 * new value is visible). With `$19` null, `sort_order` is the highest of its state plus 10000
 * (65535 for the first), found through `ix_issues_project_state_sort`.
 *
 * Run after `SQL_NEXT_SEQUENCE` in the same transaction, as a statement of its own: the counter
 * row lock orders concurrent creates, and in READ COMMITTED a statement's snapshot is taken when it
 * starts, so a statement started after the lock was granted sees the previous creator's row (one
 * started before, as the upsert itself, would not: never merge the two). Sent in one pipeline with
 * the upsert, it still starts only once the upsert is done: the server runs them in order.
 */
function insertIssue(sameState: string, sequenceOffset = ''): string {
  return `INSERT INTO issues (workspace_id, project_id, name, description_html, description_stripped, priority,
state_id, parent_id, point, estimate_point_id, start_date, target_date, sequence_id, completed_at, is_draft,
external_source, external_id, type_id, created_by_id, updated_by_id, sort_order)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
(SELECT c.last_sequence${sequenceOffset} FROM project_issue_counters c WHERE c.project_id = $2), $13, $14, $15, $16, $17, $18, $18,
COALESCE($19::double precision, (SELECT MAX(s.sort_order) + 10000 FROM issues s WHERE s.project_id = $2 AND ${sameState} AND s.deleted_at IS NULL), 65535))
RETURNING ${ISSUE_COLUMNS.replace(/i\./g, '')}`;
}
const SAME_STATE = 's.state_id = $7';
const NO_STATE = 's.state_id IS NULL AND $7::uuid IS NULL';

/**
 * A work item's create as one data-modifying statement, run right after `SQL_NEXT_SEQUENCE`
 * (see `insertIssue`, whose `$1`–`$19` it takes): the `issues` row and its history row "created
 * the issue" (`$18` the actor, `$20` the epoch in seconds, `created_at` = `clock_timestamp()`);
 * with `sets`, also the `issue_assignees` (`$21`), `issue_labels` (`$22`) and `issue_subscribers`
 * (`$23`, created by `$18`) rows, uuid arrays that may be empty. Answers the work item's columns
 * plus `activity_id`. The CTEs share one snapshot and run to completion whether read or not; the
 * foreign keys are checked at the statement's end.
 */
function createIssue(sameState: string, sets: boolean, batched = false): string {
  return `WITH ins AS (${insertIssue(sameState, batched ? ' - $24::int' : '')}),
act AS (INSERT INTO issue_activities (created_at, workspace_id, project_id, issue_id, verb, field, comment, actor_id, epoch, created_by_id, updated_by_id)
SELECT clock_timestamp(), ins.workspace_id, ins.project_id, ins.id, 'created', NULL, 'created the issue', $18, $20::double precision, $18, $18 FROM ins
RETURNING id)${
    sets
      ? `,
asg AS (INSERT INTO issue_assignees (issue_id, assignee_id) SELECT ins.id, a FROM ins, unnest($21::uuid[]) a),
lab AS (INSERT INTO issue_labels (issue_id, label_id) SELECT ins.id, l FROM ins, unnest($22::uuid[]) l),
sub AS (INSERT INTO issue_subscribers (workspace_id, project_id, issue_id, subscriber_id, created_by_id)
SELECT ins.workspace_id, ins.project_id, ins.id, u, $18 FROM ins, unnest($23::uuid[]) u ON CONFLICT DO NOTHING)`
      : ''
  }
SELECT ins.*, act.id AS activity_id FROM ins, act`;
}
/** Meridian's create: work item, history, assignees, labels and subscribers (`createIssue` with sets). */
export const SQL_CREATE_ISSUE = createIssue(SAME_STATE, true);
/** `SQL_CREATE_ISSUE` for a work item without a state (`$7` null). */
export const SQL_CREATE_ISSUE_NO_STATE = createIssue(NO_STATE, true);
/**
 * `SQL_CREATE_ISSUE` in a batch, after `SQL_NEXT_SEQUENCES` (see `IssueCreateBatcher`): `$24` is
 * how many work items of the batch come after this one, so its `sequence_id` is the counter minus `$24`.
 */
export const SQL_CREATE_ISSUE_IN_BATCH = createIssue(SAME_STATE, true, true);
/** `SQL_CREATE_ISSUE_IN_BATCH` for a work item without a state (`$7` null). */
export const SQL_CREATE_ISSUE_IN_BATCH_NO_STATE = createIssue(NO_STATE, true, true);
/** The same statement without the sets (`$1`–`$20`): the bare benchmark server's create. */
export const SQL_CREATE_ISSUE_PLAIN = createIssue(SAME_STATE, false);
/** `SQL_CREATE_ISSUE_PLAIN` for a work item without a state. */
export const SQL_CREATE_ISSUE_PLAIN_NO_STATE = createIssue(NO_STATE, false);

/**
 * Plane's App API values of the work item `i` (`IssueViewSet.list`) as select-list items: assignee,
 * label and module ids (sorted), the cycle, the sub-item, link and attachment counts and the state
 * group. Archived modules and deleted cycles, modules and labels are left out, as in Plane. `i`
 * may be any row with the work item's `id` and `state_id` (a page's rows: `groupPages`).
 *
 * Whether a label, module or cycle is live is a scalar sub-select by its primary key (null, so
 * false, when the row is missing: what an inner join keeps), not a join: PostgreSQL never turns a
 * scalar sub-select into a join, so each link row is one index lookup, where the join was planned
 * as a hash join that scanned the whole `labels`, `modules` or `cycles` table once per work item
 * (docs/decisions.md "A list page's App values in its statement, by key").
 */
export const APP_VALUE_COLUMNS = `ARRAY(SELECT ia.assignee_id FROM issue_assignees ia WHERE ia.issue_id = i.id ORDER BY ia.assignee_id) AS assignee_ids,
ARRAY(SELECT il.label_id FROM issue_labels il WHERE il.issue_id = i.id
AND (SELECT l.deleted_at IS NULL FROM labels l WHERE l.id = il.label_id) ORDER BY il.label_id) AS label_ids,
ARRAY(SELECT mi.module_id FROM module_issues mi WHERE mi.issue_id = i.id AND mi.deleted_at IS NULL
AND (SELECT m.deleted_at IS NULL AND m.archived_at IS NULL FROM modules m WHERE m.id = mi.module_id) ORDER BY mi.module_id) AS module_ids,
(SELECT ci.cycle_id FROM cycle_issues ci WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL
AND (SELECT c.deleted_at IS NULL FROM cycles c WHERE c.id = ci.cycle_id) LIMIT 1) AS cycle_id,
(SELECT COUNT(*) FROM issues s WHERE s.parent_id = i.id AND s.deleted_at IS NULL AND s.archived_at IS NULL AND s.is_draft = false) AS sub_issues_count,
(SELECT COUNT(*) FROM issue_links k WHERE k.issue_id = i.id AND k.deleted_at IS NULL) AS link_count,
(SELECT COUNT(*) FROM file_assets f WHERE f.issue_id = i.id AND f.entity_type = 'ISSUE_ATTACHMENT' AND f.deleted_at IS NULL) AS attachment_count,
(SELECT s."group" FROM states s WHERE s.id = i.state_id) AS state_group`;

/** `$1` work item ids (uuid[]): their App API values (`APP_VALUE_COLUMNS`) by `id`. */
export const SQL_APP_VALUES = `SELECT i.id,
${APP_VALUE_COLUMNS}
FROM issues i WHERE i.id = ANY($1::uuid[])`;

/** `$1` project id: the keys of `group_by=state_id` (Plane's `issue_group_values`): the project's states but triage, in order. */
export const SQL_STATE_GROUP_KEYS = `SELECT id FROM states WHERE project_id = $1 AND deleted_at IS NULL AND is_triage = false ORDER BY sequence, id`;
