import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** `users/me/profile|settings|onboard|tour-completed`, `workspace-members/me/`, `project-members/me/`. */
describe('App API: the signed-in user’s profile, settings and memberships', () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    bob = await signUp(t);
  });
  after(() => t.close());

  it('profile: created on first read with Plane’s defaults; theme and onboarding state persist; unknown keys are ignored', async () => {
    const first = await t.api.get('/api/users/me/profile/').set(bearer(ada));
    assert.equal(first.status, 200);
    assert.equal(first.body.user, ada.userId);
    assert.equal(first.body.is_onboarded, false);
    assert.deepEqual(first.body.onboarding_step, {
      workspace_join: false,
      profile_complete: false,
      workspace_create: false,
      workspace_invite: false,
    });
    assert.deepEqual(first.body.theme, {});
    const patched = await t.api
      .patch('/api/users/me/profile/')
      .set(bearer(ada))
      .send({
        theme: { theme: 'dark' },
        onboarding_step: { profile_complete: true },
        role: 'Engineer',
        language: 'fr',
      });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.theme, { theme: 'dark' });
    const again = await t.api.get('/api/users/me/profile/').set(bearer(ada));
    assert.equal(again.body.role, 'Engineer');
    assert.equal(again.body.language, 'fr');
    assert.equal(again.body.id, first.body.id);
    // a key Plane's serializer does not write is ignored (the profile stays Ada's)
    const ignored = await t.api.patch('/api/users/me/profile/').set(bearer(ada)).send({ user: bob.userId });
    assert.equal(ignored.status, 200, JSON.stringify(ignored.body));
    assert.equal(ignored.body.user, ada.userId);
    assertError(
      await t.api.patch('/api/users/me/profile/').set(bearer(ada)).send({ is_onboarded: 'yess' }),
      422,
      'VALIDATION_ERROR',
    );
    // someone else's profile is untouched
    assert.deepEqual((await t.api.get('/api/users/me/profile/').set(bearer(bob))).body.theme, {});
    assert.equal((await t.api.get('/api/users/me/profile/')).status, 401);
  });

  it('onboard and tour-completed flags; the time zone is the user’s', async () => {
    const on = await t.api.patch('/api/users/me/onboard/').set(bearer(bob)).send({ is_onboarded: true });
    assert.deepEqual([on.status, on.body], [200, { message: 'Updated successfully' }]);
    const tour = await t.api.patch('/api/users/me/tour-completed/').set(bearer(bob)).send({ is_tour_completed: true });
    assert.equal(tour.status, 200);
    const p = (await t.api.get('/api/users/me/profile/').set(bearer(bob))).body;
    assert.equal(p.is_onboarded, true);
    assert.equal(p.is_tour_completed, true);
    assertError(await t.api.patch('/api/users/me/onboard/').set(bearer(bob)).send({}), 422, 'VALIDATION_ERROR');
    const tz = await t.api.patch('/api/users/me/').set(bearer(bob)).send({ user_timezone: 'Europe/Paris' });
    assert.equal(tz.body.user_timezone, 'Europe/Paris');
  });

  it('settings: last workspace (only one of the caller’s), fallback workspace, pending invitations', async () => {
    const carl = await signUp(t);
    const empty = await t.api.get('/api/users/me/settings/').set(bearer(carl));
    assert.deepEqual(empty.body, {
      id: carl.userId,
      email: carl.email,
      workspace: {
        last_workspace_id: null,
        last_workspace_slug: null,
        fallback_workspace_id: null,
        fallback_workspace_slug: null,
        invites: 0,
      },
    });
    const w1 = await createWorkspace(t, carl.token);
    const w2 = await createWorkspace(t, carl.token);
    const foreign = await createWorkspace(t, ada.token);
    assertError(
      await t.api.patch('/api/users/me/profile/').set(bearer(carl)).send({ last_workspace_id: foreign.id }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal(
      (await t.api.patch('/api/users/me/profile/').set(bearer(carl)).send({ last_workspace_id: w2.id })).status,
      200,
    );
    await t.api
      .post(`/api/workspaces/${foreign.slug}/invitations/`)
      .set(bearer(ada))
      .send({ emails: [{ email: carl.email, role: 15 }] });
    const s = (await t.api.get('/api/users/me/settings/').set(bearer(carl))).body;
    assert.equal(s.workspace.last_workspace_id, w2.id);
    assert.equal(s.workspace.last_workspace_slug, w2.slug);
    assert.equal(s.workspace.fallback_workspace_id, w1.id);
    assert.equal(s.workspace.invites, 1);
  });

  it('workspace-members/me/ and project-members/me/ return the caller’s own memberships', async () => {
    const w = await createWorkspace(t, ada.token);
    await addMember(t, w.id, bob.userId, 5);
    const meW = await t.api.get(`/api/workspaces/${w.slug}/workspace-members/me/`).set(bearer(bob));
    assert.equal(meW.status, 200);
    assert.equal(meW.body.member.id, bob.userId);
    assert.equal(meW.body.member.email, bob.email);
    assert.equal(meW.body.role, 5);
    const project = await createAppProject(t, ada.token, w.slug, { network: 2 });
    // a public project the Guest did not join: visible to Members, but no membership
    const carl = await signUp(t);
    await addMember(t, w.id, carl.userId, 15);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${project.id}/project-members/me/`).set(bearer(carl)),
      404,
      'NOT_FOUND',
    );
    await addProjectMember(t, w.id, project.id, bob.userId, 5);
    const meP = await t.api
      .get(`/api/workspaces/${w.slug}/projects/${project.id}/project-members/me/`)
      .set(bearer(bob));
    assert.equal(meP.status, 200);
    assert.equal(meP.body.member.id, bob.userId);
    assert.equal(meP.body.role, 5);
    const stranger = await signUp(t);
    assert.equal(
      (await t.api.get(`/api/workspaces/${w.slug}/workspace-members/me/`).set(bearer(stranger))).status,
      404,
    );
  });
});
