import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, rerunMigration, signUp, v1WorkItems } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The tallies of visible work items per project and month of their dates (`issue_date_tallies`,
 * migration `IssueDateTallies`; docs/decisions.md "Tallies of the visible work items per month of
 * their dates", issue #40). After each kind of change: the table equals a fresh count of the
 * visible work items; and the `analytics/` charts by `created_at`, `completed_at`, `start_date` and
 * `target_date` counted, read from it, are byte for byte the answer of the same request with a
 * filter that keeps every work item and that the tallies cannot read (created after 2000): the
 * counting path; so is the answer with a filter that the tallies can read and that keeps every work
 * item (every priority: read from the tallies, `keptWhole`), and a filter that leaves some out
 * (counted) equals the same filter counted. Runs on both engines.
 */
describe('tallies per month of the dates: kept exact, answers unchanged', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let a: { id: string };
  let b: { id: string };
  let completedA: string;
  let startedA: string;
  const AXES = ['created_at', 'completed_at', 'start_date', 'target_date'];
  const KEEPS_ALL = 'created_at=2000-01-01;after';
  const EVERY_PRIORITY = 'priority=urgent,high,medium,low,none';
  const v1 = (pid: string, path = '') => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const app = (pid: string, path = '') => `/api/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const bearer = (req: import('supertest').Test) => req.auth(owner.token, { type: 'bearer' });
  let items: ReturnType<typeof v1WorkItems>;
  const create = (pid: string, body: Record<string, unknown> = {}) => items.create(pid, body);
  const patch = (pid: string, id: string, body: Record<string, unknown>) => items.patch(pid, id, body);
  const submit = (name: string) => items.submit(a.id, name);
  const triage = (issueId: string, body: Record<string, unknown>) => items.triage(a.id, issueId, body);

  /** The tallies of the test's projects (rows of 0 left out), and the same figures counted afresh. */
  const TALLIES = `SELECT project_id::text AS project_id, axis::text AS axis, year, month, n FROM issue_date_tallies
    WHERE project_id = ANY($1::uuid[]) AND n <> 0 ORDER BY 1, 2, 3, 4`;
  const FRESH = `SELECT project_id, axis, year, month, n FROM (
      SELECT i.project_id::text AS project_id, v.axis, EXTRACT(YEAR FROM v.d)::int AS year,
        EXTRACT(MONTH FROM v.d)::int AS month, COUNT(*)::int AS n
      FROM issues i CROSS JOIN LATERAL (VALUES ('c', i.created_at AT TIME ZONE 'UTC'),
        ('d', i.completed_at AT TIME ZONE 'UTC'), ('s', i.start_date::timestamp), ('t', i.target_date::timestamp)) v(axis, d)
      WHERE i.project_id = ANY($1::uuid[]) AND v.d IS NOT NULL
      AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
      AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
      GROUP BY 1, 2, 3, 4) x
    ORDER BY 1, 2, 3, 4`;

  /**
   * The same chart without a filter, with one that keeps every work item that the tallies cannot
   * read (counted), and with every priority (a filter the tallies read, keeping every work item):
   * equal bodies; answers it.
   */
  const same = async (path: string, what: string) => {
    const [plain, counted, every] = await Promise.all([
      bearer(t.api.get(path)),
      bearer(t.api.get(`${path}&${KEEPS_ALL}`)),
      bearer(t.api.get(`${path}&${EVERY_PRIORITY}`)),
    ]);
    for (const res of [plain, counted, every]) assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(plain.text, counted.text, `${what}: ${path}`);
    assert.equal(every.text, counted.text, `${what}: ${path}, every priority`);
    return plain.body as { distribution: Record<string, Array<{ count: number }>> };
  };

  /** A chart with a filter that leaves some work items out (no priority `none`) equals it counted. */
  const narrowed = async (path: string, what: string) => {
    const some = `${path}&priority=urgent,high,medium,low`;
    const [tallyable, counted] = await Promise.all([
      bearer(t.api.get(some)),
      bearer(t.api.get(`${some}&${KEEPS_ALL}`)),
    ]);
    assert.equal(tallyable.status, 200, `${what}: ${JSON.stringify(tallyable.body)}`);
    assert.equal(tallyable.text, counted.text, `${what}: ${some}`);
  };

  /** The tallies equal a fresh count, and every date chart read from them equals the counted one. */
  const check = async (what: string) => {
    const projects = [a.id, b.id];
    assert.deepEqual(await t.sql(TALLIES, [projects]), await t.sql(FRESH, [projects]), `${what}: the tallies`);
    for (const x of AXES) {
      const chart = await same(`/api/workspaces/${ws.slug}/analytics/?x_axis=${x}&y_axis=issue_count`, `${what}, ${x}`);
      if (x === 'created_at') assert.ok(Object.keys(chart.distribution).length > 0, `${what}: months of ${x}`);
      await narrowed(`/api/workspaces/${ws.slug}/analytics/?x_axis=${x}&y_axis=issue_count`, `${what}, ${x}`);
    }
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    items = v1WorkItems(t, ws.slug, key);
    a = await createProject(t, key, ws.slug, { identifier: 'DATA', name: 'Dates A' });
    b = await createProject(t, key, ws.slug, { identifier: 'DATB', name: 'Dates B' });
    assert.equal((await t.api.patch(v1(a.id)).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    const states = await t.sql<{ id: string; group: string }>(
      `SELECT id, "group"::text AS "group" FROM states WHERE project_id = $1 ORDER BY sequence`,
      [a.id],
    );
    completedA = states.find((s) => s.group === 'completed')!.id;
    startedA = states.find((s) => s.group === 'started')!.id;
  });
  after(() => t.close());

  it('creates with and without dates, one by one and at once; drafts; months that sort as text', async () => {
    await create(a.id, { start_date: '2026-01-15', target_date: '2026-10-01' });
    await create(a.id);
    await create(a.id, { state: completedA, target_date: '2026-02-28' });
    await create(a.id, { name: 'Draft', is_draft: true, start_date: '2026-03-01', target_date: '2026-03-02' });
    await create(b.id, { start_date: '2025-12-31', target_date: '2027-01-01' });
    await check('creates');
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        create(n % 3 ? a.id : b.id, {
          name: `Parallel ${n}`,
          ...(n % 2 ? { start_date: `2025-${String((n % 12) + 1).padStart(2, '0')}-0${(n % 9) + 1}` } : {}),
          ...(n % 4 ? { target_date: `202${n % 3 ? 6 : 7}-${String(((n * 5) % 12) + 1).padStart(2, '0')}-15` } : {}),
          ...(n % 5 === 0 && n % 3 ? { state: completedA } : {}),
        }),
      ),
    );
    await check('parallel creates');
  });

  it('dates changed, cleared and set; completion and reopening; creation times across a UTC month end', async () => {
    const id = await create(a.id, { start_date: '2026-04-10', target_date: '2026-04-20' });
    await patch(a.id, id, { target_date: '2026-11-20' });
    await check('due date moved to another month');
    await patch(a.id, id, { start_date: '2026-04-30', target_date: '2026-11-01' });
    await check('dates moved within their months');
    await patch(a.id, id, { start_date: null, target_date: null });
    await check('dates cleared');
    await patch(a.id, id, { start_date: '2024-02-29', target_date: '2024-12-31' });
    await check('dates set');
    await patch(a.id, id, { state: completedA });
    await check('completed');
    await t.sql(`UPDATE issues SET completed_at = '2025-06-30T23:30:00-02:00' WHERE id = $1`, [id]);
    await check('completed at another time (the next month in UTC)');
    await patch(a.id, id, { state: startedA });
    await check('reopened');
    await t.sql(`UPDATE issues SET created_at = '2026-02-28T23:30:00-05:00' WHERE id = $1`, [id]);
    await check('created at another time (the next month in UTC)');
    // several work items in one statement, and parallel changes beside creates
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, n) => create(a.id, { target_date: `2026-0${n + 1}-10` })),
    );
    await t.sql(
      `UPDATE issues SET target_date = target_date + 40, start_date = DATE '2026-09-09' WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    await check('a bulk update of dates');
    await Promise.all([
      ...ids.map((x, n) =>
        patch(a.id, x, { target_date: n % 2 ? null : '2026-12-12', state: n % 3 ? startedA : completedA }),
      ),
      ...Array.from({ length: 4 }, () => create(a.id, { start_date: '2026-05-05' })),
    ]);
    await check('parallel changes and creates');
  });

  it('moves, archive and restore, drafts published, deletes and restores, an archived project', async () => {
    const id = await create(a.id, { start_date: '2026-07-01', target_date: '2026-08-01', state: completedA });
    assert.equal((await bearer(t.api.post(app(a.id, `issues/${id}/archive/`)))).status, 200);
    await check('archived');
    assert.equal((await bearer(t.api.delete(app(a.id, `issues/${id}/archive/`)))).status, 204);
    await check('restored');
    const moved = await create(a.id, { start_date: '2026-06-06', target_date: '2026-06-07' });
    await t.sql('UPDATE issues SET project_id = $1, sequence_id = 100000 WHERE id = $2', [b.id, moved]);
    await check('moved to B');
    await t.sql(
      `UPDATE issues SET project_id = $1, sequence_id = 100001, target_date = DATE '2028-01-01' WHERE id = $2`,
      [a.id, moved],
    );
    await check('moved back with another due date');
    const draft = await create(a.id, { name: 'Draft', is_draft: true, start_date: '2026-03-03' });
    await patch(a.id, draft, { target_date: '2026-03-04' });
    await check('a draft changed');
    await patch(a.id, draft, { is_draft: false });
    await check('draft published');
    assert.equal((await t.api.delete(v1(a.id, `work-items/${draft}/`)).set('X-API-Key', key)).status, 204);
    await check('deleted');
    await t.sql('UPDATE issues SET deleted_at = NULL WHERE id = $1', [draft]);
    await check('deleted and back');
    const bulk = await bearer(t.api.delete(app(a.id, 'bulk-delete-issues/'))).send({ issue_ids: [moved] });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    await check('bulk delete');
    await t.sql('DELETE FROM issues WHERE id = $1', [id]);
    await check('removed for good');
    await t.sql('UPDATE projects SET archived_at = now() WHERE id = $1', [b.id]);
    try {
      await check('project B archived');
    } finally {
      await t.sql('UPDATE projects SET archived_at = NULL WHERE id = $1', [b.id]);
    }
    await check('project B back');
  });

  it('intake: pending work items with dates are not counted until accepted', async () => {
    const accepted = await submit('Accept me');
    await t.sql(`UPDATE issues SET start_date = DATE '2026-01-02', target_date = DATE '2030-05-05' WHERE id = $1`, [
      accepted,
    ]);
    await check('pending with dates');
    await triage(accepted, { status: 1 });
    await check('accepted');
    const declined = await submit('Decline me');
    await t.sql(`UPDATE issues SET target_date = DATE '2030-06-06' WHERE id = $1`, [declined]);
    await triage(declined, { status: -1 });
    await check('declined');
    const snoozed = await submit('Snooze me');
    await triage(snoozed, { status: 0, snoozed_till: '2099-01-01T00:00:00Z' });
    await t.sql(`UPDATE issues SET start_date = DATE '2031-01-01' WHERE id = $1`, [snoozed]);
    await check('snoozed, its date changed');
    await triage(snoozed, { status: 1 });
    await check('accepted after a snooze');
    const spam = await submit('Spam');
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${spam}/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${accepted}/`)).set('X-API-Key', key)).status, 204);
    await check('intake rows deleted');
  });

  it('the answers come from the tallies (a changed tally shows), and the migration rebuilds them', async () => {
    const w = `/api/workspaces/${ws.slug}`;
    const chart = async () =>
      (await bearer(t.api.get(`${w}/analytics/?x_axis=target_date&y_axis=issue_count`))).body.distribution as Record<
        string,
        Array<{ count: number }>
      >;
    const c0 = (await chart())['2026-12'][0].count;
    const bump = `UPDATE issue_date_tallies SET n = n + $2 WHERE project_id = $1 AND axis = 't' AND year = 2026 AND month = 12`;
    await t.sql(bump, [a.id, 1000]);
    try {
      assert.equal((await chart())['2026-12'][0].count, c0 + 1000);
    } finally {
      await t.sql(bump, [a.id, -1000]);
    }
    await check('restored');
    // down and up again in a transaction that is rolled back (the lane's database is shared): the
    // backfill gives the figures the triggers kept, and writes no work item
    const projects = [[a.id, b.id]];
    const kept = await t.sql(TALLIES, projects);
    const stamps = `SELECT COUNT(*)::int AS n, MAX(updated_at)::text AS last FROM issues WHERE project_id = ANY($1::uuid[])`;
    const before = await t.sql(stamps, projects);
    await rerunMigration(t, 'IssueDateTallies1795980000000', {
      afterDown: async (query) => {
        const gone = await query(`SELECT to_regclass('public.issue_date_tallies') IS NULL AS gone`);
        assert.deepEqual(gone, [{ gone: true }], 'down dropped the table');
      },
      afterUp: async (query) => {
        assert.deepEqual(await query(TALLIES, projects), kept);
        assert.deepEqual(await query(stamps, projects), before, 'the backfill left updated_at');
      },
    });
  });
});
