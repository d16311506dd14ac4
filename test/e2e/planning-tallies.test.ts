import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  createAppProject,
  createWorkspace,
  rerunMigration,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, unknown>;

/** The UTC day `offset` days from today. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The tallies of the test's cycles and modules (rows of 0 left out), and the same counted afresh from the links. */
const KEPT = `SELECT owner_id::text, kind::text, state_id::text, estimate_point_id::text, n FROM planning_issue_tallies
  WHERE owner_id = ANY($1::uuid[]) AND n <> 0 ORDER BY 1, 2, 3, 4`;
const FRESH = `SELECT l.owner_id::text, l.kind, i.state_id::text, i.estimate_point_id::text, COUNT(*)::int AS n
  FROM (SELECT cycle_id AS owner_id, 'c' AS kind, issue_id FROM cycle_issues WHERE deleted_at IS NULL
        UNION ALL SELECT module_id, 'm', issue_id FROM module_issues WHERE deleted_at IS NULL) l
  JOIN issues i ON i.id = l.issue_id
  WHERE l.owner_id = ANY($1::uuid[]) AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const KEPT_ASSIGNEES = `SELECT cycle_id::text, assignee_id::text, n FROM cycle_assignee_tallies
  WHERE cycle_id = ANY($1::uuid[]) AND n <> 0 ORDER BY 1, 2`;
const FRESH_ASSIGNEES = `SELECT l.cycle_id::text, ia.assignee_id::text, COUNT(*)::int AS n
  FROM cycle_issues l JOIN issues i ON i.id = l.issue_id JOIN issue_assignees ia ON ia.issue_id = i.id
  WHERE l.cycle_id = ANY($1::uuid[]) AND l.deleted_at IS NULL AND i.deleted_at IS NULL AND i.is_draft = false
  GROUP BY 1, 2 ORDER BY 1, 2`;

/**
 * A cycle's or module's progress counted from its work items, as before the tallies: work items
 * (not deleted, archived or drafts) per state group and their numeric estimate point sums; a
 * cycle's assignees of its work items that are not deleted or drafts.
 */
const COUNTED = (
  table: string,
  column: string,
) => `SELECT COALESCE(s."group"::text, 'backlog') AS grp, COUNT(DISTINCT i.id)::int AS n,
    COALESCE(SUM(CASE WHEN ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ep.value::numeric ELSE 0 END)
      FILTER (WHERE ep.id IS NOT NULL), 0)::float8 AS points
  FROM ${table} l
  JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
  LEFT JOIN estimate_points ep ON ep.id = i.estimate_point_id AND ep.deleted_at IS NULL
  LEFT JOIN states s ON s.id = i.state_id
  WHERE l.deleted_at IS NULL AND l.${column} = $1 GROUP BY 1`;
const COUNTED_ASSIGNEES = `SELECT DISTINCT ia.assignee_id::text AS id FROM cycle_issues l
  JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.is_draft = false
  JOIN issue_assignees ia ON ia.issue_id = i.id
  WHERE l.deleted_at IS NULL AND l.cycle_id = $1 ORDER BY 1`;
const GROUPS = ['completed', 'cancelled', 'started', 'unstarted', 'backlog'] as const;

/**
 * The tallies of each cycle's and module's work items (`planning_issue_tallies`,
 * `cycle_assignee_tallies`, migration `PlanningTallies`; issue #40): after every kind of change
 * (adds, moves, removals, transfers; state, estimate point, assignee changes; archive, restore,
 * delete, drafts; a point's value changed; a cycle deleted) the tables equal a fresh count, and the
 * App lists, details and `progress/` answer the figures counted from the work items as before the
 * tallies. The migration's backfill gives the same rows. Runs on both engines.
 */
describe('cycle and module tallies: kept exact, answers unchanged', () => {
  let t: TestApp;
  let ada: SignedUp;
  let max: SignedUp;
  let ws: { id: string; slug: string };
  let base: string;
  let estimateId: string;
  const point: Record<string, string> = {};
  const state: Record<string, string> = {};
  const cycles: string[] = [];
  const modules: string[] = [];
  const items: string[] = [];
  const auth = () => ({ Authorization: `Bearer ${ada.token}` });
  const ok = <R extends { status: number; body: unknown }>(res: R, status: number | number[] = [200, 201, 204]): R => {
    assert.ok(([] as number[]).concat(status).includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const post = async (path: string, body: unknown) =>
    ok(
      await t.api
        .post(`${base}/${path}`)
        .set(auth())
        .send(body as object),
    );
  const patch = async (id: string, body: Row) => ok(await t.api.patch(`${base}/issues/${id}/`).set(auth()).send(body));
  const item = async (body: Row) => (await post('issues/', { name: 'Item', ...body })).body.id as string;

  /** The tallies equal a fresh count; every list, detail and progress answer equals the counted figures. */
  const check = async (what: string) => {
    const owners = [...cycles, ...modules];
    assert.deepEqual(await t.sql(KEPT, [owners]), await t.sql(FRESH, [owners]), `${what}: planning_issue_tallies`);
    assert.deepEqual(
      await t.sql(KEPT_ASSIGNEES, [cycles]),
      await t.sql(FRESH_ASSIGNEES, [cycles]),
      `${what}: cycle_assignee_tallies`,
    );
    const expected = async (table: string, column: string, id: string) => {
      const rows = await t.sql<{ grp: string; n: number; points: number }>(COUNTED(table, column), [id]);
      const out: Row = { total_issues: 0, total_estimate_points: 0 };
      for (const g of GROUPS) {
        const r = rows.find((x) => x.grp === g);
        out[`${g}_issues`] = r?.n ?? 0;
        out[`${g}_estimate_points`] = r ? Number(r.points) : 0;
        out.total_issues = (out.total_issues as number) + (r?.n ?? 0);
        out.total_estimate_points = (out.total_estimate_points as number) + (r ? Number(r.points) : 0);
      }
      return out;
    };
    const pick = (row: Row, keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k]]));
    const list = ok(await t.api.get(`${base}/cycles/`).set(auth()), 200).body as Row[];
    const live = (
      await t.sql<{ id: string }>(`SELECT id FROM cycles WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [cycles])
    ).map((r) => r.id);
    for (const id of live) {
      const want = await expected('cycle_issues', 'cycle_id', id);
      const assignees = (await t.sql<{ id: string }>(COUNTED_ASSIGNEES, [id])).map((r) => r.id);
      const detail = ok(await t.api.get(`${base}/cycles/${id}/`).set(auth()), 200).body as Row;
      const progress = ok(await t.api.get(`${base}/cycles/${id}/progress/`).set(auth()), 200).body as Row;
      for (const [where, row] of [
        ['list', list.find((c) => c.id === id) ?? {}],
        ['detail', detail],
      ] as const) {
        assert.deepEqual(pick(row, Object.keys(want)), want, `${what}: cycle ${where}`);
        assert.deepEqual(row.assignee_ids, assignees, `${what}: cycle ${where} assignee_ids`);
      }
      assert.deepEqual(progress, pick(progress, Object.keys(want)), `${what}: progress keys`);
      assert.deepEqual(pick(progress, Object.keys(want)), want, `${what}: progress`);
    }
    const mods = ok(await t.api.get(`${base}/modules/`).set(auth()), 200).body as Row[];
    for (const id of modules) {
      const want = await expected('module_issues', 'module_id', id);
      const detail = ok(await t.api.get(`${base}/modules/${id}/`).set(auth()), 200).body as Row;
      const listed = ['total_estimate_points', 'completed_estimate_points', ...GROUPS.map((g) => `${g}_issues`)];
      assert.deepEqual(pick(mods.find((m) => m.id === id) ?? {}, listed), pick(want, listed), `${what}: module list`);
      assert.deepEqual(pick(detail, Object.keys(want)), want, `${what}: module detail`);
    }
  };

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    max = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, max.userId, 15);
    const project = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, max.userId, 15);
    base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const est = await post('estimates/', { name: 'Points', type: 'points' });
    estimateId = est.body.id;
    const pts = await post(`estimates/${estimateId}/estimate-points/`, [
      { value: '2' },
      { value: '3.5' },
      { value: '5' },
    ]);
    for (const p of pts.body as Array<{ id: string; value: string }>) point[p.value] = p.id;
    ok(await t.api.patch(`${base}/`).set(auth()).send({ estimate: estimateId }), 200);
    const states = ok(await t.api.get(`${base}/states/`).set(auth()), 200).body as Array<{ id: string; group: string }>;
    for (const s of states) state[s.group] ??= s.id;
    for (const [name, start, end] of [
      ['Now', day(-3), day(4)],
      ['Next', day(5), day(9)],
      ['Past', day(-20), day(-10)],
    ])
      cycles.push((await post('cycles/', { name, start_date: start, end_date: end, timezone: 'UTC' })).body.id);
    for (const name of ['Auth', 'Billing']) modules.push((await post('modules/', { name })).body.id);
  });
  after(() => t.close());

  it('adds (one and many), with and without points, assignees and states', async () => {
    items.push(await item({ estimate_point: point['2'], assignee_ids: [ada.userId], state_id: state.started }));
    items.push(await item({ estimate_point: point['3.5'], assignee_ids: [ada.userId, max.userId] }));
    items.push(await item({ state_id: state.completed, assignee_ids: [max.userId] }));
    items.push(await item({ estimate_point: point['5'], state_id: state.cancelled }));
    items.push(await item({ estimate_point: point['5'], state_id: state.unstarted }));
    await check('nothing linked');
    await post(`cycles/${cycles[0]}/cycle-issues/`, { issues: items.slice(0, 4) });
    await post(`cycles/${cycles[1]}/cycle-issues/`, { issues: [items[4]] });
    await post(`modules/${modules[0]}/issues/`, { issues: items });
    await post(`modules/${modules[1]}/issues/`, { issues: items.slice(1, 3) });
    await check('added');
    items.push(await item({ estimate_point: point['2'] }));
    await post(`cycles/${cycles[1]}/cycle-issues/`, { issues: [items[5]] });
    await post(`issues/${items[5]}/modules/`, { modules: [modules[1]], removed_modules: [] });
    await check('one more, in a cycle and a module');
  });

  it('state, estimate point and assignee changes; a point value changed', async () => {
    await patch(items[0], { state_id: state.completed });
    await patch(items[1], { estimate_point: point['5'] });
    await patch(items[2], { estimate_point: point['2'], state_id: state.backlog });
    await patch(items[3], { estimate_point: null });
    await check('state and point changes');
    await patch(items[0], { assignee_ids: [max.userId] });
    await patch(items[1], { assignee_ids: [] });
    await patch(items[3], { assignee_ids: [ada.userId, max.userId] });
    await check('assignee changes');
    await Promise.all(
      items.map((id, n) =>
        patch(id, { state_id: n % 2 ? state.started : state.unstarted, assignee_ids: [ada.userId] }),
      ),
    );
    await check('parallel changes');
    ok(
      await t.api
        .patch(`${base}/estimates/${estimateId}/estimate-points/${point['5']}/`)
        .set(auth())
        .send({ value: '8' }),
      [200, 201],
    );
    await check('a point value changed');
  });

  it('archive and restore, drafts, delete and restore, hard delete', async () => {
    await patch(items[0], { state_id: state.completed });
    ok(await t.api.post(`${base}/issues/${items[0]}/archive/`).set(auth()), 200);
    await check('archived');
    ok(await t.api.delete(`${base}/issues/${items[0]}/archive/`).set(auth()), 204);
    await check('restored from the archive');
    await t.sql(`UPDATE issues SET is_draft = true WHERE id = $1`, [items[1]]);
    await check('made a draft');
    await t.sql(`UPDATE issues SET is_draft = false WHERE id = $1`, [items[1]]);
    await check('published');
    ok(await t.api.delete(`${base}/issues/${items[2]}/`).set(auth()), 204);
    await check('deleted');
    await t.sql(`UPDATE issues SET deleted_at = NULL WHERE id = $1`, [items[2]]);
    await check('undeleted');
    const gone = await item({ estimate_point: point['2'], assignee_ids: [max.userId] });
    await post(`cycles/${cycles[0]}/cycle-issues/`, { issues: [gone] });
    await post(`modules/${modules[0]}/issues/`, { issues: [gone] });
    await check('one more');
    await t.sql(`DELETE FROM issues WHERE id = $1`, [gone]);
    await check('hard deleted');
  });

  it('moves between cycles, removals, module changes, a transfer, a deleted cycle', async () => {
    await post(`cycles/${cycles[1]}/cycle-issues/`, { issues: [items[0], items[1]] });
    await check('moved to another cycle');
    ok(await t.api.delete(`${base}/cycles/${cycles[1]}/cycle-issues/${items[0]}/`).set(auth()), 204);
    ok(await t.api.delete(`${base}/modules/${modules[0]}/issues/${items[1]}/`).set(auth()), 204);
    await check('removed');
    await post(`issues/${items[3]}/modules/`, { modules: [modules[1]], removed_modules: [modules[0]] });
    await check('modules set');
    await t.sql(`UPDATE cycle_issues SET cycle_id = $1 WHERE cycle_id = $2`, [cycles[2], cycles[0]]);
    await check('moved in bulk into the past cycle');
    await post(`cycles/${cycles[2]}/transfer-issues/`, { new_cycle_id: cycles[1] });
    await check('transferred');
    ok(await t.api.delete(`${base}/cycles/${cycles[1]}/`).set(auth()), 204);
    await check('cycle deleted');
    await t.sql(`DELETE FROM modules WHERE id = $1`, [modules[1]]);
    modules.pop();
    await check('module hard deleted (cascade)');
  });

  it("the migration's backfill gives the rows the triggers keep", async () => {
    await post(`cycles/${cycles[0]}/cycle-issues/`, { issues: items.slice(0, 4) });
    await check('added again');
    const owners = [...cycles, ...modules];
    const kept = await t.sql(KEPT, [owners]);
    const keptAssignees = await t.sql(KEPT_ASSIGNEES, [cycles]);
    assert.ok(kept.length > 3 && keptAssignees.length > 0);
    await rerunMigration(t, 'PlanningTallies1795986000000', {
      afterDown: async (query) => {
        const [row] = (await query(`SELECT to_regclass('planning_issue_tallies') AS t`)) as Array<{ t: unknown }>;
        assert.equal(row.t, null);
      },
      afterUp: async (query) => {
        assert.deepEqual(await query(KEPT, [owners]), kept);
        assert.deepEqual(await query(KEPT_ASSIGNEES, [cycles]), keptAssignees);
      },
    });
  });
});
