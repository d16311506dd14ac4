import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createWorkspace, membershipId, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/**
 * The last two App API routes of Plane 0.25.3 (issue #21): a member's own view settings of the
 * workspace (`POST workspace-views/`, read back by `workspace-members/me/`) and the workspace's
 * service token (`POST service-api-tokens/`: answered again with 200, kept sealed at rest).
 */
describe('App API: workspace-views/ and service-api-tokens/', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin (creator)
  let abe: SignedUp; // second workspace Admin
  let max: SignedUp; // workspace Member
  let gus: SignedUp; // workspace Guest
  let eve: SignedUp; // Admin of another workspace only
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const views = (slug: string) => `/api/workspaces/${slug}/workspace-views/`;
  const me = (slug: string) => `/api/workspaces/${slug}/workspace-members/me/`;
  const service = (slug: string) => `/api/workspaces/${slug}/service-api-tokens/`;
  const v1 = (slug: string, key: string) => t.api.get(`/api/v1/workspaces/${slug}/projects/`).set('X-API-Key', key);

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    abe = await signUp(t);
    max = await signUp(t);
    gus = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, abe.userId, 20);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
  });
  after(() => t.close());

  describe('workspace-views/', () => {
    it('saves the caller’s own view_props (204), read back by workspace-members/me/ and by no one else', async () => {
      const before = await t.api.get(me(ws.slug)).set(bearer(max));
      assert.equal(before.status, 200, JSON.stringify(before.body));
      // never saved: Plane's default props
      assert.equal(before.body.view_props.display_filters.layout, 'list');
      assert.equal(before.body.view_props.display_filters.order_by, '-created_at');
      assert.deepEqual(before.body.default_props, before.body.view_props);
      assert.deepEqual(before.body.issue_props, { subscribed: true, assigned: true, created: true, all_issues: true });
      assert.equal(before.body.draft_issue_count, 0);
      assert.equal(before.body.member.id, max.userId);

      const props = {
        filters: { priority: ['urgent'], state: null },
        display_filters: { layout: 'kanban', group_by: 'state', order_by: 'sort_order' },
        display_properties: { key: false, labels: true },
      };
      const saved = await t.api.post(views(ws.slug)).set(bearer(max)).send({ view_props: props });
      assert.equal(saved.status, 204, JSON.stringify(saved.body));
      assert.equal(saved.text, '');
      const [row] = await t.sql<{ view_props: unknown }>(
        'SELECT view_props FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
        [ws.id, max.userId],
      );
      assert.deepEqual(row.view_props, props);
      const after = await t.api.get(me(ws.slug)).set(bearer(max));
      assert.deepEqual(after.body.view_props, props);
      assert.equal(after.body.default_props.display_filters.layout, 'list');

      // the others' settings are untouched, in this workspace and the caller's other one
      const ada1 = await t.api.get(me(ws.slug)).set(bearer(ada));
      assert.equal(ada1.body.view_props.display_filters.layout, 'list');
      // the member list never carries anyone's view settings
      const list = await t.api.get(`/api/workspaces/${ws.slug}/members/`).set(bearer(ada));
      assert.equal(list.status, 200);
      assert.ok(!JSON.stringify(list.body).includes('kanban'));

      // sent again: replaced as a whole, not merged
      const replaced = await t.api
        .post(views(ws.slug))
        .set(bearer(max))
        .send({ view_props: { display_filters: { layout: 'spreadsheet' } } });
      assert.equal(replaced.status, 204);
      assert.deepEqual((await t.api.get(me(ws.slug)).set(bearer(max))).body.view_props, {
        display_filters: { layout: 'spreadsheet' },
      });
    });

    it('Guests and Admins too; without view_props Plane stores {}; the draft count is the caller’s own', async () => {
      assert.equal(
        (
          await t.api
            .post(views(ws.slug))
            .set(bearer(gus))
            .send({ view_props: { display_filters: { layout: 'gantt' } } })
        ).status,
        204,
      );
      assert.equal((await t.api.get(me(ws.slug)).set(bearer(gus))).body.view_props.display_filters.layout, 'gantt');
      const empty = await t.api.post(views(ws.slug)).set(bearer(ada)).send({});
      assert.equal(empty.status, 204, JSON.stringify(empty.body));
      assert.deepEqual((await t.api.get(me(ws.slug)).set(bearer(ada))).body.view_props, {});
      // unknown keys are dropped as on every App API body
      assert.equal(
        (
          await t.api
            .post(views(ws.slug))
            .set(bearer(ada))
            .send({ view_props: { a: 1 }, default_props: {} })
        ).status,
        204,
      );
      assert.deepEqual((await t.api.get(me(ws.slug)).set(bearer(ada))).body.view_props, { a: 1 });

      const draft = await t.api.post(`/api/workspaces/${ws.slug}/draft-issues/`).set(bearer(ada)).send({ name: 'd' });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      assert.equal((await t.api.get(me(ws.slug)).set(bearer(ada))).body.draft_issue_count, 1);
      assert.equal((await t.api.get(me(ws.slug)).set(bearer(max))).body.draft_issue_count, 0);
    });

    it('bad input: 422 VALIDATION_ERROR (not an object, null), 400 for a body that is not a JSON object', async () => {
      for (const bad of [[1, 2], 'list', 3, true, null]) {
        const res = assertError(
          await t.api.post(views(ws.slug)).set(bearer(max)).send({ view_props: bad }),
          422,
          'VALIDATION_ERROR',
        );
        assert.ok((res.errors as Record<string, unknown>).view_props, JSON.stringify(res));
      }
      assertError(
        await t.api
          .post(views(ws.slug))
          .set(bearer(max))
          .set('Content-Type', 'application/json')
          .send('{"view_props":'),
        400,
        'MALFORMED_JSON',
      );
      assertError(
        await t.api.post(views(ws.slug)).set(bearer(max)).set('Content-Type', 'application/json').send('[1]'),
        400,
        'MALFORMED_REQUEST',
      );
      // nothing of that was stored
      assert.deepEqual((await t.api.get(me(ws.slug)).set(bearer(max))).body.view_props, {
        display_filters: { layout: 'spreadsheet' },
      });
    });

    it('non-members 404, anonymous 401, and a removed member can no longer save', async () => {
      assertError(
        await t.api.post(views(ws.slug)).set(bearer(eve)).send({ view_props: {} }),
        404,
        'WORKSPACE_NOT_FOUND',
      );
      assertError(await t.api.post(views('no-such-workspace')).set(bearer(ada)).send({}), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await t.api.post(views(ws.slug)).send({ view_props: {} }), 401, 'AUTHENTICATION_REQUIRED');
      assertError(await t.api.get(views(ws.slug)).set(bearer(ada)), 405, 'METHOD_NOT_ALLOWED');

      const leaver = await signUp(t);
      await addMember(t, ws.id, leaver.userId, 15);
      const row = await membershipId(t, ws.id, leaver.userId);
      assert.equal((await t.api.delete(`/api/workspaces/${ws.slug}/members/${row}/`).set(bearer(ada))).status, 204);
      assertError(
        await t.api
          .post(views(ws.slug))
          .set(bearer(leaver))
          .send({ view_props: { x: 1 } }),
        404,
        'WORKSPACE_NOT_FOUND',
      );
      const [stored] = await t.sql<{ view_props: unknown }>(
        'SELECT view_props FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
        [ws.id, leaver.userId],
      );
      assert.equal(stored.view_props, null);
    });
  });

  describe('service-api-tokens/', () => {
    it('201 with a new service token, then 200 with the same one for every Admin; it authenticates as X-API-Key', async () => {
      const first = await t.api.post(service(ws.slug)).set(bearer(ada));
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual(Object.keys(first.body), ['token']);
      const token = first.body.token as string;
      assert.match(token, /^plane_api_[0-9a-f]{32}$/);

      const again = await t.api.post(service(ws.slug)).set(bearer(ada)).send({ label: 'ignored' });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(again.body, { token });
      const byAbe = await t.api.post(service(ws.slug)).set(bearer(abe));
      assert.equal(byAbe.status, 200);
      assert.deepEqual(byAbe.body, { token });

      const rows = await t.sql<{
        token_digest: string;
        token_sealed: string;
        is_service: boolean;
        description: string;
        user_id: string;
        is_active: boolean;
      }>('SELECT * FROM api_tokens WHERE workspace_id = $1 AND is_service = true AND deleted_at IS NULL', [ws.id]);
      assert.equal(rows.length, 1);
      const [row] = rows;
      assert.equal(row.token_digest, sha256(token));
      assert.equal(row.description, 'Service Token');
      assert.equal(row.user_id, ada.userId);
      assert.equal(row.is_active, true);
      // sealed at rest: neither the key nor its random part in clear
      assert.match(row.token_sealed, /^v1:[\w-]+:[\w-]+:[\w-]+$/);
      assert.ok(!row.token_sealed.includes(token.slice('plane_api_'.length)));
      // no other stored column holds it either
      const dump = JSON.stringify(await t.sql('SELECT * FROM api_tokens WHERE workspace_id = $1', [ws.id]));
      assert.ok(!dump.includes(token.slice('plane_api_'.length)));

      assert.equal((await v1(ws.slug, token)).status, 200);
      assertError(await v1(other.slug, token), 403, 'API_KEY_WORKSPACE_MISMATCH');
    });

    it('is never listed or shown by api-tokens/, nor changed or deleted through it', async () => {
      const { token } = (await t.api.post(service(ws.slug)).set(bearer(ada))).body as { token: string };
      const [{ id }] = await t.sql<{ id: string }>(
        'SELECT id FROM api_tokens WHERE workspace_id = $1 AND is_service = true AND deleted_at IS NULL',
        [ws.id],
      );
      const own = await t.api.post(`/api/workspaces/${ws.slug}/api-tokens/`).set(bearer(ada)).send({ label: 'mine' });
      assert.equal(own.status, 201);
      const list = await t.api.get(`/api/workspaces/${ws.slug}/api-tokens/`).set(bearer(ada));
      assert.equal(list.status, 200);
      const ids = (list.body as Array<{ id: string; is_service: boolean }>).map((k) => k.id);
      assert.ok(ids.includes(own.body.id));
      assert.ok(!ids.includes(id));
      assert.ok(!JSON.stringify(list.body).includes(token));
      assert.ok(!JSON.stringify(list.body).includes('v1:'));
      assert.equal(own.body.is_service, false);
      assert.equal(own.body.token_sealed, undefined);
      const path = `/api/workspaces/${ws.slug}/api-tokens/${id}/`;
      assertError(await t.api.get(path).set(bearer(ada)), 404, 'NOT_FOUND');
      assertError(await t.api.patch(path).set(bearer(ada)).send({ is_active: false }), 404, 'NOT_FOUND');
      assertError(await t.api.delete(path).set(bearer(ada)), 404, 'NOT_FOUND');
      assert.equal((await v1(ws.slug, token)).status, 200);
    });

    it('workspace Admins only: Members and Guests 403, non-members 404, anonymous 401; one token per workspace', async () => {
      assertError(await t.api.post(service(ws.slug)).set(bearer(max)), 403, 'PERMISSION_DENIED');
      assertError(await t.api.post(service(ws.slug)).set(bearer(gus)), 403, 'PERMISSION_DENIED');
      assertError(await t.api.post(service(ws.slug)).set(bearer(eve)), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await t.api.post(service(ws.slug)), 401, 'AUTHENTICATION_REQUIRED');
      assertError(await t.api.get(service(ws.slug)).set(bearer(ada)), 405, 'METHOD_NOT_ALLOWED');
      // an API key (even the service token) cannot reach the App API
      const { token } = (await t.api.post(service(ws.slug)).set(bearer(ada))).body as { token: string };
      assert.equal((await t.api.post(service(ws.slug)).set('X-API-Key', token)).status, 401);

      const theirs = await t.api.post(service(other.slug)).set(bearer(eve));
      assert.equal(theirs.status, 201);
      assert.notEqual(theirs.body.token, token);
    });

    it('concurrent first calls answer one token, created once', async () => {
      const boss = await signUp(t);
      const fresh = await createWorkspace(t, boss.token);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => t.api.post(service(fresh.slug)).set(bearer(boss))),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [200, 200, 200, 200, 200, 201],
        JSON.stringify(answers.map((a) => a.body)),
      );
      assert.equal(new Set(answers.map((a) => a.body.token)).size, 1);
      const [{ n }] = await t.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_tokens WHERE workspace_id = $1 AND is_service = true',
        [fresh.id],
      );
      assert.equal(n, 1);
    });

    it('a token that no longer works (its Admin removed) or cannot be unsealed is replaced: 201, the old one 401', async () => {
      const boss = await signUp(t);
      const second = await signUp(t);
      const fresh = await createWorkspace(t, boss.token);
      await addMember(t, fresh.id, second.userId, 20);
      const first = (await t.api.post(service(fresh.slug)).set(bearer(second))).body.token as string;
      assert.equal((await v1(fresh.slug, first)).status, 200);
      // its owner is removed: the key stops at once, and the next call makes a new one for the caller
      const row = await membershipId(t, fresh.id, second.userId);
      assert.equal((await t.api.delete(`/api/workspaces/${fresh.slug}/members/${row}/`).set(bearer(boss))).status, 204);
      assertError(await v1(fresh.slug, first), 401, 'INVALID_API_KEY');
      const replaced = await t.api.post(service(fresh.slug)).set(bearer(boss));
      assert.equal(replaced.status, 201, JSON.stringify(replaced.body));
      const next = replaced.body.token as string;
      assert.notEqual(next, first);
      assert.equal((await v1(fresh.slug, next)).status, 200);
      const [owner] = await t.sql<{ user_id: string }>(
        'SELECT user_id FROM api_tokens WHERE workspace_id = $1 AND is_service = true AND deleted_at IS NULL',
        [fresh.id],
      );
      assert.equal(owner.user_id, boss.userId);

      // sealed under another SECRET_KEY (or damaged): it cannot be answered again, so it is replaced
      await t.sql(
        `UPDATE api_tokens SET token_sealed = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' WHERE workspace_id = $1 AND is_service = true AND deleted_at IS NULL`,
        [fresh.id],
      );
      const resealed = await t.api.post(service(fresh.slug)).set(bearer(boss));
      assert.equal(resealed.status, 201, JSON.stringify(resealed.body));
      assert.notEqual(resealed.body.token, next);
      assertError(await v1(fresh.slug, next), 401, 'INVALID_API_KEY');
      assert.equal((await v1(fresh.slug, resealed.body.token)).status, 200);
      assert.equal((await t.api.post(service(fresh.slug)).set(bearer(boss))).status, 200);
    });
  });
});
