import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { JobRunner, recordAudit } from '#domain';
import {
  addMember,
  addProjectMember,
  adminToken,
  assertError,
  configure,
  createAppProject,
  createWorkspace,
  membershipId,
  projectMembershipId,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { BrowserJar } from '../support/browser-jar';
import { MockOAuthProvider, startMockOAuthProvider } from '../support/oauth-provider';
import { OidcIdentity, startTestOidcProvider, TestOidcProvider } from '../support/oidc-provider';
import { startTestApp, TestApp } from '../support/test-app';

interface AuditRow {
  id: string;
  created_at: string;
  event: string;
  actor_id: string | null;
  actor_email: string | null;
  api_token_id: string | null;
  workspace_id: string | null;
  project_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  metadata: Record<string, unknown>;
}

const UA = 'audit-test/1.0 (e2e)';
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

/**
 * The audit log (docs/audit.md): every recorded event writes its row with the actor, address,
 * user agent, target and metadata, in the transaction of its change; the App API shows a
 * workspace's rows to its Admins only, the Instance API every row; filters, cursor pages, the
 * JSON-lines export; the retention job; the table refuses UPDATE, DELETE and TRUNCATE; no row
 * ever holds a secret.
 */
describe('audit log', () => {
  let t: TestApp;
  let admin: string; // instance admin token
  let ada: SignedUp; // Admin of workspace A
  let bob: SignedUp; // Member of workspace A
  let cyd: SignedUp; // Admin of workspace B
  let wsA: { id: string; slug: string };
  let wsB: { id: string; slug: string };
  const secrets: string[] = [];
  const bearer = (u: SignedUp | string) => ({
    Authorization: `Bearer ${typeof u === 'string' ? u : u.token}`,
    'User-Agent': UA,
  });

  /** The rows of `event` (oldest first), read from the table directly. */
  async function rows(event: string, where = '', params: unknown[] = []): Promise<AuditRow[]> {
    const found = await t.sql<AuditRow & { created_at: Date }>(
      `SELECT * FROM audit_logs WHERE event = $1 ${where} ORDER BY created_at, id`,
      [event, ...params],
    );
    return found.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  }

  /** The one row of `event` about `targetId`. */
  async function one(event: string, targetId: string): Promise<AuditRow> {
    const found = await rows(event, 'AND target_id = $2', [targetId]);
    assert.equal(found.length, 1, `${event} ${targetId}: ${JSON.stringify(found)}`);
    return found[0];
  }

  function assertRequestActor(row: AuditRow, user: SignedUp) {
    assert.equal(row.actor_id, user.userId);
    assert.equal(row.actor_email, user.email);
    assert.match(row.ip_address ?? '', LOOPBACK);
    assert.equal(row.user_agent, UA);
  }

  before(async () => {
    t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_WORKER: 'false', JOBS_BATCH_SIZE: '3' });
    admin = await adminToken(t);
    ada = await signUp(t);
    bob = await signUp(t);
    cyd = await signUp(t);
    secrets.push(ada.password, bob.password, cyd.password, ada.token, bob.token, cyd.token);
    wsA = await createWorkspace(t, ada.token);
    wsB = await createWorkspace(t, cyd.token);
    await addMember(t, wsA.id, bob.userId, 15);
  });
  after(() => t?.close());

  it('sign-in success and failure (password and magic code) and sign-out', async () => {
    const ok = await t.api
      .post('/auth/sign-in/')
      .set('User-Agent', UA)
      .send({ email: ada.email, password: ada.password });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    secrets.push(ok.body.access_token, ok.body.refresh_token);
    const signIns = await rows('auth.sign_in.succeeded', 'AND actor_id = $2', [ada.userId]);
    // the sign-up opened a session too
    assert.equal(signIns.length, 2);
    const last = signIns[1];
    assertRequestActor(last, ada);
    assert.equal(last.target_type, 'user');
    assert.equal(last.target_id, ada.userId);
    assert.equal(last.workspace_id, null);
    assert.equal(last.metadata.method, 'password');
    assert.equal(typeof last.metadata.session_id, 'string');

    const wrong = await t.api
      .post('/auth/sign-in/')
      .set('User-Agent', UA)
      .send({ email: ada.email, password: 'not the password 1' });
    assertError(wrong, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
    const nobody = `${unique('ghost')}@example.com`;
    const unknown = await t.api
      .post('/auth/sign-in/')
      .set('User-Agent', UA)
      .send({ email: nobody, password: 'whatever it is 1' });
    assertError(unknown, 401, 'AUTHENTICATION_FAILED_SIGN_IN');
    const failed = await rows('auth.sign_in.failed', 'AND actor_email = ANY($2)', [[ada.email, nobody]]);
    assert.equal(failed.length, 2);
    assert.equal(failed[0].actor_id, ada.userId);
    assert.equal(failed[0].target_id, ada.userId);
    assert.equal(failed[1].actor_id, null);
    assert.equal(failed[1].actor_email, nobody);
    for (const f of failed) {
      assert.deepEqual(f.metadata, { method: 'password', reason: 'AUTHENTICATION_FAILED_SIGN_IN' });
      assert.match(f.ip_address ?? '', LOOPBACK);
      assert.equal(f.user_agent, UA);
    }

    const magic = await t.api
      .post('/auth/magic-sign-in/')
      .set('User-Agent', UA)
      .send({ email: bob.email, code: '123456' });
    assert.ok(magic.status >= 400 && magic.status < 500, JSON.stringify(magic.body));
    const [m] = await rows('auth.sign_in.failed', 'AND actor_email = $2', [bob.email]);
    assert.equal(m.metadata.method, 'magic_code');
    assert.equal(m.metadata.reason, magic.body.error_code);
    secrets.push('123456');

    const out = await t.api.post('/auth/sign-out/').set(bearer(ok.body.access_token));
    assert.equal(out.status, 204);
    const [so] = await rows('auth.sign_out', 'AND actor_id = $2', [ada.userId]);
    assertRequestActor(so, ada);
    assert.equal(so.metadata.session_id, last.metadata.session_id);
  });

  it('instance admin sign-ins: success and failure', async () => {
    const [ok] = await rows('auth.sign_in.succeeded', "AND metadata->>'site' = 'instance_admin'");
    assert.equal(ok.actor_id, t.admin!.userId);
    assert.deepEqual(ok.metadata, { method: 'password', site: 'instance_admin' });
    const refused = await t.api
      .post('/api/instances/admins/sign-in/')
      .set('User-Agent', UA)
      .send({ email: ada.email, password: ada.password });
    assertError(refused, 401, 'ADMIN_AUTHENTICATION_FAILED');
    const [failed] = await rows('auth.sign_in.failed', "AND metadata->>'site' = 'instance_admin'");
    assertRequestActor(failed, ada);
    assert.deepEqual(failed.metadata, {
      method: 'password',
      site: 'instance_admin',
      reason: 'ADMIN_AUTHENTICATION_FAILED',
    });
  });

  it('password change (a refused one records nothing)', async () => {
    const res = await t.api
      .post('/auth/change-password/')
      .set(bearer(bob))
      .send({ old_password: bob.password, new_password: 'a brand new password 2' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    secrets.push('a brand new password 2');
    const [row] = await rows('user.password_changed', 'AND actor_id = $2', [bob.userId]);
    assertRequestActor(row, bob);
    assert.equal(row.target_id, bob.userId);
    assert.deepEqual(row.metadata, { via: 'change' });
    bob.password = 'a brand new password 2';

    const refused = await t.api
      .post('/auth/change-password/')
      .set(bearer(bob))
      .send({ old_password: 'not it at all 3', new_password: 'another password 4' });
    assert.equal(refused.status, 400);
    assert.equal((await rows('user.password_changed', 'AND actor_id = $2', [bob.userId])).length, 1);
  });

  it('API tokens and the service token: created and revoked', async () => {
    const created = await t.api
      .post(`/api/workspaces/${wsA.slug}/api-tokens/`)
      .set(bearer(ada))
      .send({ label: 'deploy bot', description: 'ci' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    secrets.push(created.body.token);
    const c = await one('api_token.created', created.body.id);
    assertRequestActor(c, ada);
    assert.equal(c.workspace_id, wsA.id);
    assert.equal(c.target_type, 'api_token');
    assert.deepEqual(c.metadata, { label: 'deploy bot', is_service: false, expires_at: null });

    // a request authenticated by that key records its id
    const byKey = await t.api
      .post(`/api/v1/workspaces/${wsA.slug}/projects/`)
      .set('X-API-Key', created.body.token)
      .set('User-Agent', UA)
      .send({ name: 'Keyed', identifier: 'KEYED' });
    assert.equal(byKey.status, 201, JSON.stringify(byKey.body));
    const del = await t.api
      .delete(`/api/v1/workspaces/${wsA.slug}/projects/${byKey.body.id}/`)
      .set('X-API-Key', created.body.token)
      .set('User-Agent', UA);
    assert.equal(del.status, 204);
    const pd = await one('project.deleted', byKey.body.id);
    assert.equal(pd.api_token_id, created.body.id);
    assert.equal(pd.actor_id, ada.userId);
    assert.equal(pd.project_id, byKey.body.id);
    assert.deepEqual(pd.metadata, { identifier: 'KEYED', name: 'Keyed' });

    const revoked = await t.api.delete(`/api/workspaces/${wsA.slug}/api-tokens/${created.body.id}/`).set(bearer(ada));
    assert.equal(revoked.status, 204);
    const r = await one('api_token.revoked', created.body.id);
    assertRequestActor(r, ada);
    assert.equal(r.metadata.via, 'deleted');

    const service = await t.api.post(`/api/workspaces/${wsA.slug}/service-api-tokens/`).set(bearer(ada));
    assert.equal(service.status, 201, JSON.stringify(service.body));
    secrets.push(service.body.token);
    const [s] = await rows('api_token.created', "AND workspace_id = $2 AND metadata->>'is_service' = 'true'", [wsA.id]);
    assertRequestActor(s, ada);
    // asking again answers the live one: nothing new recorded
    const again = await t.api.post(`/api/workspaces/${wsA.slug}/service-api-tokens/`).set(bearer(ada));
    assert.equal(again.status, 200);
    assert.equal((await rows('api_token.created', 'AND workspace_id = $2', [wsA.id])).length, 2);
  });

  it('members: invited, role changed, removed (and left)', async () => {
    const invitee = `${unique('inv')}@example.com`;
    const inv = await t.api
      .post(`/api/workspaces/${wsA.slug}/invitations/`)
      .set(bearer(ada))
      .send({ emails: [{ email: invitee, role: 15 }] });
    assert.equal(inv.status, 200, JSON.stringify(inv.body));
    const [i] = await rows('member.invited', "AND metadata->>'email' = $2", [invitee]);
    assertRequestActor(i, ada);
    assert.equal(i.workspace_id, wsA.id);
    assert.equal(i.target_type, 'workspace_invitation');
    assert.deepEqual(i.metadata, { email: invitee, role: 15 });
    const tokens = await t.sql<{ token_digest: string }>(
      `SELECT token_digest FROM workspace_member_invites WHERE email = $1`,
      [invitee],
    );
    secrets.push(tokens[0].token_digest);

    const dan = await signUp(t);
    await addMember(t, wsA.id, dan.userId, 5);
    const rowId = await membershipId(t, wsA.id, dan.userId);
    const up = await t.api.patch(`/api/workspaces/${wsA.slug}/members/${rowId}/`).set(bearer(ada)).send({ role: 15 });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const rc = await one('member.role_changed', rowId);
    assertRequestActor(rc, ada);
    assert.deepEqual(rc.metadata, { member_id: dan.userId, member_email: dan.email, old_role: 5, new_role: 15 });

    const rm = await t.api.delete(`/api/workspaces/${wsA.slug}/members/${rowId}/`).set(bearer(ada));
    assert.equal(rm.status, 204);
    const removed = await one('member.removed', rowId);
    assertRequestActor(removed, ada);
    assert.equal(removed.metadata.via, 'removed');
    assert.equal(removed.metadata.member_id, dan.userId);

    // a refused change records nothing: the last Admin cannot be demoted
    const self = await membershipId(t, wsA.id, ada.userId);
    const refused = await t.api
      .patch(`/api/workspaces/${wsA.slug}/members/${self}/`)
      .set(bearer(ada))
      .send({ role: 5 });
    assert.equal(refused.status, 403);
    assert.equal((await rows('member.role_changed', 'AND target_id = $2', [self])).length, 0);

    const eve = await signUp(t);
    await addMember(t, wsA.id, eve.userId, 15);
    const left = await t.api.post(`/api/workspaces/${wsA.slug}/members/leave/`).set(bearer(eve));
    assert.equal(left.status, 204);
    const [l] = await rows('member.removed', "AND metadata->>'via' = 'left' AND actor_id = $2", [eve.userId]);
    assertRequestActor(l, eve);
  });

  it('an account deactivated by its owner: user.deactivated and member.removed (via deactivated) per workspace', async () => {
    const fay = await signUp(t);
    secrets.push(fay.password, fay.token);
    await addMember(t, wsA.id, fay.userId, 15);
    await addMember(t, wsB.id, fay.userId, 5);
    const rowA = await membershipId(t, wsA.id, fay.userId);
    const rowB = await membershipId(t, wsB.id, fay.userId);
    const gone = await t.api.delete('/api/users/me/').set(bearer(fay));
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    const d = await one('user.deactivated', fay.userId);
    assertRequestActor(d, fay);
    assert.deepEqual(d.metadata, { email: fay.email, workspaces: 2 });
    for (const [rowId, ws, role] of [
      [rowA, wsA.id, 15],
      [rowB, wsB.id, 5],
    ] as const) {
      const removed = await one('member.removed', rowId);
      assertRequestActor(removed, fay);
      assert.equal(removed.workspace_id, ws);
      assert.deepEqual(removed.metadata, { member_id: fay.userId, member_email: fay.email, role, via: 'deactivated' });
    }
    // the workspace Admin reads their workspace's row through the API
    const mine = await t.api.get(`/api/workspaces/${wsA.slug}/audit-logs/?event=member.removed`).set(bearer(ada));
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.ok(
      mine.body.results.some((r: AuditRow) => r.target_id === rowA && r.metadata.via === 'deactivated'),
      JSON.stringify(mine.body.results),
    );

    // a refused deactivation records nothing: the workspace's only Admin with other members
    const before = (await rows('user.deactivated', 'AND target_id = $2', [ada.userId])).length;
    const refused = await t.api.delete('/api/users/me/').set(bearer(ada));
    assert.equal(refused.status, 400);
    assert.equal((await rows('user.deactivated', 'AND target_id = $2', [ada.userId])).length, before);
  });

  it('project members: invited, role changed, removed, left', async () => {
    const p = await createAppProject(t, ada.token, wsA.slug);
    const base = `/api/workspaces/${wsA.slug}/projects/${p.id}`;
    const invitee = `${unique('pinv')}@example.com`;
    const inv = await t.api
      .post(`${base}/invitations/`)
      .set(bearer(ada))
      .send({ emails: [{ email: invitee, role: 15 }] });
    assert.equal(inv.status, 200, JSON.stringify(inv.body));
    const [i] = await rows('member.invited', 'AND project_id = $2', [p.id]);
    assertRequestActor(i, ada);
    assert.equal(i.workspace_id, wsA.id);
    assert.equal(i.target_type, 'project_invitation');
    assert.deepEqual(i.metadata, { email: invitee, role: 15 });

    await addProjectMember(t, wsA.id, p.id, bob.userId, 5);
    const rowId = await projectMembershipId(t, p.id, bob.userId);
    const up = await t.api.patch(`${base}/members/${rowId}/`).set(bearer(ada)).send({ role: 15 });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const rc = await one('member.role_changed', rowId);
    assertRequestActor(rc, ada);
    assert.equal(rc.project_id, p.id);
    assert.deepEqual(rc.metadata, { member_id: bob.userId, old_role: 5, new_role: 15 });
    const rm = await t.api.delete(`${base}/members/${rowId}/`).set(bearer(ada));
    assert.equal(rm.status, 204);
    assert.equal((await one('member.removed', rowId)).metadata.via, 'removed');

    const q = await createAppProject(t, ada.token, wsA.slug);
    await addProjectMember(t, wsA.id, q.id, bob.userId, 15);
    const left = await t.api.post(`/api/workspaces/${wsA.slug}/projects/${q.id}/members/leave/`).set(bearer(bob));
    assert.equal(left.status, 204, JSON.stringify(left.body));
    const [l] = await rows('member.removed', 'AND project_id = $2', [q.id]);
    assertRequestActor(l, bob);
    assert.equal(l.metadata.via, 'left');
  });

  it('projects and workspaces deleted', async () => {
    const p = await createAppProject(t, ada.token, wsA.slug);
    const del = await t.api.delete(`/api/workspaces/${wsA.slug}/projects/${p.id}/`).set(bearer(ada));
    assert.equal(del.status, 204, JSON.stringify(del.body));
    const pd = await one('project.deleted', p.id);
    assertRequestActor(pd, ada);
    assert.equal(pd.workspace_id, wsA.id);
    assert.equal(pd.project_id, p.id);

    const gone = await createWorkspace(t, ada.token);
    const wd = await t.api.delete(`/api/workspaces/${gone.slug}/`).set(bearer(ada));
    assert.equal(wd.status, 204);
    const w = await one('workspace.deleted', gone.id);
    assertRequestActor(w, ada);
    assert.equal(w.workspace_id, gone.id);
    assert.deepEqual(w.metadata, { slug: gone.slug, name: `Workspace ${gone.slug}` });
  });

  it('instance settings changed: the keys, never the values', async () => {
    await configure(t, admin, { EMAIL_HOST_PASSWORD: 'smtp-secret-value-42', EMAIL_HOST: 'smtp.example.com' });
    secrets.push('smtp-secret-value-42');
    await configure(t, admin, { EMAIL_HOST_PASSWORD: null });
    const found = await rows('instance.settings_changed');
    assert.equal(found.length, 2);
    assert.equal(found[0].actor_id, t.admin!.userId);
    assert.match(found[0].ip_address ?? '', LOOPBACK);
    assert.deepEqual(found[0].metadata, { set: ['EMAIL_HOST_PASSWORD', 'EMAIL_HOST'], cleared: [] });
    assert.deepEqual(found[1].metadata, { set: [], cleared: ['EMAIL_HOST_PASSWORD'] });
    assert.ok(!JSON.stringify(found).includes('smtp.example.com'));

    const inst = await t.api.patch('/api/instances/').set(bearer(admin)).send({ instance_name: 'Audited' });
    assert.equal(inst.status, 200, JSON.stringify(inst.body));
    const [named] = await rows('instance.settings_changed', "AND target_type = 'instance' AND target_id IS NOT NULL");
    assert.deepEqual(named.metadata, { set: ['instance_name'] });
  });

  it('exports started and downloaded', async () => {
    const p = await createAppProject(t, ada.token, wsA.slug);
    const res = await t.api
      .post(`/api/workspaces/${wsA.slug}/export-issues/`)
      .set(bearer(ada))
      .send({ provider: 'csv', project: [p.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [started] = await rows('export.started', 'AND workspace_id = $2', [wsA.id]);
    assertRequestActor(started, ada);
    assert.equal(started.target_type, 'export');
    assert.deepEqual(started.metadata, { provider: 'csv', projects: [p.id] });

    let done: { id: string; status: string; url: string } | undefined;
    for (let i = 0; i < 400 && done?.status !== 'completed'; i++) {
      const list = await t.api
        .get(`/api/workspaces/${wsA.slug}/export-issues/?per_page=10&cursor=10:0:0`)
        .set(bearer(ada));
      done = list.body.results[0];
      if (done?.status === 'failed') assert.fail(JSON.stringify(done));
      if (done?.status !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(done?.status, 'completed');
    assert.equal(done!.id, started.target_id);
    const file = await t.api.get(new URL(done!.url).pathname).set(bearer(ada)).buffer(true);
    assert.equal(file.status, 200);
    const dl = await one('export.downloaded', done!.id);
    assertRequestActor(dl, ada);
    assert.deepEqual(dl.metadata, { provider: 'csv' });
  });

  it('webhooks created, updated, regenerated and deleted, without the URL’s path, query or secret', async () => {
    const url = 'http://127.0.0.1:9/hooks/in?token=hook-query-secret';
    secrets.push('hook-query-secret');
    const created = await t.api
      .post(`/api/workspaces/${wsA.slug}/webhooks/`)
      .set(bearer(ada))
      .send({ url, project: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    secrets.push(created.body.secret_key);
    const c = await one('webhook.created', created.body.id);
    assertRequestActor(c, ada);
    assert.deepEqual(c.metadata, { url_host: '127.0.0.1:9', is_active: true });

    const upd = await t.api
      .patch(`/api/workspaces/${wsA.slug}/webhooks/${created.body.id}/`)
      .set(bearer(ada))
      .send({ issue: true });
    assert.equal(upd.status, 200);
    const regen = await t.api
      .post(`/api/workspaces/${wsA.slug}/webhooks/${created.body.id}/regenerate/`)
      .set(bearer(ada));
    assert.equal(regen.status, 200);
    secrets.push(regen.body.secret_key);
    const updates = await rows('webhook.updated', 'AND target_id = $2', [created.body.id]);
    assert.deepEqual(
      updates.map((u) => u.metadata),
      [
        { fields: ['issue'], url_host: '127.0.0.1:9' },
        { regenerated: true, url_host: '127.0.0.1:9' },
      ],
    );

    const del = await t.api.delete(`/api/workspaces/${wsA.slug}/webhooks/${created.body.id}/`).set(bearer(ada));
    assert.equal(del.status, 204);
    assertRequestActor(await one('webhook.deleted', created.body.id), ada);
  });

  it('a change that rolls back leaves no row; metadata naming a secret is dropped', async () => {
    const ds = t.app.get(DataSource);
    const marker = unique('rollback');
    await assert.rejects(
      ds.transaction(async (em) => {
        await recordAudit(em, { event: 'webhook.deleted', actor: null, target: { type: 'webhook', id: marker } });
        throw new Error('the change fails after its audit row');
      }),
    );
    assert.equal((await rows('webhook.deleted', 'AND target_id = $2', [marker])).length, 0);

    await ds.transaction((em) =>
      recordAudit(em, {
        event: 'webhook.deleted',
        actor: null,
        target: { type: 'webhook', id: marker },
        metadata: { kept: 1, password: 'pw', nested: { api_key: 'k', client_secret: 's', ok: true }, token: 't' },
      }),
    );
    const [row] = await rows('webhook.deleted', 'AND target_id = $2', [marker]);
    assert.deepEqual(row.metadata, { kept: 1, nested: { ok: true } });
  });

  it('workspace Admins read their workspace’s log; Members and other workspaces cannot; instance admins read all', async () => {
    const mine = await t.api.get(`/api/workspaces/${wsA.slug}/audit-logs/`).set(bearer(ada));
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const results = mine.body.results as AuditRow[];
    assert.ok(results.length >= 10);
    assert.ok(results.every((r) => r.workspace_id === wsA.id));
    assert.ok(!results.some((r) => r.event.startsWith('auth.')));
    // newest first
    const times = results.map((r) => r.created_at);
    assert.deepEqual([...times].sort().reverse(), times);
    assert.equal(
      mine.body.total_count,
      Number(
        (await t.sql<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE workspace_id = $1`, [wsA.id]))[0].n,
      ),
    );

    assertError(await t.api.get(`/api/workspaces/${wsA.slug}/audit-logs/`).set(bearer(bob)), 403, 'PERMISSION_DENIED');
    const foreign = await t.api.get(`/api/workspaces/${wsB.slug}/audit-logs/`).set(bearer(ada));
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    const foreignExport = await t.api.get(`/api/workspaces/${wsB.slug}/audit-logs/export/`).set(bearer(ada));
    assert.equal(foreignExport.status, 404);
    assertError(
      await t.api.get(`/api/workspaces/${wsA.slug}/audit-logs/export/`).set(bearer(bob)),
      403,
      'PERMISSION_DENIED',
    );
    // an App API token is not an instance admin token
    assert.equal((await t.api.get('/api/instances/audit-logs/').set(bearer(ada))).status, 401);

    const all = await t.api.get('/api/instances/audit-logs/?per_page=1000').set(bearer(admin));
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const events = new Set((all.body.results as AuditRow[]).map((r) => r.event));
    for (const e of [
      'auth.sign_in.succeeded',
      'auth.sign_in.failed',
      'auth.sign_out',
      'user.password_changed',
      'api_token.created',
      'api_token.revoked',
      'member.invited',
      'member.role_changed',
      'member.removed',
      'workspace.deleted',
      'project.deleted',
      'instance.settings_changed',
      'export.started',
      'export.downloaded',
      'webhook.created',
      'webhook.updated',
      'webhook.deleted',
    ])
      assert.ok(events.has(e), `instance log has ${e}`);
    const ofB = await t.api.get(`/api/instances/audit-logs/?workspace=${wsB.id}`).set(bearer(admin));
    assert.equal(ofB.status, 200);
    assert.ok((ofB.body.results as AuditRow[]).every((r) => r.workspace_id === wsB.id));
  });

  it('filters: event, actor, project, from/to; bad values are 400', async () => {
    const base = `/api/workspaces/${wsA.slug}/audit-logs/`;
    const byEvent = await t.api.get(`${base}?event=webhook.created,webhook.deleted`).set(bearer(ada));
    assert.equal(byEvent.status, 200);
    assert.deepEqual(
      new Set((byEvent.body.results as AuditRow[]).map((r) => r.event)),
      new Set(['webhook.created', 'webhook.deleted']),
    );
    const byActor = await t.api.get(`${base}?actor=${bob.userId}`).set(bearer(ada));
    assert.equal(byActor.status, 200);
    assert.ok((byActor.body.results as AuditRow[]).every((r) => r.actor_id === bob.userId));
    const all = (await t.api.get(`${base}?per_page=1000`).set(bearer(ada))).body.results as AuditRow[];
    const withProject = all.find((r) => r.project_id);
    assert.ok(withProject);
    const byProject = await t.api.get(`${base}?project=${withProject.project_id}`).set(bearer(ada));
    assert.deepEqual(
      (byProject.body.results as AuditRow[]).map((r) => r.id),
      all.filter((r) => r.project_id === withProject.project_id).map((r) => r.id),
    );
    const middle = all[Math.floor(all.length / 2)].created_at;
    const since = await t.api.get(`${base}?per_page=1000&from=${encodeURIComponent(middle)}`).set(bearer(ada));
    assert.deepEqual(
      (since.body.results as AuditRow[]).map((r) => r.id),
      all.filter((r) => r.created_at >= middle).map((r) => r.id),
    );
    const until = await t.api.get(`${base}?per_page=1000&to=${encodeURIComponent(middle)}`).set(bearer(ada));
    assert.deepEqual(
      (until.body.results as AuditRow[]).map((r) => r.id),
      all.filter((r) => r.created_at < middle).map((r) => r.id),
    );
    for (const bad of ['event=nope', 'actor=12', 'from=yesterday', 'project=x', 'event=a&event=b'])
      assertError(await t.api.get(`${base}?${bad}`).set(bearer(ada)), 400, 'INVALID_QUERY_PARAMETER');
  });

  it('cursor pages walk every row once, in order', async () => {
    const base = `/api/workspaces/${wsA.slug}/audit-logs/`;
    const all = ((await t.api.get(`${base}?per_page=1000`).set(bearer(ada))).body.results as AuditRow[]).map(
      (r) => r.id,
    );
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const res: { status: number; body: { results: AuditRow[]; next_cursor: string | null } } = await t.api
        .get(`${base}?per_page=3${cursor ? `&cursor=${cursor}` : ''}`)
        .set(bearer(ada));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      walked.push(...(res.body.results as AuditRow[]).map((r) => r.id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(walked, all);
  });

  it('exports JSON lines, oldest first, with the filters', async () => {
    const res = await t.api
      .get(`/api/workspaces/${wsA.slug}/audit-logs/export/`)
      .set(bearer(ada))
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => cb(null, text));
      });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
    assert.match(String(res.headers['content-disposition']), new RegExp(`audit-log-${wsA.slug}\\.jsonl`));
    const text = res.body as string;
    assert.ok(text.endsWith('\n'));
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRow);
    const all = (
      (await t.api.get(`/api/workspaces/${wsA.slug}/audit-logs/?per_page=1000`).set(bearer(ada))).body
        .results as AuditRow[]
    ).map((r) => r.id);
    assert.deepEqual(
      lines.map((l) => l.id),
      [...all].reverse(),
    );

    const filtered = await t.api
      .get(`/api/instances/audit-logs/export/?event=auth.sign_out`)
      .set(bearer(admin))
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => cb(null, text));
      });
    assert.equal(filtered.status, 200);
    const outs = (filtered.body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRow);
    assert.ok(outs.length >= 1 && outs.every((o) => o.event === 'auth.sign_out'));
  });

  it('no row holds a secret', async () => {
    const dump = JSON.stringify(await t.sql(`SELECT * FROM audit_logs`));
    for (const s of secrets) assert.ok(!dump.includes(s), `a secret is in the audit log: ${s.slice(0, 6)}…`);
  });

  it('rows cannot be updated, deleted or truncated; delete-audit-logs deletes rows past AUDIT_LOG_RETENTION_DAYS', async () => {
    await assert.rejects(t.sql(`UPDATE audit_logs SET event = 'auth.sign_out'`), /append-only/);
    await assert.rejects(t.sql(`DELETE FROM audit_logs`), /append-only/);
    await assert.rejects(t.sql(`TRUNCATE audit_logs`), /append-only/);
    const before = Number((await t.sql<{ n: string }>(`SELECT count(*) AS n FROM audit_logs`))[0].n);
    await t.sql(
      `INSERT INTO audit_logs (event, created_at, metadata)
       SELECT 'auth.sign_out', now() - interval '400 days' - g * interval '1 minute', '{}' FROM generate_series(1, 7) g`,
    );
    await t.sql(`INSERT INTO audit_logs (event, created_at) VALUES ('auth.sign_out', now() - interval '300 days')`);
    const runner = t.app.get(JobRunner, { strict: false });
    const run = await runner.runNow('delete-audit-logs');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { audit_logs: 7 });
    const left = await t.sql<{ n: string; oldest: Date }>(
      `SELECT count(*) AS n, min(created_at) AS oldest FROM audit_logs`,
    );
    assert.equal(Number(left[0].n), before + 1);
    assert.ok(new Date(left[0].oldest).getTime() > Date.now() - 365 * 86_400_000);
  });
});

describe('audit log: OAuth sign-ins (a provider on loopback)', () => {
  let t: TestApp;
  let idp: MockOAuthProvider;
  before(async () => {
    idp = await startMockOAuthProvider();
    t = await startTestApp(idp.env);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
  });

  it('a completed GitHub sign-in records method github; a callback with a forged state records the failure', async () => {
    const email = `${unique('gh')}@example.com`;
    idp.next = { id: 4242, email, verified: true };
    const start = await t.api.get('/auth/github/').set('User-Agent', UA);
    assert.equal(start.status, 302);
    const cookie = (start.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const approved = await fetch(start.headers.location, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    const done = await t.api.get(`${back.pathname}${back.search}`).set('Cookie', cookie).set('User-Agent', UA);
    assert.equal(done.status, 302);
    const [ok] = await t.sql<AuditRow>(
      `SELECT * FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_email = $1`,
      [email],
    );
    assert.equal(ok.metadata.method, 'github');
    assert.equal(ok.user_agent, UA);
    assert.match(ok.ip_address ?? '', LOOPBACK);

    const forged = await t.api
      .get('/auth/github/callback/?state=forged&code=whatever')
      .set('Cookie', cookie)
      .set('User-Agent', UA);
    assert.equal(forged.status, 302);
    const failed = await t.sql<AuditRow>(`SELECT * FROM audit_logs WHERE event = 'auth.sign_in.failed'`);
    assert.equal(failed.length, 1);
    assert.deepEqual(failed[0].metadata, { method: 'github', reason: 'GITHUB_OAUTH_PROVIDER_ERROR' });
    assert.equal(failed[0].actor_id, null);
    assert.equal(failed[0].user_agent, UA);
    assert.ok(!JSON.stringify(failed).includes('whatever'));
  });
});

describe('audit log: OIDC sign-ins and the roles their groups give (oidc-provider on loopback)', () => {
  const WEB = 'http://web.meridian.test';
  let t: TestApp;
  let idp: TestOidcProvider;
  let owner: SignedUp;
  let ws: { id: string; slug: string };
  let connectionId: string;
  let early: SignedUp; // signed up with a password (an unverified email) before the domain had a connection
  const domain = `${unique('sso')}.test`.toLowerCase();
  before(async () => {
    idp = await startTestOidcProvider();
    t = await startTestApp({ WEB_URL: WEB });
    owner = await signUp(t);
    early = await signUp(t, `${unique('early')}@${domain}`);
    ws = await createWorkspace(t, owner.token);
    idp.clients.set('audit-client', {
      client_id: 'audit-client',
      client_secret: 'audit-client-secret',
      redirect_uris: [`${t.url}/auth/oidc/callback/`],
    });
    const created = await t.api
      .post('/api/instances/sso-connections/')
      .auth(await adminToken(t), { type: 'bearer' })
      .send({
        kind: 'oidc',
        name: 'Audit IdP',
        domains: [domain],
        settings: {
          issuer: idp.url,
          client_id: 'audit-client',
          client_secret: 'audit-client-secret',
          scopes: 'openid email profile groups',
        },
        group_role_mappings: [
          { group: 'admins', workspace_slug: ws.slug, role: 20 },
          { group: 'staff', workspace_slug: ws.slug, role: 15 },
        ],
      });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    connectionId = created.body.id;
  });
  after(async () => {
    await t?.close();
    await idp?.close();
  });

  /** Plane's sign-in form posted for `who`, then every redirect through the provider and back. */
  async function formSignIn(who: OidcIdentity): Promise<void> {
    idp.next = who;
    const browser = new BrowserJar();
    const csrf = (await (await browser.fetch(`${t.url}/auth/get-csrf-token/`)).json()) as { csrf_token: string };
    const posted = await browser.fetch(`${t.url}/auth/sign-in/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: WEB },
      body: new URLSearchParams({ email: who.email!, password: 'x', csrfmiddlewaretoken: csrf.csrf_token }).toString(),
    });
    assert.equal(posted.status, 302);
    const { landed } = await browser.navigate(
      posted.headers.get('location')!,
      (url) => url.startsWith(t.url) || url.startsWith(idp.url),
    );
    assert.ok(landed?.startsWith(WEB), `landed on ${landed}`);
  }

  it('a membership created or a role changed by the groups is member.role_changed (via sso_groups); an unchanged role records nothing', async () => {
    const email = `${unique('sam')}@${domain}`;
    const roleRows = () =>
      t.sql<AuditRow>(
        `SELECT * FROM audit_logs WHERE event = 'member.role_changed' AND actor_email = $1 ORDER BY created_at, id`,
        [email],
      );
    await formSignIn({ sub: 'sam-1', email, email_verified: true, groups: ['admins'] });
    const [signedIn] = await t.sql<AuditRow>(
      `SELECT * FROM audit_logs WHERE event = 'auth.sign_in.succeeded' AND actor_email = $1`,
      [email],
    );
    assert.deepEqual(
      { method: signedIn.metadata.method, connection: signedIn.metadata.connection },
      { method: 'oidc', connection: connectionId },
    );
    const userId = signedIn.actor_id!;
    const [member] = await t.sql<{ id: string; role: number }>(
      'SELECT id, role FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [ws.id, userId],
    );
    assert.equal(member.role, 20);
    const created = await roleRows();
    assert.equal(created.length, 1, JSON.stringify(created));
    assert.equal(created[0].workspace_id, ws.id);
    assert.equal(created[0].target_type, 'workspace_member');
    assert.equal(created[0].target_id, member.id);
    assert.equal(created[0].actor_id, userId);
    assert.match(created[0].ip_address ?? '', LOOPBACK);
    assert.deepEqual(created[0].metadata, {
      member_id: userId,
      member_email: email,
      old_role: null,
      new_role: 20,
      via: 'sso_groups',
      connection: connectionId,
    });
    // the same groups again: no change, no row; another group: the role changes, one row
    await formSignIn({ sub: 'sam-1', email, email_verified: true, groups: ['admins'] });
    assert.equal((await roleRows()).length, 1);
    await formSignIn({ sub: 'sam-1', email, email_verified: true, groups: ['staff'] });
    const changed = await roleRows();
    assert.equal(changed.length, 2);
    assert.deepEqual(
      { old_role: changed[1].metadata.old_role, new_role: changed[1].metadata.new_role, via: changed[1].metadata.via },
      { old_role: 20, new_role: 15, via: 'sso_groups' },
    );
    // the workspace's Admins read it in their log
    const log = await t.api
      .get(`/api/workspaces/${ws.slug}/audit-logs/?event=member.role_changed`)
      .auth(owner.token, { type: 'bearer' });
    assert.equal(log.status, 200, JSON.stringify(log.body));
    assert.equal((log.body.results as AuditRow[]).filter((r) => r.actor_email === email).length, 2);
    assert.ok(!JSON.stringify(await roleRows()).includes('audit-client-secret'));
  });

  it("the verified owner's first SSO sign-in clears a password registered before: user.password_changed (via cleared)", async () => {
    await formSignIn({ sub: 'early-1', email: early.email, email_verified: true });
    const changed = await t.sql<AuditRow>(
      `SELECT * FROM audit_logs WHERE event = 'user.password_changed' AND target_id = $1`,
      [early.userId],
    );
    assert.equal(changed.length, 1, JSON.stringify(changed));
    assert.equal(changed[0].actor_id, early.userId);
    assert.equal(changed[0].actor_email, early.email);
    assert.deepEqual(changed[0].metadata, { via: 'cleared', medium: 'sso' });
    const [user] = await t.sql<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [
      early.userId,
    ]);
    assert.equal(user.password_hash, null);
    // a second sign-in clears nothing more
    await formSignIn({ sub: 'early-1', email: early.email, email_verified: true });
    const again = await t.sql('SELECT id FROM audit_logs WHERE event = $1 AND target_id = $2', [
      'user.password_changed',
      early.userId,
    ]);
    assert.equal(again.length, 1);
  });
});
