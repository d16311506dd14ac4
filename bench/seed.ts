/**
 * Seeding for the work item benchmark: the first rows through the API (`POST …/work-items/`), the
 * rest with one bulk statement per batch that writes exactly what the API writes (the work item
 * row, the project's sequence counter, the "created the issue" history row). `checkBulkMatchesApi`
 * compares an API-created row with a bulk one column by column (ids, names, timestamps, sequence
 * and sort order aside) and throws on any difference.
 */
import assert from 'node:assert/strict';
import { once } from './load';

export type Sql = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface SeedTarget {
  base: string;
  key: string;
  slug: string;
  workspaceId: string;
  projectId: string;
  userId: string;
  /** a Bearer access token of the user (the App API) */
  token?: string;
}

/** `count` work items through the API, `concurrency` at a time. */
export async function seedViaApi(t: SeedTarget, count: number, concurrency = 8): Promise<void> {
  let n = 0;
  const worker = async () => {
    while (n < count) {
      const i = n++;
      const res = await once(t.base, {
        method: 'POST',
        path: `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/`,
        headers: { 'x-api-key': t.key },
        body: JSON.stringify({ name: `API item ${i}` }),
      });
      if (res.status !== 201) throw new Error(`seed create: ${res.status} ${res.body.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * `count` work items in the project's default state, in batches: what `IssueCommandService.create`
 * writes for `{"name": …}` (default state, next sequence ids, sort order after the state's last,
 * `completed_at` for a completed state, creator, history row), counted in the project's
 * `visible_count` as a create counts them.
 */
export async function seedBulk(
  sql: Sql,
  t: SeedTarget,
  count: number,
  batch = 20_000,
  /** the name of row `g` (1.. in the batch; `$5` the rows before the batch): SQL over `g` and `$5` */
  nameSql = `'Bulk item ' || ($5::int + g)`,
): Promise<void> {
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    await sql(
      `WITH st AS (
         SELECT id, "group" FROM states WHERE project_id = $1 AND is_triage = false AND deleted_at IS NULL
         ORDER BY "default" DESC, sequence ASC LIMIT 1),
       c AS (
         INSERT INTO project_issue_counters (project_id, last_sequence, visible_count) VALUES ($1, $3, $3)
         ON CONFLICT (project_id) DO UPDATE SET last_sequence = project_issue_counters.last_sequence + $3,
           visible_count = project_issue_counters.visible_count + $3
         RETURNING last_sequence - $3 AS base),
       m AS (
         SELECT COALESCE(MAX(i.sort_order), 55535) AS s FROM issues i, st
         WHERE i.project_id = $1 AND i.state_id = st.id AND i.deleted_at IS NULL),
       ins AS (
         INSERT INTO issues (workspace_id, project_id, name, description_html, description_stripped, priority, state_id,
           sequence_id, sort_order, completed_at, is_draft, created_by_id, updated_by_id, created_at, updated_at)
         SELECT $2, $1, ${nameSql}, '<p></p>', '', 'none', st.id, c.base + g, m.s + 10000 * g,
           CASE WHEN st."group" = 'completed' THEN clock_timestamp() END, false, $4, $4, ts, ts
         FROM st, c, m, generate_series(1, $3) AS g,
           LATERAL (SELECT now() + (g * interval '1 microsecond') AS ts) AS t
         RETURNING id, created_at)
       INSERT INTO issue_activities (created_at, workspace_id, project_id, issue_id, verb, field, comment, actor_id, epoch, created_by_id, updated_by_id)
       SELECT ins.created_at, $2, $1, ins.id, 'created', NULL, 'created the issue', $4, EXTRACT(EPOCH FROM ins.created_at), $4, $4 FROM ins`,
      [t.projectId, t.workspaceId, n, t.userId, done],
    );
  }
}

const VARYING = new Set(['id', 'name', 'sequence_id', 'sort_order', 'created_at', 'updated_at', 'issue_id', 'epoch']);

/** An API-created work item and a bulk-created one agree on every other column, and so do their history rows. */
export async function checkBulkMatchesApi(sql: Sql, projectId: string): Promise<void> {
  const pick = async (like: string, not = false) => {
    const [issue] = await sql(
      `SELECT * FROM issues WHERE project_id = $1 AND name ${not ? 'NOT ' : ''}LIKE $2 ORDER BY sequence_id LIMIT 1`,
      [projectId, like],
    );
    assert.ok(issue, `no work item named ${not ? 'other than ' : ''}${like}`);
    const activities = await sql(`SELECT * FROM issue_activities WHERE issue_id = $1`, [issue.id]);
    return { issue, activities };
  };
  const api = await pick('API item %');
  // the bulk rows: any other name (the benches name them differently)
  const bulk = await pick('API item %', true);
  const strip = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => !VARYING.has(k)));
  assert.deepEqual(Object.keys(bulk.issue).sort(), Object.keys(api.issue).sort());
  assert.deepEqual(strip(bulk.issue), strip(api.issue), 'bulk work item differs from an API-created one');
  assert.equal(bulk.activities.length, api.activities.length, 'history rows per work item');
  assert.deepEqual(
    bulk.activities.map(strip),
    api.activities.map(strip),
    'bulk history row differs from an API-created one',
  );
  const [dup] = await sql(
    `SELECT COUNT(*)::int AS n FROM (SELECT sort_order FROM issues WHERE project_id = $1 GROUP BY state_id, sort_order HAVING COUNT(*) > 1) d`,
    [projectId],
  );
  assert.equal(Number(dup.n), 0, 'duplicate sort orders in a state');
  const [seq] = await sql(
    `SELECT (SELECT last_sequence FROM project_issue_counters WHERE project_id = $1) AS last, MAX(sequence_id) AS max, COUNT(*)::int AS n FROM issues WHERE project_id = $1`,
    [projectId],
  );
  assert.equal(Number(seq.last), Number(seq.max), 'counter after the last sequence id');
  assert.equal(Number(seq.n), Number(seq.max), 'sequence ids 1..n');
  const [visible] = await sql(
    `SELECT (SELECT visible_count FROM project_issue_counters WHERE project_id = $1) AS counted,
       (SELECT COUNT(*)::int FROM issues WHERE project_id = $1 AND deleted_at IS NULL AND archived_at IS NULL AND is_draft = false) AS n`,
    [projectId],
  );
  assert.equal(Number(visible.counted), Number(visible.n), 'visible_count is the count of visible work items');
}

/** Work item row `i` counts in the tallies: not deleted, archived, a draft or waiting in intake triage. */
export const VISIBLE = `i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
  AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;

/** The cycles and modules of workspace `$1`: the owners of its `planning_issue_tallies` rows. */
const PLANNING_OWNERS = `(SELECT id FROM cycles WHERE workspace_id = $1 UNION ALL SELECT id FROM modules WHERE workspace_id = $1)`;

/**
 * The tallies of the work items of each cycle and module (migration `PlanningTallies`) of workspace
 * `$1`: `kept` reads the rows (of 0 left out), `fresh` counts them afresh from the live links, the
 * work items and their assignees; `owners` names the rows to replace.
 */
export const PLANNING_TALLIES = {
  owners: PLANNING_OWNERS,
  issues: {
    kept: `SELECT owner_id, kind, state_id, estimate_point_id, n FROM planning_issue_tallies
      WHERE owner_id IN ${PLANNING_OWNERS} AND n <> 0`,
    fresh: `SELECT l.owner_id, l.kind, i.state_id, i.estimate_point_id, COUNT(*)::int AS n
      FROM (SELECT cycle_id AS owner_id, 'c'::"char" AS kind, issue_id FROM cycle_issues WHERE deleted_at IS NULL
            UNION ALL SELECT module_id, 'm'::"char", issue_id FROM module_issues WHERE deleted_at IS NULL) l
      JOIN issues i ON i.id = l.issue_id
      WHERE l.owner_id IN ${PLANNING_OWNERS} AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
      GROUP BY 1, 2, 3, 4`,
  },
  assignees: {
    kept: `SELECT cycle_id, assignee_id, n FROM cycle_assignee_tallies WHERE cycle_id IN ${PLANNING_OWNERS} AND n <> 0`,
    fresh: `SELECT l.cycle_id, ia.assignee_id, COUNT(*)::int AS n
      FROM cycle_issues l JOIN issues i ON i.id = l.issue_id JOIN issue_assignees ia ON ia.issue_id = i.id
      WHERE l.cycle_id IN ${PLANNING_OWNERS} AND l.deleted_at IS NULL AND i.deleted_at IS NULL AND i.is_draft = false
      GROUP BY 1, 2`,
  },
};

/**
 * What the database's triggers keep, checked against a recount over workspace `workspaceId`'s
 * projects; throws on the first difference (up to 5 differing rows in the message):
 * `project_issue_tallies`, `issue_set_tallies` and `issue_date_tallies` (rows of 0 left out) equal
 * the counts of the visible work items and their links (the recounts of the tallies' e2e tests);
 * `planning_issue_tallies` and `cycle_assignee_tallies` those of the cycles' and modules' work
 * items (`PLANNING_TALLIES`); `issue_activity_day_tallies` the counts of the live history rows per
 * actor and UTC day;
 * each project's `visible_count` and `last_sequence`; every assignee and label row's
 * `issue_created_at` equals its work item's `created_at`; and, with `bulkName` (a `LIKE` pattern),
 * those work items' `updated_at` is after their `created_at` exactly when they have a cycle, module,
 * label or assignee (`TouchIssuesOnLinks`: their links were written after them).
 */
export async function checkDerived(sql: Sql, workspaceId: string, bulkName?: string): Promise<void> {
  const projects = `(SELECT id FROM projects WHERE workspace_id = $1)`;
  const same = async (what: string, kept: string, fresh: string) => {
    const rows = await sql(
      `(SELECT 'kept' AS side, * FROM ((${kept}) EXCEPT ALL (${fresh})) a LIMIT 5)
       UNION ALL (SELECT 'recount', * FROM ((${fresh}) EXCEPT ALL (${kept})) b LIMIT 5)`,
      [workspaceId],
    );
    assert.equal(rows.length, 0, `${what} differ from a recount: ${JSON.stringify(rows)}`);
  };
  await same(
    'project_issue_tallies',
    `SELECT workspace_id, project_id, state_id, priority, created_by_id, n FROM project_issue_tallies
     WHERE project_id IN ${projects} AND n <> 0`,
    `SELECT i.workspace_id, i.project_id, i.state_id, i.priority, i.created_by_id, COUNT(*)::int FROM issues i
     WHERE i.project_id IN ${projects} AND ${VISIBLE} GROUP BY 1, 2, 3, 4, 5`,
  );
  await same(
    'issue_set_tallies',
    `SELECT kind::text, value_id, project_id, state_id, done, n FROM issue_set_tallies
     WHERE project_id IN ${projects} AND n <> 0`,
    [
      ['a', 'issue_assignees', 'assignee_id'],
      ['l', 'issue_labels', 'label_id'],
    ]
      .map(
        ([kind, table, column]) =>
          `SELECT '${kind}', t.${column}, i.project_id, i.state_id, i.completed_at IS NOT NULL, COUNT(*)::int
           FROM issues i LEFT JOIN ${table} t ON t.issue_id = i.id
           WHERE i.project_id IN ${projects} AND ${VISIBLE} GROUP BY 2, 3, 4, 5`,
      )
      .join(' UNION ALL '),
  );
  await same(
    'issue_date_tallies',
    `SELECT project_id, axis::text, year, month, n FROM issue_date_tallies WHERE project_id IN ${projects} AND n <> 0`,
    `SELECT i.project_id, v.axis, EXTRACT(YEAR FROM v.d)::int, EXTRACT(MONTH FROM v.d)::int, COUNT(*)::int
     FROM issues i CROSS JOIN LATERAL (VALUES ('c', i.created_at AT TIME ZONE 'UTC'),
       ('d', i.completed_at AT TIME ZONE 'UTC'), ('s', i.start_date::timestamp), ('t', i.target_date::timestamp)) v(axis, d)
     WHERE i.project_id IN ${projects} AND v.d IS NOT NULL AND ${VISIBLE} GROUP BY 1, 2, 3, 4`,
  );
  await same('planning_issue_tallies', PLANNING_TALLIES.issues.kept, PLANNING_TALLIES.issues.fresh);
  await same('cycle_assignee_tallies', PLANNING_TALLIES.assignees.kept, PLANNING_TALLIES.assignees.fresh);
  await same(
    'issue_activity_day_tallies',
    `SELECT actor_id, day, n FROM issue_activity_day_tallies WHERE workspace_id = $1 AND n <> 0`,
    `SELECT actor_id, (created_at AT TIME ZONE 'UTC')::date, COUNT(*)::int FROM issue_activities
     WHERE workspace_id = $1 AND deleted_at IS NULL AND actor_id IS NOT NULL GROUP BY 1, 2`,
  );
  await same(
    'visible counts and sequence counters',
    `SELECT project_id, visible_count, last_sequence FROM project_issue_counters WHERE project_id IN ${projects}`,
    `SELECT p.id, (SELECT COUNT(*)::int FROM issues i WHERE i.project_id = p.id AND ${VISIBLE}),
       (SELECT COALESCE(MAX(sequence_id), 0) FROM issues WHERE project_id = p.id)
     FROM projects p WHERE p.workspace_id = $1
     AND EXISTS (SELECT 1 FROM project_issue_counters c WHERE c.project_id = p.id)`,
  );
  for (const table of ['issue_assignees', 'issue_labels'])
    await same(
      `${table}.issue_created_at`,
      `SELECT t.issue_id, t.issue_created_at FROM ${table} t JOIN issues i ON i.id = t.issue_id WHERE i.workspace_id = $1`,
      `SELECT t.issue_id, i.created_at FROM ${table} t JOIN issues i ON i.id = t.issue_id WHERE i.workspace_id = $1`,
    );
  if (bulkName)
    await same(
      "the linked work items' updated_at",
      `SELECT i.id, i.updated_at > i.created_at FROM issues i WHERE i.workspace_id = $1 AND i.name LIKE '${bulkName}'`,
      `SELECT i.id, EXISTS (SELECT 1 FROM issue_assignees WHERE issue_id = i.id) OR EXISTS (SELECT 1 FROM issue_labels WHERE issue_id = i.id)
         OR EXISTS (SELECT 1 FROM cycle_issues WHERE issue_id = i.id) OR EXISTS (SELECT 1 FROM module_issues WHERE issue_id = i.id)
       FROM issues i WHERE i.workspace_id = $1 AND i.name LIKE '${bulkName}'`,
    );
}

/**
 * Spreads the project's work items over its non-triage states, round robin by `sequence_id` (a
 * board has every column filled; all states but the default one were empty). Sort orders stay
 * unique in each state (they were unique in the project).
 */
export async function spreadOverStates(sql: Sql, projectId: string): Promise<void> {
  await sql(
    `WITH st AS (SELECT id, (ROW_NUMBER() OVER (ORDER BY sequence, id) - 1)::int AS n, COUNT(*) OVER ()::int AS k
                 FROM states WHERE project_id = $1 AND is_triage = false AND deleted_at IS NULL)
     UPDATE issues i SET state_id = st.id,
       completed_at = CASE WHEN (SELECT "group" FROM states WHERE id = st.id) = 'completed' THEN i.created_at END
     FROM st WHERE i.project_id = $1 AND i.sequence_id % st.k = st.n`,
    [projectId],
  );
}

/** A connection for the bulk steps: `sql` and how to close it. */
export interface SeedConnection {
  sql: Sql;
  close(): Promise<void>;
}

/** A `SeedConnection` to PostgreSQL at `url`. */
export async function postgresSeedConnection(url: string): Promise<SeedConnection> {
  const { Client } = await import('pg');
  const db = new Client({ connectionString: url });
  db.on('error', (err) => console.error(`seed connection: ${err.message}`));
  await db.connect();
  return { sql: async (text, params) => (await db.query(text, params as unknown[])).rows, close: () => db.end() };
}

/** A `SeedConnection` to an embedded data directory (`<DATA_DIR>/pg`), opened in this process: no server may hold it. */
export async function embeddedSeedConnection(dataDir: string): Promise<SeedConnection> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create({
    dataDir: `${dataDir}/pg`,
    extensions: { pg_trgm: (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm },
  });
  return {
    sql: async (text, params) => (await pg.query<Record<string, unknown>>(text, params as unknown[])).rows,
    close: () => pg.close(),
  };
}

/**
 * The benches' project (the soak, start-up and flags benches): 200 work items through the API of
 * `server` (set up on `t`), which is then stopped (an embedded data directory is the server's while
 * it runs), then `items` more in bulk through `open()` (checked equal to the API's rows), spread over
 * the project's states, and `VACUUM ANALYZE`. Returns up to 1,000 of the project's work item ids in
 * random order.
 */
export async function seedProject(
  t: Omit<SeedTarget, 'base'>,
  server: { base: string; stop(): Promise<void> },
  items: number,
  open: () => Promise<SeedConnection>,
): Promise<string[]> {
  await seedViaApi({ ...t, base: server.base }, 200);
  await server.stop();
  const { sql, close } = await open();
  try {
    await seedBulk(sql, { ...t, base: '' }, items);
    await checkBulkMatchesApi(sql, t.projectId);
    await spreadOverStates(sql, t.projectId);
    await sql('VACUUM ANALYZE');
    return (await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [t.projectId])).map(
      (r) => r.id as string,
    );
  } finally {
    await close();
  }
}
