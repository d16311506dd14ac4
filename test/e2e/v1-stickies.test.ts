import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createWorkspace, setWorkspaceRole, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: stickies', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  const s = (path = '') => `/api/v1/workspaces/${ws.slug}/stickies/${path}`;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
  });
  after(() => t.close());

  it('create 201 with defaults, owner and growing sort_order; retrieve; update; delete', async () => {
    const a = await t.api
      .post(s())
      .set('X-API-Key', key)
      .send({ name: 'Todo', description_html: '<p>buy <b>milk</b></p>', color: '#ffcc00', logo_props: { emoji: 'x' } });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(a.body.owner, owner.userId);
    assert.equal(a.body.workspace, ws.id);
    assert.equal(a.body.description_stripped, 'buy milk');
    assert.equal(a.body.color, '#ffcc00');
    assert.deepEqual(a.body.logo_props, { emoji: 'x' });
    assert.equal(a.body.sort_order, 65535);
    const b = await t.api.post(s()).set('X-API-Key', key).set('Content-Type', 'application/json');
    assert.equal(b.status, 201);
    assert.equal(b.body.name, null);
    assert.equal(b.body.description_html, '<p></p>');
    assert.equal(b.body.sort_order, 75535);
    assert.equal((await t.api.get(s(`${a.body.id}/`)).set('X-API-Key', key)).body.name, 'Todo');
    const upd = await t.api
      .patch(s(`${a.body.id}/`))
      .set('X-API-Key', key)
      .send({ name: 'Done', background_color: '#000000', owner: 'ignored' });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.equal(upd.body.name, 'Done');
    assert.equal(upd.body.background_color, '#000000');
    assert.equal(upd.body.owner, owner.userId);
    assert.equal((await t.api.delete(s(`${b.body.id}/`)).set('X-API-Key', key)).status, 204);
    assertError(await t.api.get(s(`${b.body.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.post(s()).set('X-API-Key', key).send({ color: 5 }), 422, 'VALIDATION_ERROR');
    assertError(await t.api.post(s()).set('X-API-Key', key).send({ pinned: true }), 422, 'VALIDATION_ERROR');
    assertError(await t.api.get(s('nope/')).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it("list: newest first, 20 per page by default with Plane's envelope, search", async () => {
    for (let n = 0; n < 22; n++)
      await t.api
        .post(s())
        .set('X-API-Key', key)
        .send({ name: `note ${n}` });
    const first = await t.api.get(s()).set('X-API-Key', key);
    assert.equal(first.status, 200);
    assert.equal(first.body.results.length, 20);
    assert.equal(first.body.total_count, 23);
    assert.equal(first.body.next_page_results, true);
    assert.equal(first.body.results[0].name, 'note 21');
    const second = await t.api.get(s()).query({ cursor: first.body.next_cursor }).set('X-API-Key', key);
    assert.deepEqual(
      second.body.results.map((x: { name: string }) => x.name),
      ['note 1', 'note 0', 'Done'],
    );
    const big = await t.api.get(s()).query({ per_page: 100 }).set('X-API-Key', key);
    assert.equal(big.body.results.length, 23);
    const found = await t.api.get(s()).query({ search: 'MILK' }).set('X-API-Key', key);
    assert.deepEqual(
      found.body.results.map((x: { name: string }) => x.name),
      ['Done'],
    );
  });

  it("another member sees none of the owner's stickies (list empty, 404 on read, write and delete); guests have their own", async () => {
    const mine = (await t.api.get(s()).set('X-API-Key', key)).body.results[0];
    const guest = await signUp(t);
    await addMember(t, ws.id, guest.userId, 20);
    const gk = await createApiKey(t, guest.token, ws.slug);
    await setWorkspaceRole(t, ws.id, guest.userId, 5);
    assert.equal((await t.api.get(s()).set('X-API-Key', gk)).body.total_count, 0);
    assertError(await t.api.get(s(`${mine.id}/`)).set('X-API-Key', gk), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .patch(s(`${mine.id}/`))
        .set('X-API-Key', gk)
        .send({ name: 'x' }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(s(`${mine.id}/`)).set('X-API-Key', gk), 404, 'NOT_FOUND');
    const own = await t.api.post(s()).set('X-API-Key', gk).send({ name: 'guest note' });
    assert.equal(own.status, 201);
    assert.equal(own.body.sort_order, 65535);
    assert.deepEqual(
      (await t.api.get(s()).set('X-API-Key', gk)).body.results.map((x: { id: string }) => x.id),
      [own.body.id],
    );
    // another workspace's key cannot reach this workspace
    const stranger = await signUp(t);
    const ws2 = await createWorkspace(t, stranger.token);
    const k2 = await createApiKey(t, stranger.token, ws2.slug);
    assert.equal((await t.api.get(s()).set('X-API-Key', k2)).status, 403);
  });
});
