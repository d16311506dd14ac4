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

const EMPTY = {
  blocking: [],
  blocked_by: [],
  duplicate: [],
  relates_to: [],
  start_before: [],
  start_after: [],
  finish_before: [],
  finish_after: [],
};

describe('External API v1: work item relations', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  let other: { id: string };
  const items: Record<string, { id: string; sequence_id: number }> = {};
  const p = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const rel = (id: string) => t.api.get(p(`work-items/${id}/relations/`)).set('X-API-Key', key);

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'REL', name: 'Relations' });
    other = await createProject(t, key, ws.slug, { identifier: 'OTH', name: 'Other' });
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      items[name] = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name })).body;
    }
    items.x = (await t.api.post(p('issues/', other.id)).set('X-API-Key', key).send({ name: 'x' })).body;
  });
  after(() => t.close());

  it('an unrelated work item lists one empty array per type', async () => {
    const res = await rel(items.e.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, EMPTY);
  });

  it('blocking is seen as blocked_by from the other side, on both path families, with history on both work items', async () => {
    const res = await t.api
      .post(p(`work-items/${items.a.id}/relations/`))
      .set('X-API-Key', key)
      .send({ relation_type: 'blocking', issues: [items.b.id, items.c.id] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body, { ...EMPTY, blocking: [items.b.id, items.c.id] });
    assert.deepEqual((await rel(items.b.id)).body, { ...EMPTY, blocked_by: [items.a.id] });
    const viaIssues = await t.api.get(p(`issues/${items.c.id}/relations/`)).set('X-API-Key', key);
    assert.deepEqual(viaIssues.body, { ...EMPTY, blocked_by: [items.a.id] });
    const hist = await t.sql<{
      issue_id: string;
      field: string;
      verb: string;
      new_value: string;
      new_identifier: string;
    }>(
      `SELECT issue_id, field, verb, new_value, new_identifier FROM issue_activities WHERE field IN ('blocking','blocked_by') ORDER BY created_at`,
    );
    assert.deepEqual(hist, [
      {
        issue_id: items.a.id,
        field: 'blocking',
        verb: 'updated',
        new_value: `REL-${items.b.sequence_id}`,
        new_identifier: items.b.id,
      },
      {
        issue_id: items.b.id,
        field: 'blocked_by',
        verb: 'updated',
        new_value: `REL-${items.a.sequence_id}`,
        new_identifier: items.a.id,
      },
      {
        issue_id: items.a.id,
        field: 'blocking',
        verb: 'updated',
        new_value: `REL-${items.c.sequence_id}`,
        new_identifier: items.c.id,
      },
      {
        issue_id: items.c.id,
        field: 'blocked_by',
        verb: 'updated',
        new_value: `REL-${items.a.sequence_id}`,
        new_identifier: items.a.id,
      },
    ]);
    const listed = await t.api.get(p(`issues/${items.b.id}/activities/`)).set('X-API-Key', key);
    assert.ok(listed.body.results.some((a: { field: string }) => a.field === 'blocked_by'));
  });

  it('every type has its inverse: start/finish before/after swap, duplicate and relates_to are symmetric', async () => {
    const cases: Array<[string, string]> = [
      ['start_before', 'start_after'],
      ['start_after', 'start_before'],
      ['finish_before', 'finish_after'],
      ['finish_after', 'finish_before'],
      ['duplicate', 'duplicate'],
      ['relates_to', 'relates_to'],
      ['blocked_by', 'blocking'],
    ];
    for (const [type, inverse] of cases) {
      const res = await t.api
        .post(p(`issues/${items.d.id}/relations/`))
        .set('X-API-Key', key)
        .send({ relation_type: type, issues: [items.e.id] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      // a pair holds one relation: relating again with another type replaces it
      assert.deepEqual(res.body, { ...EMPTY, [type]: [items.e.id] }, type);
      assert.deepEqual((await rel(items.e.id)).body, { ...EMPTY, [inverse]: [items.d.id] }, type);
    }
    const rows = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM issue_relations WHERE deleted_at IS NULL AND (issue_id = $1 OR related_issue_id = $1)`,
      [items.d.id],
    );
    assert.equal(rows[0].n, 1);
    const again = await t.api
      .post(p(`issues/${items.d.id}/relations/`))
      .set('X-API-Key', key)
      .send({ relation_type: 'blocked_by', issues: [items.e.id] });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, { ...EMPTY, blocked_by: [items.e.id] });
  });

  it('relates to a work item of another project of the workspace the caller is a member of', async () => {
    const res = await t.api
      .post(p(`work-items/${items.e.id}/relations/`))
      .set('X-API-Key', key)
      .send({ relation_type: 'relates_to', issues: [items.x.id] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.relates_to, [items.x.id]);
    assert.deepEqual(
      (await t.api.get(p(`work-items/${items.x.id}/relations/`, other.id)).set('X-API-Key', key)).body.relates_to,
      [items.e.id],
    );
    const hist = await t.sql<{ project_id: string }>(
      `SELECT project_id FROM issue_activities WHERE issue_id = $1 AND field = 'relates_to'`,
      [items.x.id],
    );
    assert.deepEqual(hist, [{ project_id: other.id }]);
  });

  it('remove (POST relations/remove/) clears both sides and writes history; a second remove is 404', async () => {
    const res = await t.api
      .post(p(`work-items/${items.b.id}/relations/remove/`))
      .set('X-API-Key', key)
      .send({ related_issue: items.a.id });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.deepEqual((await rel(items.a.id)).body.blocking, [items.c.id]);
    assert.deepEqual((await rel(items.b.id)).body, EMPTY);
    const hist = await t.sql<{ issue_id: string; field: string; old_identifier: string }>(
      `SELECT issue_id, field, old_identifier FROM issue_activities WHERE verb = 'deleted' AND field IN ('blocking','blocked_by') ORDER BY created_at`,
    );
    assert.deepEqual(hist, [
      { issue_id: items.b.id, field: 'blocked_by', old_identifier: items.a.id },
      { issue_id: items.a.id, field: 'blocking', old_identifier: items.b.id },
    ]);
    const again = await t.api
      .post(p(`issues/${items.b.id}/relations/remove/`))
      .set('X-API-Key', key)
      .send({ related_issue: items.a.id });
    assertError(again, 404, 'NOT_FOUND');
  });

  it('a deleted work item drops out of the lists', async () => {
    const f = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'f' })).body;
    await t.api
      .post(p(`issues/${f.id}/relations/`))
      .set('X-API-Key', key)
      .send({ relation_type: 'duplicate', issues: [items.c.id] });
    assert.deepEqual((await rel(items.c.id)).body.duplicate, [f.id]);
    assert.equal((await t.api.delete(p(`issues/${f.id}/`)).set('X-API-Key', key)).status, 204);
    assert.deepEqual((await rel(items.c.id)).body.duplicate, []);
  });

  it('bad input: 422 for an unknown type, empty or non-uuid issues, self, unknown or foreign work items; 404 for an unknown work item', async () => {
    const url = p(`work-items/${items.a.id}/relations/`);
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send({ relation_type: 'parent_of', issues: [items.b.id] }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(url).set('X-API-Key', key).send({ relation_type: 'blocking', issues: [] }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send({ relation_type: 'blocking', issues: ['nope'] }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send({ relation_type: 'blocking', issues: [items.a.id] }),
      422,
      'VALIDATION_ERROR',
    );
    const unknown = await t.api
      .post(url)
      .set('X-API-Key', key)
      .send({ relation_type: 'blocking', issues: ['7f0b5a1e-0000-4000-8000-000000000000'] });
    assertError(unknown, 422, 'VALIDATION_ERROR');
    assert.ok(unknown.body.errors.issues);
    assertError(
      await t.api
        .post(p('work-items/7f0b5a1e-0000-4000-8000-000000000000/relations/'))
        .set('X-API-Key', key)
        .send({ relation_type: 'blocking', issues: [items.b.id] }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.get(p(`work-items/${items.x.id}/relations/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .post(p(`work-items/${items.a.id}/relations/remove/`))
        .set('X-API-Key', key)
        .send({}),
      422,
      'VALIDATION_ERROR',
    );

    // another workspace's work item is unknown here
    const stranger = await signUp(t);
    const ws2 = await createWorkspace(t, stranger.token);
    const key2 = await createApiKey(t, stranger.token, ws2.slug);
    const p2 = await createProject(t, key2, ws2.slug, { identifier: 'FOR', name: 'Foreign' });
    const foreign = (
      await t.api
        .post(`/api/v1/workspaces/${ws2.slug}/projects/${p2.id}/issues/`)
        .set('X-API-Key', key2)
        .send({ name: 'y' })
    ).body;
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send({ relation_type: 'blocking', issues: [foreign.id] }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('guests read but cannot relate (403); a member who is not in the other project cannot reach its work items', async () => {
    const guest = await signUp(t);
    await addMember(t, ws.id, guest.userId, 20);
    const gk = await createApiKey(t, guest.token, ws.slug);
    await setWorkspaceRole(t, ws.id, guest.userId, 5);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    assert.equal((await t.api.get(p(`work-items/${items.a.id}/relations/`)).set('X-API-Key', gk)).status, 200);
    assertError(
      await t.api
        .post(p(`work-items/${items.a.id}/relations/`))
        .set('X-API-Key', gk)
        .send({ relation_type: 'blocking', issues: [items.d.id] }),
      403,
      'PERMISSION_DENIED',
    );
    const member = await signUp(t);
    await addMember(t, ws.id, member.userId, 20);
    const mk = await createApiKey(t, member.token, ws.slug);
    await setWorkspaceRole(t, ws.id, member.userId, 15);
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
    assertError(
      await t.api
        .post(p(`work-items/${items.a.id}/relations/`))
        .set('X-API-Key', mk)
        .send({ relation_type: 'relates_to', issues: [items.x.id] }),
      422,
      'VALIDATION_ERROR',
    );
    const ok = await t.api
      .post(p(`work-items/${items.a.id}/relations/`))
      .set('X-API-Key', mk)
      .send({ relation_type: 'relates_to', issues: [items.d.id] });
    assert.equal(ok.status, 201);
  });
});
