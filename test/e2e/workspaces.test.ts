import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const ENVELOPE_KEYS = [
  'count',
  'extra_stats',
  'grouped_by',
  'next_cursor',
  'next_page_results',
  'prev_cursor',
  'prev_page_results',
  'results',
  'sub_grouped_by',
  'total_count',
  'total_pages',
  'total_results',
];

describe('App API: GET and POST /api/workspaces/', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('creates a workspace with 201 and makes the creator its Admin (role 20)', async () => {
    const u = await signUp(t);
    const slug = unique('acme-');
    const res = await t.api.post('/api/workspaces/').auth(u.token, { type: 'bearer' }).send({ name: 'Acme', slug });
    assert.equal(res.status, 201);
    assert.equal(res.body.slug, slug);
    assert.equal(res.body.name, 'Acme');
    assert.equal(res.body.owner, u.userId);
    assert.equal(res.body.role, 20);
    assert.equal(res.body.total_members, 1);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.match(res.body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const [m] = await t.sql<{ role: number }>(
      'SELECT role FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [res.body.id, u.userId],
    );
    assert.equal(m.role, 20);
  });

  it('lists only the caller’s workspaces, in the page envelope, with the caller’s role', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const wa = await createWorkspace(t, a.token);
    await createWorkspace(t, b.token);
    const res = await t.api.get('/api/workspaces/').auth(a.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ENVELOPE_KEYS);
    assert.deepEqual(
      res.body.results.map((w: { slug: string }) => w.slug),
      [wa.slug],
    );
    assert.equal(res.body.results[0].role, 20);
    assert.equal(res.body.total_count, 1);
    assert.equal(res.body.next_cursor, null);
    assert.equal(res.body.prev_cursor, null);
    assert.equal(res.body.extra_stats, null);
  });

  it('refuses a taken slug with 409, also when it differs only by a deleted workspace', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const dup = await t.api
      .post('/api/workspaces/')
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'Again', slug: w.slug });
    assertError(dup, 409, 'WORKSPACE_SLUG_TAKEN');
    await t.sql('UPDATE workspaces SET deleted_at = now() WHERE id = $1', [w.id]);
    const reuse = await t.api
      .post('/api/workspaces/')
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'Again', slug: w.slug });
    assertError(reuse, 409, 'WORKSPACE_SLUG_TAKEN');
  });

  it('rejects restricted and malformed slugs and bad names with 422, ignores unknown fields', async () => {
    const u = await signUp(t);
    for (const slug of ['api', 'god-mode', 'Instances', 'has space', 'x'.repeat(49), '']) {
      const res = await t.api.post('/api/workspaces/').auth(u.token, { type: 'bearer' }).send({ name: 'N', slug });
      const body = assertError(res, 422, 'VALIDATION_ERROR');
      assert.ok((body.errors as Record<string, unknown>).slug, slug);
    }
    const long = await t.api
      .post('/api/workspaces/')
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'n'.repeat(81), slug: unique('ok-') });
    assert.ok((assertError(long, 422, 'VALIDATION_ERROR').errors as Record<string, unknown>).name);
    const extra = await t.api
      .post('/api/workspaces/')
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'N', slug: unique('ok-'), owner: '00000000-0000-4000-8000-000000000000' });
    // an unknown field is ignored on the App API, as Plane's serializer does: the caller owns it
    assert.equal(extra.status, 201, JSON.stringify(extra.body));
    const [row] = await t.sql<{ owner_id: string }>('SELECT owner_id FROM workspaces WHERE id = $1', [extra.body.id]);
    assert.equal(row.owner_id, u.userId);
  });

  it('pages with per_page on the App API (default 100)', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 3; i++) await createWorkspace(t, u.token);
    const first = await t.api.get('/api/workspaces/?per_page=2').auth(u.token, { type: 'bearer' });
    assert.equal(first.body.count, 2);
    assert.equal(first.body.total_pages, 2);
    assert.equal(first.body.next_page_results, true);
    const second = await t.api
      .get(`/api/workspaces/?per_page=2&cursor=${first.body.next_cursor}`)
      .auth(u.token, { type: 'bearer' });
    assert.equal(second.body.count, 1);
    assert.equal(second.body.next_cursor, null);
    assert.equal(second.body.prev_page_results, true);
    const all = await t.api.get('/api/workspaces/').auth(u.token, { type: 'bearer' });
    assert.equal(all.body.count, 3);
    assert.equal(all.body.total_pages, 1);
  });
});
