import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, rerunMigration, signUp, v1WorkItems } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The tallies of the history rows per actor and UTC day (`issue_activity_day_tallies`, migration
 * `ActivityDayTallies`; docs/decisions.md "Tallies of the history rows per actor and day", issue
 * #40). After each kind of change (work items created, changed, commented and deleted through the
 * API; history rows inserted, moved, given another actor, soft-deleted and deleted by SQL, several
 * in one statement): the table equals a fresh count of the live history rows, and the home's
 * `activity-graph/` and the dashboard's `issue_activities`, read from it, equal the count of the
 * caller's rows of the last six and three months. Runs on both engines.
 */
describe('tallies of the history rows per actor and day: kept exact, the home graphs unchanged', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let p: { id: string };
  let items: ReturnType<typeof v1WorkItems>;
  let key: string;
  const bearer = (req: import('supertest').Test) => req.auth(owner.token, { type: 'bearer' });

  /** The workspace's tallies (rows of 0 left out) and the same figures counted afresh. */
  const TALLIES = `SELECT actor_id::text AS actor, day::text AS day, n FROM issue_activity_day_tallies
    WHERE workspace_id = $1 AND n <> 0 ORDER BY 1, 2`;
  const FRESH = `SELECT actor_id::text AS actor, ((created_at AT TIME ZONE 'UTC')::date)::text AS day, COUNT(*)::int AS n
    FROM issue_activities WHERE workspace_id = $1 AND deleted_at IS NULL AND actor_id IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2`;

  /** The owner's fresh counts per day from the first day of `months` months ago (UTC), as the graphs answer them. */
  const expected = async (months: number) => {
    const since = new Date();
    since.setUTCMonth(since.getUTCMonth() - months);
    const rows = await t.sql<{ actor: string; day: string; n: number }>(FRESH, [ws.id]);
    return rows
      .filter((r) => r.actor === owner.userId && r.day >= since.toISOString().slice(0, 10))
      .map((r) => ({ created_date: r.day, activity_count: r.n }));
  };

  const check = async (what: string) => {
    assert.deepEqual(await t.sql(TALLIES, [ws.id]), await t.sql(FRESH, [ws.id]), `${what}: the tallies`);
    const graph = await bearer(t.api.get(`/api/users/me/workspaces/${ws.slug}/activity-graph/`));
    assert.equal(graph.status, 200, JSON.stringify(graph.body));
    assert.deepEqual(graph.body, await expected(6), `${what}: activity-graph/`);
    const dash = await bearer(t.api.get(`/api/users/me/workspaces/${ws.slug}/dashboard/?month=1`));
    assert.equal(dash.status, 200, JSON.stringify(dash.body));
    assert.deepEqual(dash.body.issue_activities, await expected(3), `${what}: dashboard/ issue_activities`);
  };

  /** Copies of one of the owner's history rows, one per `[actor, created_at]`, in one statement. */
  const insertRows = async (issueId: string, rows: Array<[string | null, string]>) => {
    await t.sql(
      `INSERT INTO issue_activities (created_at, updated_at, workspace_id, project_id, issue_id, verb, field, comment, actor_id, epoch)
       SELECT v.at::timestamptz, v.at::timestamptz, $1, $2, $3, 'updated', 'name', 'changed the name', v.actor::uuid,
         EXTRACT(EPOCH FROM v.at::timestamptz)
       FROM unnest($4::text[], $5::text[]) AS v(actor, at)`,
      [ws.id, p.id, issueId, rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
  };
  const daysAgo = (n: number, time = '12:00:00') =>
    `${new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)}T${time}Z`;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    other = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    items = v1WorkItems(t, ws.slug, key);
    p = await createProject(t, key, ws.slug, { identifier: 'ACTD', name: 'Activity days' });
  });
  after(() => t.close());

  it('creates, changes and comments through the API, one by one and in parallel', async () => {
    const id = await items.create(p.id, { name: 'First' });
    await check('a create');
    await items.patch(p.id, id, { name: 'Renamed', priority: 'high' });
    await check('a change');
    const comment = await bearer(t.api.post(`/api/workspaces/${ws.slug}/projects/${p.id}/issues/${id}/comments/`)).send(
      { comment_html: '<p>Hello</p>' },
    );
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    await check('a comment');
    await Promise.all(Array.from({ length: 8 }, (_, n) => items.create(p.id, { name: `Parallel ${n}` })));
    await check('parallel creates');
  });

  it('rows by SQL: several actors and days in one statement, moved across a UTC midnight, another actor, soft and hard deletes', async () => {
    const id = await items.create(p.id, { name: 'Target' });
    await insertRows(id, [
      [owner.userId, daysAgo(2)],
      [owner.userId, daysAgo(2, '23:59:59')],
      [other.userId, daysAgo(2)],
      [owner.userId, daysAgo(40)],
      [owner.userId, daysAgo(150)],
      [owner.userId, daysAgo(400)],
      [null, daysAgo(1)],
    ]);
    await check('a bulk insert');
    await t.sql(
      `UPDATE issue_activities SET created_at = created_at + interval '2 seconds' WHERE issue_id = $1 AND created_at::time = '23:59:59'`,
      [id],
    );
    await check('moved past a UTC midnight');
    await t.sql(
      `UPDATE issue_activities SET created_at = created_at - interval '1 hour' WHERE issue_id = $1 AND field = 'name'`,
      [id],
    );
    await check('several rows moved in one statement');
    await t.sql(`UPDATE issue_activities SET actor_id = $2 WHERE issue_id = $1 AND actor_id IS NULL`, [
      id,
      owner.userId,
    ]);
    await check('an actor given');
    await t.sql(
      `UPDATE issue_activities SET actor_id = $2 WHERE id = (SELECT id FROM issue_activities WHERE issue_id = $1 AND field = 'name' AND actor_id = $3 ORDER BY created_at DESC LIMIT 1)`,
      [id, other.userId, owner.userId],
    );
    await check('another actor');
    await t.sql(`UPDATE issue_activities SET deleted_at = now() WHERE issue_id = $1 AND field = 'name'`, [id]);
    await check('soft-deleted');
    await t.sql(`UPDATE issue_activities SET deleted_at = NULL WHERE issue_id = $1`, [id]);
    await check('restored');
    await t.sql(`UPDATE issue_activities SET updated_at = now(), comment = 'edited' WHERE issue_id = $1`, [id]);
    await check('a change of other columns');
    await t.sql(
      `DELETE FROM issue_activities WHERE id IN (SELECT id FROM issue_activities WHERE issue_id = $1 ORDER BY created_at LIMIT 3)`,
      [id],
    );
    await check('rows deleted in one statement');
    await t.sql('DELETE FROM issues WHERE id = $1', [id]);
    await check('the work item removed for good (its history with it)');
    const gone = await items.create(p.id, { name: 'Deleted' });
    const deleted = await t.api
      .delete(`/api/v1/workspaces/${ws.slug}/projects/${p.id}/work-items/${gone}/`)
      .set('X-API-Key', key);
    assert.equal(deleted.status, 204);
    await check('a delete through the API');
  });

  it('the answers come from the tallies (a changed tally shows), and the migration rebuilds them', async () => {
    const graph = async () =>
      (await bearer(t.api.get(`/api/users/me/workspaces/${ws.slug}/activity-graph/`))).body as Array<{
        created_date: string;
        activity_count: number;
      }>;
    const today = new Date().toISOString().slice(0, 10);
    const n0 = (await graph()).find((r) => r.created_date === today)!.activity_count;
    const bump = `UPDATE issue_activity_day_tallies SET n = n + $4 WHERE workspace_id = $1 AND actor_id = $2 AND day = $3::date`;
    await t.sql(bump, [ws.id, owner.userId, today, 1000]);
    try {
      assert.equal((await graph()).find((r) => r.created_date === today)!.activity_count, n0 + 1000);
    } finally {
      await t.sql(bump, [ws.id, owner.userId, today, -1000]);
    }
    await check('restored');
    // down and up again in a transaction that is rolled back (the lane's database is shared): the
    // backfill gives the figures the triggers kept
    const kept = await t.sql(TALLIES, [ws.id]);
    await rerunMigration(t, 'ActivityDayTallies1795987000000', {
      afterDown: async (query) => {
        const gone = await query(`SELECT to_regclass('public.issue_activity_day_tallies') IS NULL AS gone`);
        assert.deepEqual(gone, [{ gone: true }], 'down dropped the table');
      },
      afterUp: async (query) => {
        assert.deepEqual(await query(TALLIES, [ws.id]), kept);
      },
    });
  });
});
