import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, addProjectMember, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The unfiltered total of a project's work items (`total_count` / `total_results` of every list
 * page) comes from `project_issue_counters.visible_count`, kept in the writing transaction (issue
 * #22; docs/decisions.md "The unfiltered total of a project's work items is a counter"). After each
 * kind of change, both APIs' lists answer what a fresh `COUNT(*)` of the visible work items gives.
 * Runs on both engines.
 */
describe('work item totals: the maintained counter equals a fresh count', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let a: { id: string };
  let b: { id: string };
  let completed: string;
  const v1 = (pid: string, path = '') => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const app = (pid: string, path = '') => `/api/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const create = async (pid: string, body: Record<string, unknown> = {}) => {
    const res = await t.api
      .post(v1(pid, 'work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'Item', ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string };
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
  const bearer = (req: import('supertest').Test) => req.auth(owner.token, { type: 'bearer' });

  /** What a list may show of the project, counted afresh (Plane's IssueManager and intake rule). */
  const freshCount = async (pid: string): Promise<number> =>
    (
      await t.sql<{ n: number }>(
        `SELECT COUNT(*)::int AS n FROM issues i JOIN projects p ON p.id = i.project_id AND p.deleted_at IS NULL AND p.archived_at IS NULL
         WHERE i.project_id = $1 AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
         AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`,
        [pid],
      )
    )[0].n;

  /** Both APIs' list totals of both projects equal a fresh count; answers project A's. */
  const check = async (what: string): Promise<number> => {
    let first = -1;
    for (const pid of [a.id, b.id]) {
      const expected = await freshCount(pid);
      const [counter] = await t.sql<{ n: number }>(
        'SELECT visible_count AS n FROM project_issue_counters WHERE project_id = $1',
        [pid],
      );
      assert.equal(counter?.n ?? 0, expected, `${what}: the counter`);
      const list = await t.api.get(v1(pid, 'work-items/?per_page=2')).set('X-API-Key', key);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(list.body.total_count, expected, `${what}: v1 total_count`);
      assert.equal(list.body.total_results, expected, `${what}: v1 total_results`);
      const deep = list.body.next_cursor
        ? await t.api.get(v1(pid, `work-items/?per_page=2&cursor=${list.body.next_cursor}`)).set('X-API-Key', key)
        : list;
      assert.equal(deep.body.total_count, expected, `${what}: v1 total_count, second page`);
      const web = await bearer(t.api.get(app(pid, 'issues/?per_page=2&cursor=2:0:0')));
      assert.equal(web.status, 200, JSON.stringify(web.body));
      assert.equal(web.body.total_count, expected, `${what}: App total_count`);
      assert.equal(web.body.total_results, expected, `${what}: App total_results`);
      const sync = await bearer(t.api.get(app(pid, 'v2/issues/?per_page=2&cursor=2:0:0')));
      assert.equal(sync.status, 200, JSON.stringify(sync.body));
      assert.equal(sync.body.total_results, expected, `${what}: v2 total_results`);
      if (first < 0) first = expected;
    }
    return first;
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    a = await createProject(t, key, ws.slug, { identifier: 'TOTA', name: 'Totals A' });
    b = await createProject(t, key, ws.slug, { identifier: 'TOTB', name: 'Totals B' });
    assert.equal((await t.api.patch(v1(a.id)).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    const [state] = await t.sql<{ id: string }>(
      `SELECT id FROM states WHERE project_id = $1 AND "group" = 'completed' LIMIT 1`,
      [a.id],
    );
    completed = state.id;
  });
  after(() => t.close());

  it('creates, one by one and concurrently (group commit), count once each; drafts do not', async () => {
    assert.equal(await check('empty projects'), 0);
    await create(a.id);
    assert.equal(await check('one create'), 1);
    await Promise.all(Array.from({ length: 12 }, (_, n) => create(a.id, { name: `Parallel ${n}` })));
    assert.equal(await check('parallel creates'), 13);
    await create(a.id, { name: 'Draft', is_draft: true });
    assert.equal(await check('a draft'), 13);
  });

  it('a draft published, then made a draft again', async () => {
    const draft = await create(a.id, { name: 'Draft to publish', is_draft: true });
    const res = await t.api
      .patch(v1(a.id, `work-items/${draft.id}/`))
      .set('X-API-Key', key)
      .send({ is_draft: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const published = await check('draft published');
    await t.sql('UPDATE issues SET is_draft = true WHERE id = $1', [draft.id]);
    assert.equal(await check('made a draft again'), published - 1);
  });

  it('delete (v1, App, bulk) counts each once; a second delete changes nothing', async () => {
    const before = await check('before deletes');
    const x = await create(a.id);
    const y = await create(a.id);
    const z = await create(a.id);
    assert.equal((await t.api.delete(v1(a.id, `work-items/${x.id}/`)).set('X-API-Key', key)).status, 204);
    assert.equal(await check('v1 delete'), before + 2);
    assert.equal((await t.api.delete(v1(a.id, `work-items/${x.id}/`)).set('X-API-Key', key)).status, 404);
    assert.equal((await bearer(t.api.delete(app(a.id, `issues/${y.id}/`)))).status, 204);
    assert.equal(await check('App delete'), before + 1);
    const bulk = await bearer(t.api.delete(app(a.id, 'bulk-delete-issues/'))).send({ issue_ids: [z.id] });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.equal(await check('bulk delete'), before);
  });

  it('archive and restore, one and in bulk', async () => {
    const before = await check('before archive');
    const done = await create(a.id, { state: completed });
    const done2 = await create(a.id, { state: completed });
    assert.equal((await bearer(t.api.post(app(a.id, `issues/${done.id}/archive/`)))).status, 200);
    assert.equal(await check('archive'), before + 1);
    assert.equal((await bearer(t.api.delete(app(a.id, `issues/${done.id}/archive/`)))).status, 204);
    assert.equal(await check('restore'), before + 2);
    const bulk = await bearer(t.api.post(app(a.id, 'bulk-archive-issues/'))).send({ issue_ids: [done.id, done2.id] });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.equal(await check('bulk archive'), before);
    // deleting an archived work item: it was not counted
    assert.equal((await t.api.delete(v1(a.id, `work-items/${done.id}/`)).set('X-API-Key', key)).status, 204);
    assert.equal(await check('delete an archived one'), before);
  });

  it('intake: a submission is hidden; accept, decline, snooze and its end, delete', async () => {
    const before = await check('before intake');
    const accepted = await submit('Accept me');
    assert.equal(await check('submitted'), before);
    await triage(accepted, { status: 1 });
    assert.equal(await check('accepted'), before + 1);
    const declined = await submit('Decline me');
    await triage(declined, { status: -1 });
    assert.equal(await check('declined'), before + 2);
    const snoozed = await submit('Snooze me');
    await triage(snoozed, { status: 0, snoozed_till: '2099-01-01T00:00:00Z' });
    assert.equal(await check('snoozed'), before + 2);
    await triage(snoozed, { status: 1 });
    assert.equal(await check('accepted after a snooze'), before + 3);
    const spam = await submit('Spam');
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${spam}/`)).set('X-API-Key', key)).status, 204);
    assert.equal(await check('pending deleted'), before + 3);
    assert.equal((await t.api.delete(v1(a.id, `intake-issues/${accepted}/`)).set('X-API-Key', key)).status, 204);
    assert.equal(await check('accepted one left the intake'), before + 3);
    // a pending one archived or deleted behind the intake's back: it was never counted
    const hidden = await submit('Hidden');
    await t.sql('UPDATE issues SET deleted_at = now() WHERE id = $1', [hidden]);
    await t.sql('UPDATE intake_issues SET status = 1 WHERE issue_id = $1', [hidden]);
    assert.equal(await check('pending, deleted, then accepted'), before + 3);
  });

  it('a move between projects, and rows removed for good', async () => {
    const before = await check('before move');
    const item = await create(a.id);
    await t.sql('UPDATE issues SET project_id = $1, sequence_id = 100000 WHERE id = $2', [b.id, item.id]);
    assert.equal(await check('moved to B'), before);
    const [countB] = await t.sql<{ n: number }>(
      'SELECT visible_count AS n FROM project_issue_counters WHERE project_id = $1',
      [b.id],
    );
    assert.equal(countB.n, 1);
    await t.sql('UPDATE issues SET project_id = $1, sequence_id = 100001 WHERE id = $2', [a.id, item.id]);
    assert.equal(await check('moved back'), before + 1);
    await t.sql('DELETE FROM issues WHERE id = $1', [item.id]);
    assert.equal(await check('removed for good'), before);
    const pending = await submit('Removed pending');
    await t.sql('DELETE FROM issues WHERE id = $1', [pending]);
    assert.equal(await check('pending removed for good'), before);
  });

  it('parallel creates and deletes leave the counter exact', async () => {
    const before = await check('before the race');
    const victims = await Promise.all(Array.from({ length: 10 }, () => create(a.id)));
    const results = await Promise.all([
      ...Array.from({ length: 30 }, (_, n) => create(a.id, { name: `Race ${n}` })),
      ...Array.from({ length: 10 }, (_, n) => create(b.id, { name: `Race B ${n}` })),
      ...victims.map((v) => t.api.delete(v1(a.id, `work-items/${v.id}/`)).set('X-API-Key', key)),
      ...victims.slice(0, 3).map((v) => t.api.delete(v1(a.id, `work-items/${v.id}/`)).set('X-API-Key', key)),
    ]);
    const deletes = results.slice(40) as Array<{ status: number }>;
    assert.equal(deletes.filter((r) => r.status === 204).length, 10, 'each work item deleted once');
    assert.equal(await check('after the race'), before + 30);
  });

  it('a Guest’s list and a filtered list count the list, not the counter', async () => {
    const guest = await signUp(t);
    await addMember(t, ws.id, guest.userId, 5);
    await addProjectMember(t, ws.id, a.id, guest.userId, 5);
    const all = await check('before the guest');
    assert.ok(all > 0);
    const res = await t.api.get(app(a.id, 'issues/?per_page=2&cursor=2:0:0')).auth(guest.token, { type: 'bearer' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Plane's Guest rule: the Guest's own work items only (guest_view_all_features is off)
    assert.equal(res.body.total_count, 0);
    const urgent = await create(a.id, { priority: 'urgent' });
    const filtered = await t.api.get(v1(a.id, 'work-items/?priority=urgent')).set('X-API-Key', key);
    assert.equal(filtered.status, 200, JSON.stringify(filtered.body));
    assert.equal(filtered.body.total_count, 1);
    assert.equal(filtered.body.results[0].id, urgent.id);
    const web = await bearer(t.api.get(app(a.id, 'issues/?priority=urgent&per_page=2&cursor=2:0:0')));
    assert.equal(web.body.total_count, 1);
  });
});
