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

/** Workspace themes (Plane's WorkspaceThemeViewSet) and the AI assistant without a provider (GPTIntegrationEndpoint). */
describe('App API: workspace themes and the AI assistant', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin
  let mia: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // another workspace
  let ws: { id: string; slug: string };
  let otherWs: { id: string; slug: string };
  let project: { id: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const themes = () => `/api/workspaces/${ws.slug}/workspace-themes`;

  before(async () => {
    t = await startTestApp();
    [ada, mia, gus, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    otherWs = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, mia.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
  });
  after(() => t.close());

  it("themes: create, list, retrieve, update, delete with Plane's fields", async () => {
    const colors = { background: '#1a1a1a', primary: '#3f76ff', sidebarText: '#fff' };
    const c = await t.api.post(`${themes()}/`).set(bearer(mia)).send({ name: 'Night', colors, actor: ada.userId });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.deepEqual(Object.keys(c.body).sort(), [
      'actor',
      'colors',
      'created_at',
      'created_by',
      'deleted_at',
      'id',
      'name',
      'updated_at',
      'updated_by',
      'workspace',
    ]);
    assert.equal(c.body.actor, mia.userId);
    assert.equal(c.body.workspace, ws.id);
    assert.deepEqual(c.body.colors, colors);
    const list = await t.api.get(`${themes()}/`).set(bearer(ada));
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((x: { id: string }) => x.id),
      [c.body.id],
    );
    const u = await t.api.patch(`${themes()}/${c.body.id}/`).set(bearer(ada)).send({ name: 'Midnight' });
    assert.equal(u.status, 200);
    assert.equal(u.body.name, 'Midnight');
    assert.deepEqual(u.body.colors, colors);
    assert.equal((await t.api.get(`${themes()}/${c.body.id}/`).set(bearer(ada))).body.name, 'Midnight');
    assertError(
      await t.api.get(`/api/workspaces/${otherWs.slug}/workspace-themes/${c.body.id}/`).set(bearer(eve)),
      404,
      'NOT_FOUND',
    );
    assert.equal((await t.api.delete(`${themes()}/${c.body.id}/`).set(bearer(ada))).status, 204);
    assertError(await t.api.get(`${themes()}/${c.body.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('themes: 422 without a name or with bad colors, 409 a taken name, 403 for Guests', async () => {
    assertError(await t.api.post(`${themes()}/`).set(bearer(ada)).send({}), 422, 'VALIDATION_ERROR');
    assertError(
      await t.api.post(`${themes()}/`).set(bearer(ada)).send({ name: 'x', colors: 'red' }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal((await t.api.post(`${themes()}/`).set(bearer(ada)).send({ name: 'Day' })).status, 201);
    assertError(await t.api.post(`${themes()}/`).set(bearer(mia)).send({ name: 'Day' }), 409, 'THEME_NAME_TAKEN');
    assertError(await t.api.get(`${themes()}/`).set(bearer(gus)), 403, 'PERMISSION_DENIED');
    assertError(await t.api.get(`${themes()}/`).set(bearer(eve)), 404, 'WORKSPACE_NOT_FOUND');
  });

  it("ai-assistant: Plane's not-configured answer for Admins and Members; Guests 403", async () => {
    const body = { task: 'Summarise', prompt: 'Hello' };
    for (const path of [
      `/api/workspaces/${ws.slug}/ai-assistant/`,
      `/api/workspaces/${ws.slug}/projects/${project.id}/ai-assistant/`,
    ]) {
      const r = await t.api.post(path).set(bearer(mia)).send(body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error, 'LLM provider API key and model are required');
      assert.equal(r.body.error_code, 'LLM_NOT_CONFIGURED');
      assertError(await t.api.post(path).set(bearer(gus)).send(body), 403, 'PERMISSION_DENIED');
      assert.equal((await t.api.post(path).send(body)).status, 401);
    }
  });
});
