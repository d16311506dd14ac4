/**
 * The workspace at scale: the web app's workspace-wide list (`GET /api/workspaces/{slug}/issues/`,
 * "All work items" and the workspace views) and the analytics routes (the analytics page's chart
 * and overview, project stats, cycle and module progress, the home and profile graphs), against GET
 * one work item (v1) in the same run on the same database.
 *
 *   npm run build && node dist/bench/workspace.bench.js [--items 1000000] [--projects 10] [--members 200]
 *        [--seconds 3] [--rounds 2] [--connections 8] [--keep-db] [--db NAME] [--only TEXT]
 *        [--seed-only] [--once] [--no-relations] [--relations-only] [--triggered-seed]
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database
 * `meridian_workspace_<pid>` is created, and dropped unless `--keep-db`; `--db NAME` reuses a kept
 * one (no seeding). Seeding: `--projects` projects, `--members` members (all but the first added
 * through v1 `projects/{id}/members/` to the first project, their project memberships in the others
 * copied from those rows), 8 labels, 6 cycles and 6 modules per project through the API; a reference
 * work item through the API with assignees, labels, a cycle, a module and a comment; then `--items`
 * work items in bulk (`seedBulk`, checked column by column against an API-made row), spread over
 * the states, priorities, members (0–2 assignees), labels (0–2), cycles (about 2 in 5), modules
 * (about 3 in 10), target dates (about 1 in 3), a comment on 1 in 4 and a second history row on
 * each: every relation row copied from the reference work item's own (the API's columns, only the
 * ids and times changed). The relations are written with the triggers off and what the triggers
 * keep (tallies, `issue_created_at`, `updated_at`) then written in bulk and checked against a
 * recount (`relate`); `--triggered-seed` writes them with the triggers on (hours at 1M).
 * `--no-relations` stops a seed before the relations; `--db NAME --relations-only` adds them to
 * such a kept database (`seed-diff.ts` compares two copies of one, related each way). A benchmark,
 * not a test: nothing here fails on a slow machine.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { benchHeader, freePort, http, listeningOn, setUp, signIn } from './harness';
import { load, LoadRequest, LoadResult, once, pooled, walkLoad } from './load';
import { checkBulkMatchesApi, checkDerived, PLANNING_TALLIES, seedBulk, seedViaApi, Sql, VISIBLE } from './seed';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'server', 'main.js');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
function sarg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const ITEMS = arg('items', 1_000_000);
const PROJECTS = arg('projects', 10);
const MEMBERS = arg('members', 200);
const SECONDS = arg('seconds', 3);
const ROUNDS = arg('rounds', 2);
const CONNECTIONS = arg('connections', 8);
const REUSE = sarg('db');
const ONLY = sarg('only');
const TRIGGERED = process.argv.includes('--triggered-seed');
const NO_RELATIONS = process.argv.includes('--no-relations');

interface Running {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const port = String(await freePort());
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...base,
      NODE_ENV: 'production',
      SECRET_KEY: 'b'.repeat(64),
      HOST: '127.0.0.1',
      API_KEY_RATE_LIMIT: '100000000/minute',
      RATE_LIMIT_DISABLED: 'true',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url } = await listeningOn(child, 300_000);
  for (;;) {
    const res = await once(url, { method: 'GET', path: '/health', headers: {} }).catch(() => ({ status: 0 }));
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    child,
    base: url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const fmt = (x: number, d = 1) => x.toFixed(d);
const load1 = () => os.loadavg()[0].toFixed(1);

/** `n` calls of `fn(i)`, `concurrency` at a time. */
async function each(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/**
 * Inserts copies of one row of `table` (the first that `refWhere` finds, the API's): every column
 * as the API wrote it but `id` (the table's default) and the columns of `set` (SQL over the row `r`
 * and the aliases of `from`), one copy per row of `from`.
 */
async function copyRows(
  sql: Sql,
  table: string,
  refWhere: string,
  set: Record<string, string>,
  from: string,
  params: unknown[] = [],
): Promise<number> {
  const cols = (
    await sql(
      `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
       ORDER BY ordinal_position`,
      [table],
    )
  )
    .map((r) => r.c as string)
    .filter((c) => c !== 'id');
  for (const c of Object.keys(set)) assert.ok(cols.includes(c), `${table}.${c}`);
  const q = (c: string) => `"${c}"`;
  const rows = await sql(
    `WITH ins AS (INSERT INTO ${table} (${cols.map(q).join(', ')})
     SELECT ${cols.map((c) => set[c] ?? `r.${q(c)}`).join(', ')}
     FROM (SELECT * FROM ${table} WHERE ${refWhere} LIMIT 1) r, ${from} RETURNING 1) SELECT count(*)::int AS n FROM ins`,
    params,
  );
  return Number(rows[0].n);
}

async function main() {
  console.log(benchHeader('workspace.bench'));
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const name = REUSE ?? `meridian_workspace_${process.pid}`;
  if (!REUSE) await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const db = new Client({ connectionString: dbUrl });
  const servers: Running[] = [];
  try {
    const env = { DATABASE_URL: dbUrl, DATABASE_POOL_SIZE: String(CONNECTIONS) };
    const first = await start(env);
    servers.push(first);
    await db.connect();
    const sql: Sql = async (text, params) => (await db.query(text, params as unknown[])).rows;
    if (!REUSE) await seed(sql, first.base);
    else if (process.argv.includes('--relations-only')) {
      // a kept database whose bulk rows have no relations yet
      const [ws] = await sql(`SELECT id FROM workspaces WHERE slug = 'bench'`);
      const [ref] = await sql(`SELECT id FROM issues WHERE name = 'API item reference'`);
      const t0 = performance.now();
      await relate(sql, ws.id as string, ref.id as string);
      await sql('VACUUM ANALYZE');
      console.log(`relations in ${fmt((performance.now() - t0) / 1000)} s (load ${load1()})`);
    }
    const auth = await signIn(first.base);
    await first.stop();
    servers.pop();
    if (!process.argv.includes('--seed-only')) await measure(sql, dbUrl, env, auth, servers);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.end().catch(() => undefined);
    if (process.argv.includes('--keep-db') || REUSE) console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

async function seed(sql: Sql, base: string): Promise<void> {
  const t0 = performance.now();
  const t = await setUp(base);
  const v1 = { 'x-api-key': t.key };
  const api = async (method: 'POST' | 'PATCH', p: string, body: unknown, status = 201) => {
    const res = await http(base, method, `/api/v1/workspaces/${t.slug}${p}`, body, v1);
    assert.equal(res.status, status, `${p}: ${res.body}`);
    return res.json();
  };
  const projects = [t.projectId];
  for (let i = 1; i < PROJECTS; i++)
    projects.push((await api('POST', '/projects/', { name: `Project ${i}`, identifier: `PRJ${i}` })).id as string);
  // members: through the API into the first project (and so the workspace), copied into the others
  await each(MEMBERS - 1, 8, async (i) => {
    await api('POST', `/projects/${t.projectId}/members/`, {
      email: `member${i}@example.com`,
      display_name: `member${i}`,
      role: 15,
    });
  });
  for (const p of projects.slice(1))
    await copyRows(
      sql,
      'project_members',
      `project_id = $1 AND member_id <> $3`,
      { project_id: '$2::uuid', member_id: 'm.member_id', created_at: 'now()', updated_at: 'now()' },
      `(SELECT member_id FROM project_members WHERE project_id = $1 AND member_id <> $3) m`,
      [t.projectId, p, t.userId],
    );
  // labels, cycles, modules through the API
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  await each(PROJECTS, 4, async (n) => {
    const p = projects[n];
    for (let i = 0; i < 8; i++) await api('POST', `/projects/${p}/labels/`, { name: `Label ${i}` });
    for (let i = 0; i < 6; i++)
      await api('POST', `/projects/${p}/cycles/`, {
        name: `Cycle ${i}`,
        start_date: day(-70 + i * 14),
        end_date: day(-57 + i * 14),
      });
    for (let i = 0; i < 6; i++) await api('POST', `/projects/${p}/modules/`, { name: `Module ${i}` });
  });
  // work items through the API, then the reference one with its relations
  await seedViaApi({ ...t, base }, 200);
  const [members, labels] = await Promise.all([
    sql(`SELECT member_id AS id FROM project_members WHERE project_id = $1 ORDER BY member_id`, [t.projectId]),
    sql(`SELECT id FROM labels WHERE project_id = $1 ORDER BY name`, [t.projectId]),
  ]);
  const [cycle] = await sql(`SELECT id FROM cycles WHERE project_id = $1 ORDER BY start_date DESC LIMIT 1`, [
    t.projectId,
  ]);
  const [module] = await sql(`SELECT id FROM modules WHERE project_id = $1 ORDER BY name LIMIT 1`, [t.projectId]);
  const ref = await api('POST', `/projects/${t.projectId}/work-items/`, {
    name: 'API item reference',
    priority: 'high',
    assignees: [members[0].id, members[1].id],
    labels: [labels[0].id],
  });
  await api('POST', `/projects/${t.projectId}/cycles/${cycle.id}/cycle-issues/`, { issues: [ref.id] }, 200);
  await api('POST', `/projects/${t.projectId}/modules/${module.id}/module-issues/`, { issues: [ref.id] }, 200);
  await api('POST', `/projects/${t.projectId}/work-items/${ref.id}/comments/`, { comment_html: '<p>A comment</p>' });
  console.log(`set up through the API in ${fmt((performance.now() - t0) / 1000)} s (load ${load1()})`);

  const t1 = performance.now();
  for (const [i, p] of projects.entries()) {
    const n = Math.floor(ITEMS / PROJECTS) + (i < ITEMS % PROJECTS ? 1 : 0);
    await seedBulk(sql, { ...t, projectId: p, base }, n);
  }
  await checkBulkMatchesApi(sql, t.projectId);
  console.log(`${ITEMS} work items in bulk in ${fmt((performance.now() - t1) / 1000)} s (load ${load1()})`);
  if (NO_RELATIONS) return;
  const t2 = performance.now();
  await relate(sql, t.workspaceId, ref.id as string);
  await sql('VACUUM ANALYZE');
  const counts = await sql(
    `SELECT (SELECT count(*) FROM issues)::int AS issues, (SELECT count(*) FROM issue_assignees)::int AS assignees,
       (SELECT count(*) FROM issue_labels)::int AS labels, (SELECT count(*) FROM cycle_issues)::int AS cycle_issues,
       (SELECT count(*) FROM module_issues)::int AS module_issues, (SELECT count(*) FROM issue_comments)::int AS comments,
       (SELECT count(*) FROM issue_activities)::int AS activities, (SELECT count(*) FROM workspace_members)::int AS members`,
  );
  console.log(
    `relations in ${fmt((performance.now() - t2) / 1000)} s (load ${load1()}): ${JSON.stringify(counts[0])}; seeded in ${fmt((performance.now() - t0) / 1000)} s`,
  );
}

/**
 * The bulk work items' relations, in one statement per table over the whole workspace (each
 * project's own states, members, labels, cycles and modules): states round robin by sequence id (as
 * `spreadOverStates`), priorities and target dates (as a PATCH leaves them), then copies of the
 * reference work item `refId`'s assignee, label, cycle, module, comment and comment-history rows.
 *
 * The statements run without the database's triggers (`session_replication_role = replica`, this
 * connection only; foreign keys unchecked too: every row is made from existing rows), and what
 * the triggers keep is then written in bulk (docs/decisions.md "The workspace bench's seed writes
 * the triggers' results in bulk"): each link row's `issue_created_at` (its work item's
 * `created_at`), the work items' `updated_at` (moved to the seed's time when the seed gave them a
 * cycle, module, label or assignee, as `TouchIssuesOnLinks`), and the workspace's tally rows
 * (`project_issue_tallies`, `issue_set_tallies`, `issue_date_tallies`, `issue_activity_day_tallies`)
 * and `visible_count`s counted
 * afresh, as the migrations' backfills count them. `checkDerived` then compares every one with a
 * recount and throws on a difference. With `triggered` (`--triggered-seed`), the triggers keep
 * them row by row instead, as any writer's rows (hours at 1M; kept to compare the two paths'
 * databases with `seed-diff.ts`).
 */
async function relate(sql: Sql, workspaceId: string, refId: string, triggered = TRIGGERED): Promise<void> {
  const step = async (what: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    console.log(`  ${what}: ${fmt((performance.now() - t) / 1000)} s (load ${load1()})`);
  };
  if (triggered) {
    await updateIssues(sql, workspaceId, step, true);
    await copyRelations(sql, workspaceId, refId, step);
  } else {
    await sql(`SET session_replication_role = replica`);
    try {
      await copyRelations(sql, workspaceId, refId, step);
      await updateIssues(sql, workspaceId, step, false);
      await step('tallies and visible counts counted afresh', () => recount(sql, workspaceId));
    } finally {
      await sql(`RESET session_replication_role`);
    }
  }
  await step('derived values checked against a recount', () => checkDerived(sql, workspaceId, BULK_NAME));
}

/** The names of the bulk work items (`seedBulk`'s default), as a `LIKE` pattern. */
const BULK_NAME = 'Bulk item %';

/**
 * States round robin, priorities and target dates of the workspace's work items. `triggered`: in
 * slices of sequence ids, each its own transaction, the triggers keeping the tallies (every row's
 * triggers update the same few tally rows, and one transaction's versions of a row cannot be
 * pruned before it commits: one statement over the whole workspace follows ever longer version
 * chains, hours at 1M). Otherwise one statement, which also moves `updated_at` of the bulk work
 * items the seed linked to a cycle, module, label or assignee to the statement's time, as the link
 * tables' `TouchIssuesOnLinks` triggers would have when their rows were written.
 */
async function updateIssues(
  sql: Sql,
  workspaceId: string,
  step: (what: string, run: () => Promise<unknown>) => Promise<void>,
  triggered: boolean,
): Promise<void> {
  const st = `st AS (SELECT project_id, array_agg(id ORDER BY sequence, id) AS a, array_agg("group"::text ORDER BY sequence, id) AS g
                     FROM states WHERE workspace_id = $1 AND is_triage = false AND deleted_at IS NULL GROUP BY project_id)`;
  const set = `state_id = st.a[1 + i.sequence_id % cardinality(st.a)],
           completed_at = CASE WHEN st.g[1 + i.sequence_id % cardinality(st.a)] = 'completed' THEN i.created_at END,
           priority = CASE WHEN i.name LIKE '${BULK_NAME}' THEN (ARRAY['urgent','high','medium','low','none'])[1 + i.sequence_id % 5] ELSE i.priority END,
           target_date = CASE WHEN i.name LIKE '${BULK_NAME}' AND i.sequence_id % 3 = 0
             THEN (now() + ((i.sequence_id % 120) - 60) * interval '1 day')::date ELSE i.target_date END`;
  if (triggered) {
    const [{ top }] = await sql(
      `SELECT COALESCE(MAX(sequence_id), 0)::int AS top FROM issues WHERE workspace_id = $1`,
      [workspaceId],
    );
    await step('states, priorities, target dates', async () => {
      for (let lo = 0; lo <= Number(top); lo += 2_000) {
        await sql(
          `WITH ${st} UPDATE issues i SET ${set}
           FROM st WHERE i.project_id = st.project_id AND i.workspace_id = $1 AND i.sequence_id >= $2 AND i.sequence_id < $3`,
          [workspaceId, lo, lo + 2_000],
        );
      }
    });
    return;
  }
  await step('states, priorities, target dates, updated_at', () =>
    sql(
      `WITH ${st},
       linked AS (SELECT issue_id FROM issue_assignees UNION SELECT issue_id FROM issue_labels
                  UNION SELECT issue_id FROM cycle_issues UNION SELECT issue_id FROM module_issues)
       UPDATE issues i SET ${set},
         updated_at = CASE WHEN t.touch THEN now() ELSE i.updated_at END
       FROM st, (SELECT j.id, l.issue_id IS NOT NULL AND j.name LIKE '${BULK_NAME}' AND j.updated_at < now() AS touch
                 FROM issues j LEFT JOIN linked l ON l.issue_id = j.id WHERE j.workspace_id = $1) t
       WHERE t.id = i.id AND i.project_id = st.project_id AND i.workspace_id = $1`,
      [workspaceId],
    ),
  );
}

/**
 * The workspace's tally rows and `visible_count`s counted afresh from its work items and links:
 * each tally table's rows of the workspace's projects replaced by the migration's backfill
 * (`IssueTallies`, `IssueSetTallies`, `IssueDateTallies`, `ActivityDayTallies`; its cycles' and
 * modules' rows, `PlanningTallies`), in one transaction.
 */
async function recount(sql: Sql, workspaceId: string): Promise<void> {
  const projects = `(SELECT id FROM projects WHERE workspace_id = $1)`;
  await sql('BEGIN');
  try {
    await sql(`DELETE FROM project_issue_tallies WHERE project_id IN ${projects}`, [workspaceId]);
    await sql(
      `INSERT INTO project_issue_tallies (workspace_id, project_id, state_id, priority, created_by_id, n)
       SELECT i.workspace_id, i.project_id, i.state_id, i.priority, i.created_by_id, COUNT(*)::int FROM issues i
       WHERE i.project_id IN ${projects} AND ${VISIBLE}
       GROUP BY 1, 2, 3, 4, 5`,
      [workspaceId],
    );
    await sql(`DELETE FROM issue_set_tallies WHERE project_id IN ${projects}`, [workspaceId]);
    for (const [kind, table, column] of [
      ['a', 'issue_assignees', 'assignee_id'],
      ['l', 'issue_labels', 'label_id'],
    ])
      await sql(
        `INSERT INTO issue_set_tallies (kind, value_id, project_id, state_id, done, n)
         SELECT '${kind}', t.${column}, i.project_id, i.state_id, i.completed_at IS NOT NULL, COUNT(*)
         FROM issues i LEFT JOIN ${table} t ON t.issue_id = i.id
         WHERE i.project_id IN ${projects} AND ${VISIBLE}
         GROUP BY 2, 3, 4, 5`,
        [workspaceId],
      );
    await sql(`DELETE FROM issue_date_tallies WHERE project_id IN ${projects}`, [workspaceId]);
    await sql(
      `INSERT INTO issue_date_tallies (project_id, axis, year, month, n)
       SELECT i.project_id, m.axis, m.year, m.month, COUNT(*)::int
       FROM issues i CROSS JOIN LATERAL meridian_issue_months(i.created_at, i.completed_at, i.start_date, i.target_date) m
       WHERE i.project_id IN ${projects} AND ${VISIBLE}
       GROUP BY 1, 2, 3, 4`,
      [workspaceId],
    );
    const { owners, issues, assignees } = PLANNING_TALLIES;
    await sql(`DELETE FROM planning_issue_tallies WHERE owner_id IN ${owners}`, [workspaceId]);
    await sql(`INSERT INTO planning_issue_tallies (owner_id, kind, state_id, estimate_point_id, n) ${issues.fresh}`, [
      workspaceId,
    ]);
    await sql(`DELETE FROM cycle_assignee_tallies WHERE cycle_id IN ${owners}`, [workspaceId]);
    await sql(`INSERT INTO cycle_assignee_tallies (cycle_id, assignee_id, n) ${assignees.fresh}`, [workspaceId]);
    await sql(`DELETE FROM issue_activity_day_tallies WHERE workspace_id = $1`, [workspaceId]);
    await sql(
      `INSERT INTO issue_activity_day_tallies (workspace_id, actor_id, day, n)
       SELECT a.workspace_id, a.actor_id, (a.created_at AT TIME ZONE 'UTC')::date, COUNT(*)::int FROM issue_activities a
       WHERE a.workspace_id = $1 AND a.deleted_at IS NULL AND a.actor_id IS NOT NULL
       GROUP BY 1, 2, 3`,
      [workspaceId],
    );
    await sql(
      `UPDATE project_issue_counters c SET visible_count = v.n
       FROM (SELECT p.id, (SELECT COUNT(*)::int FROM issues i WHERE i.project_id = p.id AND ${VISIBLE}) AS n
             FROM projects p WHERE p.workspace_id = $1) v
       WHERE c.project_id = v.id AND c.visible_count <> v.n`,
      [workspaceId],
    );
    await sql('COMMIT');
  } catch (err) {
    await sql('ROLLBACK');
    throw err;
  }
}

/**
 * Copies of the reference work item `refId`'s assignee, label, cycle, module, comment and
 * comment-history rows onto the bulk work items, one statement per table.
 */
async function copyRelations(
  sql: Sql,
  workspaceId: string,
  refId: string,
  step: (what: string, run: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const bulk = `i.workspace_id = $1 AND i.name LIKE '${BULK_NAME}'`;
  // each project's arrays once (OFFSET 0 keeps the subquery from being pulled up into the join,
  // where each mention of an array was a subquery per copied row: hours at 1M)
  const arr = `(SELECT p.id AS project_id,
      (SELECT array_agg(member_id ORDER BY member_id) FROM project_members WHERE project_id = p.id) AS mem,
      (SELECT array_agg(id ORDER BY name) FROM labels WHERE project_id = p.id) AS lab,
      (SELECT array_agg(id ORDER BY name) FROM cycles WHERE project_id = p.id) AS cyc,
      (SELECT array_agg(id ORDER BY name) FROM modules WHERE project_id = p.id) AS mods
    FROM projects p WHERE p.workspace_id = $1 OFFSET 0) arr`;
  const x = `(SELECT i.id, i.project_id, i.sequence_id AS s, i.created_at FROM issues i WHERE ${bulk}) x JOIN ${arr} ON arr.project_id = x.project_id`;
  const ref = `issue_id = '${refId}'`;
  const copy = (table: string, where: string, set: Record<string, string>, from: string) =>
    step(table, () => copyRows(sql, table, where, set, from, [workspaceId]));
  // assignees: none for 1 in 10, a second one for 1 in 4
  await copy(
    'issue_assignees',
    ref,
    {
      issue_id: 'x.id',
      issue_created_at: 'x.created_at',
      assignee_id: 'arr.mem[1 + (x.s * 7 + k) % cardinality(arr.mem)]',
    },
    `${x}, generate_series(0, 1) k WHERE x.s % 10 <> 0 AND (k = 0 OR x.s % 4 = 0)`,
  );
  // labels: none for 1 in 5, a second one for 1 in 6
  await copy(
    'issue_labels',
    ref,
    {
      issue_id: 'x.id',
      issue_created_at: 'x.created_at',
      label_id: 'arr.lab[1 + (x.s * 3 + k) % cardinality(arr.lab)]',
    },
    `${x}, generate_series(0, 1) k WHERE x.s % 5 <> 0 AND (k = 0 OR x.s % 6 = 0)`,
  );
  await copy(
    'cycle_issues',
    ref,
    { issue_id: 'x.id', cycle_id: 'arr.cyc[1 + x.s % cardinality(arr.cyc)]', project_id: 'x.project_id' },
    `${x} WHERE x.s % 5 < 2`,
  );
  await copy(
    'module_issues',
    ref,
    { issue_id: 'x.id', module_id: 'arr.mods[1 + x.s % cardinality(arr.mods)]', project_id: 'x.project_id' },
    `${x} WHERE x.s % 10 < 3`,
  );
  const by = 'arr.mem[1 + x.s % cardinality(arr.mem)]';
  await copy(
    'issue_comments',
    ref,
    {
      issue_id: 'x.id',
      project_id: 'x.project_id',
      actor_id: by,
      created_by_id: by,
      updated_by_id: by,
      created_at: 'x.created_at',
      updated_at: 'x.created_at',
    },
    `${x} WHERE x.s % 4 = 0`,
  );
  // a second history row on each: the reference's comment entry, by a member, up to 170 days before
  const at = "x.created_at - (x.s % 170) * interval '1 day'";
  await copy(
    'issue_activities',
    `${ref} AND field = 'comment'`,
    {
      issue_id: 'x.id',
      project_id: 'x.project_id',
      actor_id: by,
      created_by_id: by,
      updated_by_id: by,
      issue_comment_id: 'NULL',
      created_at: at,
      updated_at: at,
      epoch: `EXTRACT(EPOCH FROM ${at})`,
    },
    x,
  );
}

async function measure(
  sql: Sql,
  dbUrl: string,
  env: Record<string, string>,
  auth: { token: string; key: string },
  servers: Running[],
): Promise<void> {
  const meridian = await start(env);
  servers.push(meridian);
  const [ws] = await sql(`SELECT id FROM workspaces WHERE slug = 'bench'`);
  const [me] = await sql(`SELECT id FROM users WHERE email = 'bench@example.com'`);
  const [project] = await sql(`SELECT id FROM projects WHERE identifier = 'BENCH'`);
  const ids = (await sql(`SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 1000`, [project.id])).map(
    (r) => r.id as string,
  );
  const [member] = await sql(
    `SELECT assignee_id AS id FROM issue_assignees GROUP BY assignee_id ORDER BY count(*) DESC LIMIT 1`,
  );
  const [label] = await sql(`SELECT id FROM labels WHERE project_id = $1 ORDER BY name LIMIT 1`, [project.id]);
  const [cycle] = await sql(
    `SELECT id FROM cycles WHERE project_id = $1 AND start_date <= now() AND end_date >= now() LIMIT 1`,
    [project.id],
  );
  const [module] = await sql(`SELECT id FROM modules WHERE project_id = $1 ORDER BY name LIMIT 1`, [project.id]);
  const [{ n: totalRaw }] = await sql(`SELECT count(*)::int AS n FROM issues WHERE workspace_id = $1`, [ws.id]);
  const total = Number(totalRaw);
  void dbUrl;

  const app = { authorization: `Bearer ${auth.token}` };
  const get = (p: string) => () => ({ method: 'GET' as const, path: p, headers: app });
  const W = `/api/workspaces/bench`;
  const P = `${W}/projects/${project.id}`;
  const list = (q: string) => get(`${W}/issues/?${q}`);
  /**
   * The web app scrolling `path`'s list (100 a page, the web app's next cursor): each connection
   * enters at page `from` (a jump: not measured) and walks to page `to`, one page after the other,
   * then enters again; the pages past `from` are measured.
   */
  const walk = (name: string, path: string, q: string, from: number, to: number) => ({
    name,
    next: () => get(`${path}?cursor=100:${from}:0&per_page=100&${q}`)(),
    walk: { page: (n: number) => get(`${path}?cursor=100:${n}:0&per_page=100&${q}`)(), from, to },
  });
  const deep = Math.floor(total / 200);
  // the spreadsheet of "All work items" (100 a page), the kanban's groups (30 a group) as the web app pages them
  const scenarios: Array<{
    name: string;
    next: (n: number) => LoadRequest;
    walk?: { page: (n: number) => LoadRequest; from: number; to: number };
  }> = [
    { name: 'list, first page (-created_at)', next: list('cursor=100:0:0&per_page=100&order_by=-created_at') },
    { name: 'list, page 100 (row 10,000)', next: list('cursor=100:100:0&per_page=100&order_by=-created_at') },
    {
      name: `list, page ${Math.floor(total / 200)} (row ${Math.floor(total / 2)})`,
      next: list(`cursor=100:${Math.floor(total / 200)}:0&per_page=100&order_by=-created_at`),
    },
    { name: 'list, order_by=priority', next: list('cursor=100:0:0&per_page=100&order_by=priority') },
    { name: 'list, order_by=sort_order', next: list('cursor=100:0:0&per_page=100&order_by=sort_order') },
    {
      name: 'list, state_group=started',
      next: list('cursor=100:0:0&per_page=100&order_by=-created_at&state_group=started'),
    },
    {
      name: 'list, assignees=<a member>',
      next: list(`cursor=100:0:0&per_page=100&order_by=-created_at&assignees=${member.id}`),
    },
    {
      name: 'list, labels=<a label>',
      next: list(`cursor=100:0:0&per_page=100&order_by=-created_at&labels=${label.id}`),
    },
    {
      name: 'list, assignees=<a member>, page 40 (row 4,000)',
      next: list(`cursor=100:40:0&per_page=100&order_by=-created_at&assignees=${member.id}`),
    },
    {
      name: 'list, labels=<a label>, page 80 (row 8,000)',
      next: list(`cursor=100:80:0&per_page=100&order_by=-created_at&labels=${label.id}`),
    },
    {
      name: 'list, assignees=<a member>, oldest first',
      next: list(`cursor=100:0:0&per_page=100&order_by=created_at&assignees=${member.id}`),
    },
    {
      name: 'list, priority=urgent,high',
      next: list('cursor=100:0:0&per_page=100&order_by=-created_at&priority=urgent,high'),
    },
    {
      name: 'list, the four filters',
      next: list(
        `cursor=100:0:0&per_page=100&order_by=-created_at&state_group=backlog,unstarted,started&priority=urgent,high&assignees=${member.id}&labels=${label.id}`,
      ),
    },
    { name: 'list, group_by=state_id', next: list('cursor=30:0:0&per_page=30&group_by=state_id&order_by=-created_at') },
    { name: 'list, group_by=priority', next: list('cursor=30:0:0&per_page=30&group_by=priority&order_by=-created_at') },
    {
      name: 'list, group_by=assignees__id',
      next: list('cursor=30:0:0&per_page=30&group_by=assignees__id&order_by=-created_at'),
    },
    {
      name: 'list, group_by=labels__id',
      next: list('cursor=30:0:0&per_page=30&group_by=labels__id&order_by=-created_at'),
    },
    {
      name: 'list, group_by=state_id, page 2',
      next: list('cursor=30:1:0&per_page=30&group_by=state_id&order_by=-created_at'),
    },
    // after the pages asked at once: a walk leaves the bookmarks of the pages it passed (their TTL)
    walk('list, walked pages 1-100', `${W}/issues/`, 'order_by=-created_at', 0, 100),
    walk('list, walked pages 91-100', `${W}/issues/`, 'order_by=-created_at', 90, 100),
    walk(`list, walked pages ${deep - 9}-${deep + 1}`, `${W}/issues/`, 'order_by=-created_at', deep - 10, deep + 1),
    walk('list, order_by=priority, walked pages 91-100', `${W}/issues/`, 'order_by=priority', 90, 100),
    walk('list, order_by=target_date, walked pages 91-100', `${W}/issues/`, 'order_by=target_date', 90, 100),
    walk(
      'list, assignees=<a member>, walked pages 31-40',
      `${W}/issues/`,
      `order_by=-created_at&assignees=${member.id}`,
      30,
      40,
    ),
    walk(
      'list, labels=<a label>, walked pages 71-80',
      `${W}/issues/`,
      `order_by=-created_at&labels=${label.id}`,
      70,
      80,
    ),
    walk('project list, walked pages 91-100', `${P}/issues/`, 'order_by=-created_at', 90, 100),
    { name: 'analytics/ priority × count', next: get(`${W}/analytics/?x_axis=priority&y_axis=issue_count`) },
    {
      name: 'analytics/ state__group × count by priority',
      next: get(`${W}/analytics/?x_axis=state__group&y_axis=issue_count&segment=priority`),
    },
    { name: 'analytics/ assignees__id × count', next: get(`${W}/analytics/?x_axis=assignees__id&y_axis=issue_count`) },
    { name: 'analytics/ labels__id × count', next: get(`${W}/analytics/?x_axis=labels__id&y_axis=issue_count`) },
    { name: 'analytics/ created_at × count', next: get(`${W}/analytics/?x_axis=created_at&y_axis=issue_count`) },
    {
      name: 'analytics/ completed_at × count',
      next: get(`${W}/analytics/?x_axis=completed_at&y_axis=issue_count`),
    },
    { name: 'analytics/ target_date × count', next: get(`${W}/analytics/?x_axis=target_date&y_axis=issue_count`) },
    {
      // a filter that keeps every work item: answered from the tallies once the sums show it
      name: 'analytics/ created_at × count, every priority',
      next: get(`${W}/analytics/?x_axis=created_at&y_axis=issue_count&priority=urgent,high,medium,low,none`),
    },
    {
      // a filter that leaves work items out: counted over the rows
      name: 'analytics/ created_at × count, priority=urgent,high (counted)',
      next: get(`${W}/analytics/?x_axis=created_at&y_axis=issue_count&priority=urgent,high`),
    },
    { name: 'default-analytics/', next: get(`${W}/default-analytics/`) },
    { name: 'project-stats/', next: get(`${W}/project-stats/`) },
    { name: 'cycles/ (with progress)', next: get(`${P}/cycles/`) },
    { name: 'cycles/{id}/progress/', next: get(`${P}/cycles/${cycle.id}/progress/`) },
    { name: 'cycles/{id}/analytics/', next: get(`${P}/cycles/${cycle.id}/analytics/?type=issues`) },
    { name: 'cycles/{id}/ (detail)', next: get(`${P}/cycles/${cycle.id}/`) },
    { name: 'modules/ (with progress)', next: get(`${P}/modules/`) },
    { name: 'modules/{id}/ (detail)', next: get(`${P}/modules/${module.id}/`) },
    { name: 'home activity-graph/', next: get(`/api/users/me/workspaces/bench/activity-graph/`) },
    {
      name: 'home issues-completed-graph/',
      next: get(`/api/users/me/workspaces/bench/issues-completed-graph/?month=1`),
    },
    { name: 'home dashboard/', next: get(`/api/users/me/workspaces/bench/dashboard/?month=1`) },
    { name: 'profile user-stats/', next: get(`${W}/user-stats/${member.id}/`) },
    { name: 'profile user-profile/', next: get(`${W}/user-profile/${member.id}/`) },
  ].filter((s) => !ONLY || ONLY.split('|').some((o) => s.name.includes(o)));
  for (const s of scenarios) {
    const res = await once(meridian.base, s.next(0));
    assert.equal(res.status, 200, `${s.name}: ${res.status} ${res.body.slice(0, 300)}`);
  }
  void me;
  // `--once`: each request once (with auto_explain on the database: the statements' plans)
  if (process.argv.includes('--once')) return;
  const getOne = (n: number): LoadRequest => ({
    method: 'GET',
    path: `/api/v1/workspaces/bench/projects/${project.id}/work-items/${ids[n % ids.length]}/`,
    headers: { 'x-api-key': auth.key },
  });
  const run = async (next: (n: number) => LoadRequest, walk?: (typeof scenarios)[number]['walk']) => {
    const once = (seconds: number) =>
      walk
        ? walkLoad(meridian.base, walk.page, CONNECTIONS, seconds, walk, 200)
        : load(meridian.base, next, CONNECTIONS, seconds, 200);
    await once(1);
    const rounds: LoadResult[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await once(SECONDS));
    return pooled(rounds);
  };
  const rows: Array<[string, LoadResult, string]> = [];
  const one = await run(getOne);
  rows.push(['GET one work item (v1)', one, load1()]);
  console.log(`  GET one: p50 ${fmt(one.p50, 2)} ms (load ${load1()})`);
  for (const s of scenarios) {
    const r = await run(s.next, s.walk);
    rows.push([s.name, r, load1()]);
    console.log(`  ${s.name}: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms (load ${load1()})`);
  }
  const again = await run(getOne);
  rows.push(['GET one work item (v1), again', again, load1()]);
  console.log(
    `\nPostgreSQL, ${total} work items in ${PROJECTS} projects, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per scenario; load average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log('| scenario | req/s | p50 ms | p99 ms | p50 / GET one | load (1 min) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [n, r, l] of rows)
    console.log(
      `| ${n} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.p50 / one.p50, 2)} | ${l} |`,
    );
  const errors = rows.reduce((s, [, r]) => s + r.errors, 0);
  if (errors) console.log(`errors: ${errors} (${rows.find(([, r]) => r.firstError)?.[1].firstError})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
