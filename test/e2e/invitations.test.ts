import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createWorkspace, signUp, unique } from '../support/fixtures';
import { startMailCatcher } from '../support/mail-catcher';
import { startTestApp, TestApp } from '../support/test-app';

const WEB_URL = 'https://meridian.example.test';

describe('App API: workspace invitations, with email through a real SMTP server', () => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  before(async () => {
    mail = await startMailCatcher();
    t = await startTestApp({ ...mail.env, WEB_URL });
  });
  after(async () => {
    await t.close();
    await mail.close();
  });

  /** Invites `email` as `token`'s user and returns the link's parameters from the email received. */
  async function invite(token: string, slug: string, email: string, role = 15) {
    const res = await t.api
      .post(`/api/workspaces/${slug}/invitations/`)
      .auth(token, { type: 'bearer' })
      .send({ emails: [{ email, role }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Emails sent successfully' });
    const received = await mail.lastTo(email);
    const m = /(https:\/\/meridian\.example\.test\/workspace-invitations\/\?\S+)/.exec(received.text);
    assert.ok(m, received.text);
    const link = new URL(m[1]);
    return {
      id: link.searchParams.get('invitation_id')!,
      token: link.searchParams.get('token')!,
      email: link.searchParams.get('email')!,
      slug: link.searchParams.get('slug')!,
      text: received.text,
    };
  }

  it('invites by email, the link (from WEB_URL) lets an existing user accept, and they join with the role', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const bob = await signUp(t);
    const link = await invite(admin.token, w.slug, bob.email, 15);
    assert.equal(link.slug, w.slug);
    assert.equal(link.email, bob.email);
    assert.match(link.token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(link.text.includes(admin.email));
    // only a digest is stored
    const rows = await t.sql<{ token_digest: string }>(
      'SELECT token_digest FROM workspace_member_invites WHERE id = $1',
      [link.id],
    );
    assert.notEqual(rows[0].token_digest, link.token);

    const shown = await t.api
      .get(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`)
      .query({ token: link.token });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.email, bob.email);
    assert.equal(shown.body.role, 15);
    assert.equal(shown.body.workspace.slug, w.slug);
    assert.equal(shown.body.token, undefined);

    // the id and email alone are not enough
    assertError(await t.api.get(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`), 404, 'INVITATION_NOT_FOUND');
    assertError(
      await t.api
        .post(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`)
        .send({ email: bob.email, accepted: true, token: 'guess' }),
      404,
      'INVITATION_NOT_FOUND',
    );
    assertError(
      await t.api
        .post(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`)
        .send({ email: 'someone@else.test', accepted: true, token: link.token }),
      403,
      'INVITATION_EMAIL_MISMATCH',
    );
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/`).auth(bob.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );

    const joined = await t.api
      .post(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`)
      .send({ email: bob.email.toUpperCase(), accepted: true, token: link.token });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.deepEqual(joined.body, { message: 'Workspace Invitation Accepted' });
    const ws = await t.api.get(`/api/workspaces/${w.slug}/`).auth(bob.token, { type: 'bearer' });
    assert.equal(ws.status, 200);
    assert.equal(ws.body.role, 15);
    // the invitation is used up
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/invitations/${link.id}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'INVITATION_NOT_FOUND',
    );
  });

  it('declining is recorded and a second answer is a 400', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const email = `${unique('carol')}@example.com`;
    const link = await invite(admin.token, w.slug, email, 5);
    const path = `/api/workspaces/${w.slug}/invitations/${link.id}/join/`;
    const declined = await t.api.post(path).send({ email, accepted: false, token: link.token });
    assert.equal(declined.status, 200);
    assert.deepEqual(declined.body, { message: 'Workspace Invitation was not accepted' });
    assertError(
      await t.api.post(path).send({ email, accepted: true, token: link.token }),
      400,
      'INVITATION_ALREADY_RESPONDED',
    );
    const row = await t.api
      .get(`/api/workspaces/${w.slug}/invitations/${link.id}/`)
      .auth(admin.token, { type: 'bearer' });
    assert.equal(row.body.accepted, false);
    assert.ok(row.body.responded_at);
  });

  it('an invitee without an account: accepted by link joins at sign-up; others are accepted several at once', async () => {
    const a = await signUp(t);
    const w1 = await createWorkspace(t, a.token);
    const w2 = await createWorkspace(t, a.token);
    const w3 = await createWorkspace(t, a.token);
    const w4 = await createWorkspace(t, a.token);
    const email = `${unique('dave')}@example.com`;
    const l1 = await invite(a.token, w1.slug, email, 15);
    const l2 = await invite(a.token, w2.slug, email, 5);
    const l4 = await invite(a.token, w4.slug, email, 20);
    await invite(a.token, w3.slug, `${unique('other')}@example.com`, 5);
    // accepted through the link before the account exists: kept, and joined when the account is created
    const early = await t.api
      .post(`/api/workspaces/${w1.slug}/invitations/${l1.id}/join/`)
      .send({ email, accepted: true, token: l1.token });
    assert.equal(early.status, 200);
    assert.deepEqual(early.body, { message: 'Workspace Invitation Accepted' });

    const dave = await signUp(t, email);
    const joined = await t.api.get('/api/users/me/workspaces/').auth(dave.token, { type: 'bearer' });
    assert.deepEqual(
      joined.body.map((x: { slug: string; role: number }) => [x.slug, x.role]),
      [[w1.slug, 15]],
    );
    const mine = await t.api.get('/api/users/me/workspaces/invitations/').auth(dave.token, { type: 'bearer' });
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body.map((i: { id: string }) => i.id).sort(), [l2.id, l4.id].sort());
    assert.ok(mine.body.every((i: { email: string }) => i.email === email));

    // someone else's invitation cannot be accepted, and nothing is accepted then
    const foreign = await t.sql<{ id: string }>('SELECT id FROM workspace_member_invites WHERE workspace_id = $1', [
      w3.id,
    ]);
    assertError(
      await t.api
        .post('/api/users/me/workspaces/invitations/')
        .auth(dave.token, { type: 'bearer' })
        .send({ invitations: [l2.id, foreign[0].id] }),
      404,
      'INVITATION_NOT_FOUND',
    );
    const accepted = await t.api
      .post('/api/users/me/workspaces/invitations/')
      .auth(dave.token, { type: 'bearer' })
      .send({ invitations: [l2.id, l4.id] });
    assert.equal(accepted.status, 204, JSON.stringify(accepted.body));
    const workspaces = await t.api.get('/api/users/me/workspaces/').auth(dave.token, { type: 'bearer' });
    const roles = Object.fromEntries(workspaces.body.map((x: { slug: string; role: number }) => [x.slug, x.role]));
    assert.deepEqual(roles, { [w1.slug]: 15, [w2.slug]: 5, [w4.slug]: 20 });
    const after = await t.api.get('/api/users/me/workspaces/invitations/').auth(dave.token, { type: 'bearer' });
    assert.equal(after.body.length, 0);
  });

  it('lists, retrieves, changes the role of and revokes invitations; the revoked link stops working', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const email = `${unique('erin')}@example.com`;
    const link = await invite(admin.token, w.slug, email, 5);
    const list = await t.api.get(`/api/workspaces/${w.slug}/invitations/`).auth(admin.token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((i: { email: string }) => i.email),
      [email],
    );
    assert.ok(!JSON.stringify(list.body).includes(link.token));
    const patched = await t.api
      .patch(`/api/workspaces/${w.slug}/invitations/${link.id}/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ role: 20 });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.role, 20);
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/invitations/${link.id}/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ role: 7 }),
      422,
      'VALIDATION_ERROR',
    );
    const revoked = await t.api
      .delete(`/api/workspaces/${w.slug}/invitations/${link.id}/`)
      .auth(admin.token, { type: 'bearer' });
    assert.equal(revoked.status, 204);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/invitations/${link.id}/join/`).query({ token: link.token }),
      404,
      'INVITATION_NOT_FOUND',
    );
    // an invitation of another workspace is a 404 here
    const other = await createWorkspace(t, admin.token);
    const l2 = await invite(admin.token, other.slug, email, 5);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/invitations/${l2.id}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'INVITATION_NOT_FOUND',
    );
    assertError(
      await t.api.delete(`/api/workspaces/${w.slug}/invitations/${l2.id}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'INVITATION_NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/invitations/${l2.id}/join/`).query({ token: l2.token }),
      404,
      'INVITATION_NOT_FOUND',
    );
  });

  it('Members invite up to their own role; members already in are a 409; bad input 422', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const member = await signUp(t);
    await addMember(t, w.id, member.userId, 15);
    const path = `/api/workspaces/${w.slug}/invitations/`;
    assertError(
      await t.api
        .post(path)
        .auth(member.token, { type: 'bearer' })
        .send({ emails: [{ email: 'x@example.com', role: 20 }] }),
      403,
      'PERMISSION_DENIED',
    );
    const ok = await t.api
      .post(path)
      .auth(member.token, { type: 'bearer' })
      .send({ emails: [{ email: `${unique('f')}@example.com`, role: 15 }] });
    assert.equal(ok.status, 200);
    const dup = assertError(
      await t.api
        .post(path)
        .auth(admin.token, { type: 'bearer' })
        .send({ emails: [{ email: member.email }, { email: 'new@example.com' }] }),
      409,
      'ALREADY_WORKSPACE_MEMBER',
    );
    assert.deepEqual(dup.workspace_users, [member.email]);
    for (const body of [
      {},
      { emails: [] },
      { emails: [{ email: 'not-an-email' }] },
      { emails: [{ email: 'a@b.co', role: 10 }] },
    ]) {
      assertError(await t.api.post(path).auth(admin.token, { type: 'bearer' }).send(body), 422, 'VALIDATION_ERROR');
    }
  });
});
