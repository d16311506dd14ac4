import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, addProjectMember, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The tallies of visible work items per assignee and per label (`issue_set_tallies`, migration
 * `IssueSetTallies`; docs/decisions.md "Tallies per assignee and per label", issue #40). After each
 * kind of change: the table equals a fresh count of the visible work items; and every answer read
 * from it (the `assignees__id` / `labels__id` group counts of the workspace and project lists, the
 * total of a list filtered by one assignee or one label, the assignee and label charts of
 * `analytics/`, `default-analytics/`) is byte for byte the answer of the same request with a
 * filter that keeps every work item and that the tallies cannot read (created after 2000): the
 * counting path; and so is the answer with every priority (a filter that keeps every work item,
 * which the charts read from the tallies: `keptWhole`). Runs on both engines.
 */
describe('tallies per assignee and per label: kept exact, answers unchanged', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let a: { id: string };
  let b: { id: string };
  const users: string[] = [];
  const labelsA: string[] = [];
  const labelsB: string[] = [];
  let completedA: string;
  let startedA: string;
  const KEEPS_ALL = 'created_at=2000-01-01;after';
  const EVERY_PRIORITY = 'priority=urgent,high,medium,low,none';
  const v1 = (pid: string, path = '') => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const app = (pid: string, path = '') => `/api/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const bearer = (req: import('supertest').Test) => req.auth(owner.token, { type: 'bearer' });
  const create = async (pid: string, body: Record<string, unknown> = {}) => {
    const res = await t.api
      .post(v1(pid, 'work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'Item', ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const patch = async (pid: string, id: string, body: Record<string, unknown>) => {
    const res = await t.api
      .patch(v1(pid, `work-items/${id}/`))
      .set('X-API-Key', key)
      .send(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const submit = async (name: string) => {
    const res = await t.api.post(v1(a.id, 'intake-issues/')).set('X-API-Key', key).send({ issue: { name } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.issue as string;
  };
  const triage = async (issueId: string, body: Record<string, unknown>) => {
    const res = await t.api
      .patch(v1(a.id, `intake-issues/${issueId}/`))
      .set('X-API-Key', key)
      .send(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  /** The tallies of the test's projects (rows of 0 left out), and the same figures counted afresh. */
  const TALLIES = `SELECT kind::text AS kind, value_id::text AS value_id, project_id::text AS project_id,
      state_id::text AS state_id, done, n FROM issue_set_tallies WHERE project_id = ANY($1::uuid[]) AND n <> 0
    ORDER BY 1, 2, 3, 4, 5`;
  const FRESH = `SELECT kind, value_id, project_id, state_id, done, n FROM (
      SELECT 'a' AS kind, t.assignee_id::text AS value_id, i.project_id::text AS project_id, i.state_id::text AS state_id,
        i.completed_at IS NOT NULL AS done, COUNT(*)::int AS n
      FROM issues i LEFT JOIN issue_assignees t ON t.issue_id = i.id
      WHERE i.project_id = ANY($1::uuid[]) AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
      AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
      GROUP BY 2, 3, 4, 5
      UNION ALL
      SELECT 'l', t.label_id::text, i.project_id::text, i.state_id::text, i.completed_at IS NOT NULL, COUNT(*)::int
      FROM issues i LEFT JOIN issue_labels t ON t.issue_id = i.id
      WHERE i.project_id = ANY($1::uuid[]) AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
      AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
      GROUP BY 2, 3, 4, 5) x
    ORDER BY 1, 2, 3, 4, 5`;

  /**
   * The same GET without a filter, with one that keeps every work item that the tallies cannot read
   * (counted), and with every priority: equal bodies; answers it.
   */
  const same = async (path: string, what: string) => {
    const join = path.includes('?') ? '&' : '?';
    const [plain, counted, every] = await Promise.all([
      bearer(t.api.get(path)),
      bearer(t.api.get(`${path}${join}${KEEPS_ALL}`)),
      bearer(t.api.get(`${path}${join}${EVERY_PRIORITY}`)),
    ]);
    for (const res of [plain, counted, every]) assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(plain.text, counted.text, `${what}: ${path}`);
    assert.equal(every.text, counted.text, `${what}: ${path}, every priority`);
    return plain.body as Record<string, unknown>;
  };

  /** The tallies equal a fresh count, and every answer read from them equals the counted one. */
  const check = async (what: string) => {
    const projects = [a.id, b.id];
    assert.deepEqual(await t.sql(TALLIES, [projects]), await t.sql(FRESH, [projects]), `${what}: the tallies`);
    const w = `/api/workspaces/${ws.slug}`;
    for (const by of ['assignees__id', 'labels__id']) {
      const grouped = await same(`${w}/issues/?group_by=${by}&per_page=1&cursor=1:0:0`, `${what}, ${by}`);
      assert.ok(Object.keys(grouped.results as object).length > 1, `${what}: groups of ${by}`);
      await same(app(a.id, `issues/?group_by=${by}&per_page=1&cursor=1:0:0`), `${what}, A, ${by}`);
      for (const segment of ['', '&segment=state_id', '&segment=state__group'])
        await same(`${w}/analytics/?x_axis=${by}&y_axis=issue_count${segment}`, `${what}, chart ${by}${segment}`);
    }
    await same(`${w}/default-analytics/`, `${what}, default-analytics`);
    for (const u of users) {
      await same(`${w}/issues/?assignees=${u}&per_page=1&cursor=1:0:0`, `${what}, assignee total`);
      await same(app(b.id, `issues/?assignees=${u}&per_page=1&cursor=1:0:0`), `${what}, assignee total in B`);
      await same(`${w}/issues/?assignees=${u}&group_by=labels__id&per_page=1&cursor=1:0:0`, `${what}, grouped`);
    }
    for (const l of [...labelsA, ...labelsB]) {
      await same(`${w}/issues/?labels=${l}&per_page=1&cursor=1:0:0`, `${what}, label total`);
      await same(app(a.id, `issues/?labels=${l}&per_page=1&cursor=1:0:0`), `${what}, label total in A`);
    }
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    a = await createProject(t, key, ws.slug, { identifier: 'TALA', name: 'Tallies A' });
    b = await createProject(t, key, ws.slug, { identifier: 'TALB', name: 'Tallies B' });
    assert.equal((await t.api.patch(v1(a.id)).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    for (let n = 0; n < 3; n++) {
      const u = await signUp(t);
      await addMember(t, ws.id, u.userId, 15);
      for (const p of [a, b]) await addProjectMember(t, ws.id, p.id, u.userId, 15);
      users.push(u.userId);
    }
    for (const [pid, out, names] of [
      [a.id, labelsA, ['bug', 'feature', 'chore']],
      [b.id, labelsB, ['ops', 'docs']],
    ] as const) {
      for (const name of names) {
        const res = await bearer(t.api.post(app(pid, 'issue-labels/'))).send({ name, color: '#112233' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        out.push(res.body.id as string);
      }
    }
    const states = await t.sql<{ id: string; group: string }>(
      `SELECT id, "group"::text AS "group" FROM states WHERE project_id = $1 ORDER BY sequence`,
      [a.id],
    );
    completedA = states.find((s) => s.group === 'completed')!.id;
    startedA = states.find((s) => s.group === 'started')!.id;
  });
  after(() => t.close());

  it('creates with and without assignees and labels, one by one and at once; drafts', async () => {
    const [u1, u2, u3] = users;
    await create(a.id, { assignees: [u1, u2], labels: [labelsA[0]] });
    await create(a.id);
    await create(a.id, { assignees: [u3], state: completedA, labels: [labelsA[0], labelsA[1]] });
    await create(a.id, { name: 'Draft', is_draft: true, assignees: [u1], labels: [labelsA[2]] });
    await create(b.id, { assignees: [u1], labels: [labelsB[0]] });
    await check('creates');
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        create(n % 3 ? a.id : b.id, {
          name: `Parallel ${n}`,
          assignees: users.slice(0, n % 4),
          labels: n % 3 ? labelsA.slice(0, n % 3) : labelsB.slice(0, 1),
        }),
      ),
    );
    await check('parallel creates (group commit)');
  });

  it('assignees and labels added, removed, replaced and cleared', async () => {
    const [u1, u2, u3] = users;
    const id = await create(a.id, { assignees: [u1], labels: [labelsA[0]] });
    await patch(a.id, id, { assignees: [u1, u2, u3] });
    await check('assignees added');
    await patch(a.id, id, { assignees: [u2] });
    await check('assignees removed');
    await patch(a.id, id, { assignees: [u3], labels: [labelsA[1], labelsA[2]] });
    await check('replaced');
    await patch(a.id, id, { assignees: [], labels: [] });
    await check('cleared');
    // parallel changes of several work items of one project, and creates beside them
    const ids = await Promise.all(Array.from({ length: 6 }, () => create(a.id, { assignees: [u1] })));
    await Promise.all([
      ...ids.map((x, n) => patch(a.id, x, { assignees: users.slice(n % 3), labels: labelsA.slice(0, n % 3) })),
      ...Array.from({ length: 4 }, () => create(a.id, { assignees: [u2, u3], labels: [labelsA[1]] })),
    ]);
    await check('parallel changes and creates');
  });

  it('state changes (completion), moves, archive and restore, drafts published, deletes', async () => {
    const [u1, u2] = users;
    const id = await create(a.id, { assignees: [u1, u2], labels: [labelsA[0]] });
    await patch(a.id, id, { state: completedA });
    await check('completed');
    await patch(a.id, id, { state: startedA });
    await check('reopened');
    await patch(a.id, id, { state: completedA });
    assert.equal((await bearer(t.api.post(app(a.id, `issues/${id}/archive/`)))).status, 200);
    await check('archived');
    assert.equal((await bearer(t.api.delete(app(a.id, `issues/${id}/archive/`)))).status, 204);
    await check('restored');
    const moved = await create(a.id, { assignees: [u2], labels: [labelsA[1]] });
    await t.sql('UPDATE issues SET project_id = $1, sequence_id = 100000 WHERE id = $2', [b.id, moved]);
    await check('moved to B');
    await t.sql('UPDATE issues SET project_id = $1, sequence_id = 100001 WHERE id = $2', [a.id, moved]);
    await check('moved back');
    const draft = await create(a.id, { name: 'Draft', is_draft: true, assignees: [u1], labels: [labelsA[2]] });
    await patch(a.id, draft, { assignees: [u1, u2] });
    await check('a draft changed');
    await patch(a.id, draft, { is_draft: false });
    await check('draft published');
    assert.equal((await t.api.delete(v1(a.id, `work-items/${draft}/`)).set('X-API-Key', key)).status, 204);
    await check('deleted');
    const bulk = await bearer(t.api.delete(app(a.id, 'bulk-delete-issues/'))).send({ issue_ids: [moved] });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    await check('bulk delete');
    await t.sql('DELETE FROM issues WHERE id = $1', [id]);
    await check('removed for good (links by cascade)');
  });

  it('intake: pending work items with assignees are not counted until accepted', async () => {
    const [u1, u2] = users;
    const accepted = await submit('Accept me');
    await t.sql('INSERT INTO issue_assignees (issue_id, assignee_id) VALUES ($1, $2), ($1, $3)', [accepted, u1, u2]);
    await t.sql('INSERT INTO issue_labels (issue_id, label_id) VALUES ($1, $2)', [accepted, labelsA[0]]);
    await check('pending with links');
    await triage(accepted, { status: 1 });
    await check('accepted');
    const declined = await submit('Decline me');
    await t.sql('INSERT INTO issue_assignees (issue_id, assignee_id) VALUES ($1, $2)', [declined, u2]);
    await triage(declined, { status: -1 });
    await check('declined');
    const snoozed = await submit('Snooze me');
    await t.sql('INSERT INTO issue_labels (issue_id, label_id) VALUES ($1, $2)', [snoozed, labelsA[1]]);
    await triage(snoozed, { status: 0, snoozed_till: '2099-01-01T00:00:00Z' });
    await check('snoozed');
    await triage(snoozed, { status: 1 });
    await check('accepted after a snooze');
    const spam = await submit('Spam');
    await t.sql('DELETE FROM issue_assignees WHERE issue_id = $1', [accepted]);
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${spam}/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${accepted}/`)).set('X-API-Key', key)).status, 204);
    await check('intake rows deleted');
  });

  it('links written in bulk, changed in place, a label deleted', async () => {
    const [u1, u2, u3] = users;
    const ids = await Promise.all(Array.from({ length: 5 }, () => create(b.id)));
    await t.sql(
      `INSERT INTO issue_assignees (issue_id, assignee_id) SELECT i, u FROM unnest($1::uuid[]) i, unnest($2::uuid[]) u`,
      [ids, [u1, u2]],
    );
    await t.sql(`INSERT INTO issue_labels (issue_id, label_id) SELECT i, $2 FROM unnest($1::uuid[]) i`, [
      ids,
      labelsB[1],
    ]);
    await check('bulk inserts');
    await t.sql('UPDATE issue_assignees SET assignee_id = $1 WHERE issue_id = $2 AND assignee_id = $3', [
      u3,
      ids[0],
      u1,
    ]);
    await t.sql('UPDATE issue_labels SET label_id = $1 WHERE issue_id = $2', [labelsB[0], ids[2]]);
    const bare = await create(b.id);
    await t.sql('UPDATE issue_assignees SET issue_id = $1 WHERE issue_id = $2 AND assignee_id = $3', [
      bare,
      ids[3],
      u2,
    ]);
    await check('changed in place');
    await t.sql('DELETE FROM issue_assignees WHERE issue_id = ANY($1::uuid[]) AND assignee_id = $2', [ids, u2]);
    await check('bulk delete of links');
    const res = await bearer(t.api.delete(app(b.id, `issue-labels/${labelsB[1]}/`)));
    assert.equal(res.status, 204, JSON.stringify(res.body));
    await check('a label deleted');
  });

  it('the answers come from the tallies (a changed tally shows), and the migration rebuilds them', async () => {
    const w = `/api/workspaces/${ws.slug}`;
    const chart = async () =>
      (await bearer(t.api.get(`${w}/analytics/?x_axis=assignees__id&y_axis=issue_count`))).body.distribution as Record<
        string,
        Array<{ count: number }>
      >;
    const grouped = async () =>
      (await bearer(t.api.get(`${w}/issues/?group_by=assignees__id&per_page=1&cursor=1:0:0`))).body.results[users[0]]
        .total_results as number;
    const total = async () =>
      (await bearer(t.api.get(`${w}/issues/?assignees=${users[0]}&per_page=1&cursor=1:0:0`))).body
        .total_count as number;
    const [c0, g0, n0] = [(await chart())[users[0]][0].count, await grouped(), await total()];
    const bump = `UPDATE issue_set_tallies SET n = n + $2 WHERE kind = 'a' AND value_id = $1
      AND ctid = (SELECT ctid FROM issue_set_tallies WHERE kind = 'a' AND value_id = $1 AND n > 0 LIMIT 1)`;
    await t.sql(bump, [users[0], 1000]);
    try {
      assert.equal((await chart())[users[0]][0].count, c0 + 1000);
      assert.equal(await grouped(), g0 + 1000);
      assert.equal(await total(), n0 + 1000);
    } finally {
      await t.sql(bump.replace('n > 0', 'n > 1000'), [users[0], -1000]);
    }
    await check('restored');
    // down and up again in a transaction that is rolled back (the lane's database is shared): the
    // backfill gives the figures the triggers kept
    const migration = t.database.dataSource.migrations.find((m) => m.name === 'IssueSetTallies1795973000000');
    assert.ok(migration, 'the migration is known to the server');
    const kept = await t.sql(TALLIES, [[a.id, b.id]]);
    const runner = t.database.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      const gone = (await runner.query(`SELECT to_regclass('public.issue_set_tallies') IS NULL AS gone`)) as Array<{
        gone: boolean;
      }>;
      assert.equal(gone[0].gone, true, 'down dropped the table');
      await migration.up(runner);
      assert.deepEqual(await runner.query(TALLIES, [[a.id, b.id]]), kept);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
