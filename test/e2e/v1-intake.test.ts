import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  setWorkspaceRole,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: intake', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  const p = (path: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${path}`;
  const submit = (name: string, k = key, extra: Record<string, unknown> = {}) =>
    t.api
      .post(p('intake-issues/'))
      .set('X-API-Key', k)
      .send({ issue: { name, description_html: `<p>${name}</p>`, priority: 'high' }, ...extra });

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'INT', name: 'Intake' });
  });
  after(() => t.close());

  it('disabled intake: every route is 400 INTAKE_NOT_ENABLED', async () => {
    assertError(await t.api.get(p('intake-issues/')).set('X-API-Key', key), 400, 'INTAKE_NOT_ENABLED');
    assertError(await submit('early'), 400, 'INTAKE_NOT_ENABLED');
    assertError(await t.api.get(p('inbox-issues/')).set('X-API-Key', key), 400, 'INTAKE_NOT_ENABLED');
    const count = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE project_id = $1', [
      project.id,
    ]);
    assert.equal(count[0].n, 0);
  });

  it('create: 201 pending with issue_detail; the work item is hidden from work item routes while pending', async () => {
    assert.equal((await t.api.patch(p('')).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    const res = await submit('Bug report', key, { source: 'EMAIL', source_email: 'a@example.com', status: 1 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, -2);
    assert.equal(res.body.source, 'EMAIL');
    assert.equal(res.body.source_email, 'a@example.com');
    assert.equal(res.body.inbox, res.body.intake);
    assert.equal(res.body.issue_detail.name, 'Bug report');
    assert.equal(res.body.issue_detail.priority, 'high');
    assert.equal(res.body.issue, res.body.issue_detail.id);
    const state = await t.sql<{ name: string }>(
      'SELECT s.name FROM issues i JOIN states s ON s.id = i.state_id WHERE i.id = $1',
      [res.body.issue],
    );
    assert.deepEqual(state, [{ name: 'Backlog' }]);
    assertError(await t.api.get(p(`issues/${res.body.issue}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assert.equal((await t.api.get(p('issues/')).set('X-API-Key', key)).body.total_count, 0);
    const intake = await t.sql<{ name: string }>('SELECT name FROM intakes WHERE project_id = $1', [project.id]);
    assert.deepEqual(intake, [{ name: 'Intake Intake' }]);
    const hist = await t.sql<{ verb: string }>('SELECT verb FROM issue_activities WHERE issue_id = $1', [
      res.body.issue,
    ]);
    assert.deepEqual(hist, [{ verb: 'created' }]);
    assertError(
      await t.api
        .post(p('intake-issues/'))
        .set('X-API-Key', key)
        .send({ issue: { priority: 'low' } }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(p('intake-issues/'))
        .set('X-API-Key', key)
        .send({ issue: { name: 'x', priority: 'asap' } }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(p('intake-issues/'))
        .set('X-API-Key', key)
        .send({ issue: { name: 'x' }, status: 7 }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('list (both paths, newest first, paginated), retrieve by the work item id, unknown id 404', async () => {
    const second = (await submit('Feature idea')).body;
    const list = await t.api.get(p('intake-issues/')).set('X-API-Key', key);
    assert.equal(list.status, 200);
    assert.equal(list.body.total_count, 2);
    assert.equal(list.body.results[0].issue, second.issue);
    const legacy = await t.api.get(p('inbox-issues/')).set('X-API-Key', key);
    assert.deepEqual(
      legacy.body.results.map((r: { id: string }) => r.id),
      list.body.results.map((r: { id: string }) => r.id),
    );
    const one = await t.api.get(p(`inbox-issues/${second.issue}/`)).set('X-API-Key', key);
    assert.equal(one.body.id, second.id);
    assertError(await t.api.get(p(`intake-issues/${second.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('accept: visible again; a triage-state item moves to the default state; history written', async () => {
    const item = (await submit('Accept me')).body;
    const triage = await t.api
      .post(p('states/'))
      .set('X-API-Key', key)
      .send({ name: 'Triage', color: '#999999', group: 'triage' });
    assert.equal(triage.status, 201, JSON.stringify(triage.body));
    await t.sql('UPDATE issues SET state_id = $1 WHERE id = $2', [triage.body.id, item.issue]);
    const res = await t.api
      .patch(p(`intake-issues/${item.issue}/`))
      .set('X-API-Key', key)
      .send({ status: 1 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 1);
    const got = await t.api.get(p(`issues/${item.issue}/`)).set('X-API-Key', key);
    assert.equal(got.status, 200);
    const def = await t.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 AND "default" = true', [
      project.id,
    ]);
    assert.equal(got.body.state, def[0].id);
    const hist = await t.sql<{ field: string; old_value: string; new_value: string }>(
      `SELECT field, old_value, new_value FROM issue_activities WHERE issue_id = $1 AND verb = 'updated' ORDER BY created_at`,
      [item.issue],
    );
    assert.deepEqual(hist, [
      { field: 'intake', old_value: 'pending', new_value: 'accepted' },
      { field: 'state', old_value: 'Triage', new_value: 'Backlog' },
    ]);
  });

  it('decline and duplicate move the work item to the cancelled-group state; duplicate needs duplicate_to; snooze keeps it hidden', async () => {
    const a = (await submit('Decline me')).body;
    const declined = await t.api
      .patch(p(`intake-issues/${a.issue}/`))
      .set('X-API-Key', key)
      .send({ status: -1 });
    assert.equal(declined.body.status, -1);
    const cancelled = await t.sql<{ id: string }>(
      `SELECT id FROM states WHERE project_id = $1 AND "group" = 'cancelled'`,
      [project.id],
    );
    assert.equal(declined.body.issue_detail.state, cancelled[0].id);
    const b = (await submit('Dup me')).body;
    const c = (await submit('Original')).body;
    assertError(
      await t.api
        .patch(p(`intake-issues/${b.issue}/`))
        .set('X-API-Key', key)
        .send({ status: 2 }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .patch(p(`intake-issues/${b.issue}/`))
        .set('X-API-Key', key)
        .send({ status: 2, duplicate_to: b.issue }),
      422,
      'VALIDATION_ERROR',
    );
    const dup = await t.api
      .patch(p(`intake-issues/${b.issue}/`))
      .set('X-API-Key', key)
      .send({ status: 2, duplicate_to: c.issue });
    assert.equal(dup.status, 200, JSON.stringify(dup.body));
    assert.equal(dup.body.duplicate_to, c.issue);
    assert.equal(dup.body.issue_detail.state, cancelled[0].id);
    const snoozed = await t.api
      .patch(p(`intake-issues/${c.issue}/`))
      .set('X-API-Key', key)
      .send({ status: 0, snoozed_till: '2099-01-01T00:00:00Z' });
    assert.equal(snoozed.body.status, 0);
    assert.equal(snoozed.body.snoozed_till, '2099-01-01T00:00:00.000Z');
    assertError(await t.api.get(p(`issues/${c.issue}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assert.equal((await t.api.get(p(`issues/${a.issue}/`)).set('X-API-Key', key)).status, 200);
  });

  it('PATCH issue fields updates the work item; guests edit only their own name/description and never the status', async () => {
    const item = (await submit('Typo')).body;
    const res = await t.api
      .patch(p(`intake-issues/${item.issue}/`))
      .set('X-API-Key', key)
      .send({ issue: { name: 'Fixed', priority: 'low' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.issue_detail.name, 'Fixed');
    assert.equal(res.body.issue_detail.priority, 'low');
    const g = await signUp(t);
    await addMember(t, ws.id, g.userId, 20);
    const gk = await createApiKey(t, g.token, ws.slug);
    await setWorkspaceRole(t, ws.id, g.userId, 5);
    await addProjectMember(t, ws.id, project.id, g.userId, 5);
    const mine = await submit('Guest report', gk);
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    const ok = await t.api
      .patch(p(`intake-issues/${mine.body.issue}/`))
      .set('X-API-Key', gk)
      .send({ issue: { name: 'Guest report v2' } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.issue_detail.name, 'Guest report v2');
    assertError(
      await t.api
        .patch(p(`intake-issues/${mine.body.issue}/`))
        .set('X-API-Key', gk)
        .send({ issue: { priority: 'urgent' } }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api
        .patch(p(`intake-issues/${mine.body.issue}/`))
        .set('X-API-Key', gk)
        .send({ status: 1 }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api
        .patch(p(`intake-issues/${item.issue}/`))
        .set('X-API-Key', gk)
        .send({ issue: { name: 'hijack' } }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(await t.api.delete(p(`intake-issues/${item.issue}/`)).set('X-API-Key', gk), 403, 'PERMISSION_DENIED');
    assert.equal((await t.api.delete(p(`intake-issues/${mine.body.issue}/`)).set('X-API-Key', gk)).status, 204);
  });

  it('delete: a pending item deletes its work item; an accepted one only leaves the intake', async () => {
    const pending = (await submit('Spam')).body;
    assert.equal((await t.api.delete(p(`intake-issues/${pending.issue}/`)).set('X-API-Key', key)).status, 204);
    const gone = await t.sql<{ deleted: boolean }>(
      'SELECT deleted_at IS NOT NULL AS deleted FROM issues WHERE id = $1',
      [pending.issue],
    );
    assert.deepEqual(gone, [{ deleted: true }]);
    assertError(await t.api.get(p(`intake-issues/${pending.issue}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    const kept = (await submit('Keep')).body;
    await t.api
      .patch(p(`intake-issues/${kept.issue}/`))
      .set('X-API-Key', key)
      .send({ status: 1 });
    assert.equal((await t.api.delete(p(`inbox-issues/${kept.issue}/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.get(p(`issues/${kept.issue}/`)).set('X-API-Key', key)).status, 200);
    assertError(await t.api.get(p(`intake-issues/${kept.issue}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });
});
