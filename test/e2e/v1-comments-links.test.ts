import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: work item comments and links', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  let issue: { id: string };
  const p = (path: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${path}`;
  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'CL', name: 'Comments' });
    issue = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Talk' })).body;
  });
  after(() => t.close());

  async function member(projectRole: number) {
    const u = await signUp(t);
    await addMember(t, ws.id, u.userId, 20);
    const k = await createApiKey(t, u.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = $1 WHERE member_id = $2', [projectRole === 5 ? 5 : 15, u.userId]);
    await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, $4)', [
      ws.id,
      project.id,
      u.userId,
      projectRole,
    ]);
    return { ...u, key: k };
  }

  it('comments: create 201 with actor and defaults, list newest first (without trailing slash too), retrieve, history row', async () => {
    const c1 = await t.api
      .post(p(`issues/${issue.id}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: '<p>first</p>' });
    assert.equal(c1.status, 201, JSON.stringify(c1.body));
    assert.equal(c1.body.actor, owner.userId);
    assert.equal(c1.body.access, 'INTERNAL');
    assert.equal(c1.body.issue, issue.id);
    assert.equal(c1.body.comment_stripped, 'first');
    assert.equal(c1.body.edited_at, null);
    const c2 = await t.api
      .post(p(`work-items/${issue.id}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: '<p>second</p>', access: 'EXTERNAL' });
    assert.equal(c2.body.access, 'EXTERNAL');
    const list = await t.api.get(p(`issues/${issue.id}/comments`)).set('X-API-Key', key);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.results.map((c: { id: string }) => c.id),
      [c2.body.id, c1.body.id],
    );
    assert.equal(list.body.results[0].is_member, true);
    const one = await t.api.get(p(`work-items/${issue.id}/comments/${c1.body.id}/`)).set('X-API-Key', key);
    assert.equal(one.body.comment_html, '<p>first</p>');
    const empty = await t.api
      .post(p(`issues/${issue.id}/comments/`))
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json');
    assert.equal(empty.status, 201);
    assert.equal(empty.body.comment_html, '<p></p>');
    const rows = await t.sql<{ verb: string; issue_comment_id: string; new_value: string }>(
      `SELECT verb, issue_comment_id, new_value FROM issue_activities WHERE field = 'comment' AND issue_comment_id = $1`,
      [c1.body.id],
    );
    assert.deepEqual(rows, [{ verb: 'created', issue_comment_id: c1.body.id, new_value: '<p>first</p>' }]);
  });

  it('comments: author edits (edited_at set), others 403 unless Admin; guests may comment where they may see; delete is soft; external 409', async () => {
    const guest = await member(5);
    // a Guest sees only their own work items unless the project shows them all (Plane's guest_view_all_features)
    assertError(
      await t.api
        .post(p(`issues/${issue.id}/comments/`))
        .set('X-API-Key', guest.key)
        .send({ comment_html: '<p>hidden</p>' }),
      404,
      'NOT_FOUND',
    );
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    const gc = await t.api
      .post(p(`issues/${issue.id}/comments/`))
      .set('X-API-Key', guest.key)
      .send({ comment_html: '<p>guest</p>' });
    assert.equal(gc.status, 201, JSON.stringify(gc.body));
    const m = await member(15);
    assertError(
      await t.api
        .patch(p(`issues/${issue.id}/comments/${gc.body.id}/`))
        .set('X-API-Key', m.key)
        .send({ comment_html: 'x' }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api.delete(p(`issues/${issue.id}/comments/${gc.body.id}/`)).set('X-API-Key', m.key),
      403,
      'PERMISSION_DENIED',
    );
    const edit = await t.api
      .patch(p(`issues/${issue.id}/comments/${gc.body.id}/`))
      .set('X-API-Key', guest.key)
      .send({ comment_html: '<p>edited</p>' });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.comment_html, '<p>edited</p>');
    assert.ok(edit.body.edited_at);
    // the project admin may delete anyone's comment
    assert.equal(
      (await t.api.delete(p(`work-items/${issue.id}/comments/${gc.body.id}/`)).set('X-API-Key', key)).status,
      204,
    );
    assertError(
      await t.api.get(p(`issues/${issue.id}/comments/${gc.body.id}/`)).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    const hist = await t.sql<{ verb: string; actor_id: string }>(
      `SELECT verb, actor_id FROM issue_activities WHERE issue_comment_id = $1 ORDER BY created_at`,
      [gc.body.id],
    );
    assert.deepEqual(
      hist.map((h) => [h.verb, h.actor_id]),
      [
        ['created', guest.userId],
        ['updated', guest.userId],
        ['deleted', owner.userId],
      ],
    );
    const e1 = await t.api
      .post(p(`issues/${issue.id}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: 'a', external_id: 'c1', external_source: 'slack' });
    const dup = assertError(
      await t.api
        .post(p(`issues/${issue.id}/comments/`))
        .set('X-API-Key', key)
        .send({ comment_html: 'b', external_id: 'c1', external_source: 'slack' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(dup.id, e1.body.id);
    assertError(
      await t.api
        .post(p(`issues/${issue.id}/comments/`))
        .set('X-API-Key', key)
        .send({ access: 'PUBLIC' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('links: http(s) URL required, a URL once per work item (409), update, soft delete, history', async () => {
    const l = await t.api
      .post(p(`work-items/${issue.id}/links/`))
      .set('X-API-Key', key)
      .send({ url: 'https://example.com/a', title: 'A' });
    assert.equal(l.status, 201, JSON.stringify(l.body));
    assert.equal(l.body.url, 'https://example.com/a');
    assert.equal(l.body.title, 'A');
    assert.deepEqual(l.body.metadata, {});
    const dup = assertError(
      await t.api
        .post(p(`issues/${issue.id}/links/`))
        .set('X-API-Key', key)
        .send({ url: 'https://example.com/a' }),
      409,
      'LINK_URL_TAKEN',
    );
    assert.equal(dup.id, l.body.id);
    for (const url of ['ftp://example.com/x', 'not a url', '']) {
      assertError(
        await t.api
          .post(p(`issues/${issue.id}/links/`))
          .set('X-API-Key', key)
          .send({ url }),
        422,
        'VALIDATION_ERROR',
      );
    }
    assertError(
      await t.api
        .post(p(`issues/${issue.id}/links/`))
        .set('X-API-Key', key)
        .send({ title: 'no url' }),
      422,
      'VALIDATION_ERROR',
    );
    // the same URL on another work item is fine
    const other = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Other' })).body;
    assert.equal(
      (
        await t.api
          .post(p(`issues/${other.id}/links/`))
          .set('X-API-Key', key)
          .send({ url: 'https://example.com/a' })
      ).status,
      201,
    );
    const l2 = await t.api
      .post(p(`issues/${issue.id}/links/`))
      .set('X-API-Key', key)
      .send({ url: 'http://localhost:3000/b' });
    assert.equal(l2.status, 201, JSON.stringify(l2.body));
    assertError(
      await t.api
        .patch(p(`issues/${issue.id}/links/${l2.body.id}/`))
        .set('X-API-Key', key)
        .send({ url: 'https://example.com/a' }),
      409,
      'LINK_URL_TAKEN',
    );
    const upd = await t.api
      .patch(p(`issues/${issue.id}/links/${l2.body.id}/`))
      .set('X-API-Key', key)
      .send({ url: 'https://example.com/c', title: 'C' });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.url, 'https://example.com/c');
    const list = await t.api.get(p(`work-items/${issue.id}/links/`)).set('X-API-Key', key);
    assert.deepEqual(
      list.body.results.map((x: { id: string }) => x.id),
      [l2.body.id, l.body.id],
    );
    const one = await t.api.get(p(`issues/${issue.id}/links/${l.body.id}/?fields=url`)).set('X-API-Key', key);
    assert.deepEqual(one.body, { url: 'https://example.com/a' });
    assert.equal((await t.api.delete(p(`issues/${issue.id}/links/${l.body.id}/`)).set('X-API-Key', key)).status, 204);
    // freed once deleted
    assert.equal(
      (
        await t.api
          .post(p(`issues/${issue.id}/links/`))
          .set('X-API-Key', key)
          .send({ url: 'https://example.com/a' })
      ).status,
      201,
    );
    const acts = (await t.api.get(p(`issues/${issue.id}/activities/`)).set('X-API-Key', key)).body.results
      .filter((a: { field: string }) => a.field === 'link')
      .map((a: { verb: string; old_value: string | null; new_value: string | null }) => [
        a.verb,
        a.old_value,
        a.new_value,
      ]);
    assert.deepEqual(acts, [
      ['created', null, 'https://example.com/a'],
      ['created', null, 'http://localhost:3000/b'],
      ['updated', 'http://localhost:3000/b', 'https://example.com/c'],
      ['updated', null, 'C'],
      ['deleted', 'https://example.com/a', ''],
      ['created', null, 'https://example.com/a'],
    ]);
  });

  it('ids of another work item or project are 404', async () => {
    const other = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Elsewhere' })).body;
    const c = (
      await t.api
        .post(p(`issues/${other.id}/comments/`))
        .set('X-API-Key', key)
        .send({ comment_html: 'x' })
    ).body;
    const l = (
      await t.api
        .post(p(`issues/${other.id}/links/`))
        .set('X-API-Key', key)
        .send({ url: 'https://x.org' })
    ).body;
    assertError(await t.api.get(p(`issues/${issue.id}/comments/${c.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .patch(p(`issues/${issue.id}/links/${l.id}/`))
        .set('X-API-Key', key)
        .send({ title: 'x' }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(p(`issues/00000000-0000-4000-8000-000000000000/links/`)).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.get(p(`issues/${issue.id}/activities/not-uuid/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });
});
