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

/** The sidebar's favourites: `user-favorites/` with folders, and the older per-entity routes. */
describe('App API: favourites', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin
  let mia: SignedUp; // workspace Member, project Member of `project`
  let gus: SignedUp; // workspace Guest
  let eve: SignedUp; // another workspace
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string; name: string };
  let secret: { id: string };
  let cycleId: string;
  let moduleId: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const fav = () => `/api/workspaces/${ws.slug}/user-favorites`;

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    mia = await signUp(t);
    gus = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug, { name: 'Roadmap' });
    secret = await createAppProject(t, ada.token, ws.slug, { network: 0 });
    await addProjectMember(t, ws.id, project.id, mia.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    cycleId = (await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Sprint 1' })).body.id;
    moduleId = (await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'Billing' })).body.id;
  });
  after(() => t.close());

  it('favourites a project, a cycle and a module with entity_data; a second add returns the first', async () => {
    const p = await t.api
      .post(`${fav()}/`)
      .set(bearer(mia))
      .send({
        entity_type: 'project',
        entity_identifier: project.id,
        project_id: project.id,
        entity_data: { name: 'x' },
      });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.entity_type, 'project');
    assert.equal(p.body.project_id, project.id);
    assert.equal(p.body.workspace_id, ws.id);
    assert.equal(p.body.is_folder, false);
    assert.equal(p.body.parent, null);
    assert.deepEqual(p.body.entity_data, {
      id: project.id,
      name: 'Roadmap',
      logo_props: p.body.entity_data.logo_props,
    });
    const again = await t.api
      .post(`${fav()}/`)
      .set(bearer(mia))
      .send({ entity_type: 'project', entity_identifier: project.id });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, p.body.id);

    const c = await t.api.post(`${fav()}/`).set(bearer(mia)).send({ entity_type: 'cycle', entity_identifier: cycleId });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.entity_data.name, 'Sprint 1');
    assert.equal(c.body.entity_data.project_id, project.id);
    assert.equal(c.body.sequence, p.body.sequence + 10000);
    const m = await t.api
      .post(`${fav()}/`)
      .set(bearer(mia))
      .send({ entity_type: 'module', entity_identifier: moduleId });
    assert.equal(m.status, 200);

    const list = await t.api.get(`${fav()}/`).set(bearer(mia));
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((f: { entity_type: string }) => f.entity_type),
      ['module', 'cycle', 'project'],
    );
    // another user's favourites are theirs
    assert.deepEqual((await t.api.get(`${fav()}/`).set(bearer(ada))).body, []);
  });

  it('folders: create, move a favourite in, list the group, delete the folder with its content', async () => {
    const folder = await t.api
      .post(`${fav()}/`)
      .set(bearer(ada))
      .send({ entity_type: 'folder', is_folder: true, name: 'Work', parent: null, project_id: null });
    assert.equal(folder.status, 200, JSON.stringify(folder.body));
    assert.equal(folder.body.is_folder, true);
    assert.equal(folder.body.entity_data, null);
    const inside = await t.api
      .post(`${fav()}/`)
      .set(bearer(ada))
      .send({ entity_type: 'project', entity_identifier: secret.id, parent: folder.body.id });
    assert.equal(inside.status, 200, JSON.stringify(inside.body));
    assert.equal(inside.body.parent, folder.body.id);
    const moved = await t.api
      .post(`${fav()}/`)
      .set(bearer(ada))
      .send({ entity_type: 'cycle', entity_identifier: cycleId });
    const patched = await t.api.patch(`${fav()}/${moved.body.id}/`).set(bearer(ada)).send({ parent: folder.body.id });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.parent, folder.body.id);

    const top = await t.api.get(`${fav()}/`).set(bearer(ada));
    assert.deepEqual(
      top.body.map((f: { id: string }) => f.id),
      [folder.body.id],
    );
    const group = await t.api.get(`${fav()}/${folder.body.id}/group/`).set(bearer(ada));
    assert.equal(group.status, 200);
    assert.deepEqual(group.body.map((f: { id: string }) => f.id).sort(), [inside.body.id, moved.body.id].sort());

    const renamed = await t.api
      .patch(`${fav()}/${folder.body.id}/`)
      .set(bearer(ada))
      .send({ name: 'Now', sequence: 5 });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Now');
    assert.equal(renamed.body.sequence, 5);
    const out = await t.api.patch(`${fav()}/${moved.body.id}/`).set(bearer(ada)).send({ parent: null });
    assert.equal(out.body.parent, null);

    // validation
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(ada)).send({ entity_type: 'folder', name: '' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(ada)).send({ entity_type: 'project' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(ada)).send({ entity_type: 'issue', entity_identifier: project.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(`${fav()}/`)
        .set(bearer(ada))
        .send({ entity_type: 'module', entity_identifier: moduleId, parent: moved.body.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.patch(`${fav()}/${folder.body.id}/`).set(bearer(ada)).send({ parent: folder.body.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.patch(`${fav()}/${moved.body.id}/`).set(bearer(ada)).send({ sequence: 'x' }),
      422,
      'VALIDATION_ERROR',
    );

    const removed = await t.api.delete(`${fav()}/${folder.body.id}/`).set(bearer(ada));
    assert.equal(removed.status, 204);
    const left = await t.api.get(`${fav()}/`).set(bearer(ada));
    assert.deepEqual(
      left.body.map((f: { id: string }) => f.id),
      [moved.body.id],
    );
    assertError(await t.api.get(`${fav()}/${folder.body.id}/group/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('foreign ids are 404: a project the caller is not in, another workspace, another user’s favourite', async () => {
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(mia)).send({ entity_type: 'project', entity_identifier: secret.id }),
      404,
      'NOT_FOUND',
    );
    const elsewhere = await createAppProject(t, eve.token, other.slug);
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(mia)).send({ entity_type: 'project', entity_identifier: elsewhere.id }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(mia)).send({ entity_type: 'cycle', entity_identifier: moduleId }),
      404,
      'NOT_FOUND',
    );
    const adas = (await t.api.get(`${fav()}/`).set(bearer(ada))).body[0].id as string;
    assertError(await t.api.patch(`${fav()}/${adas}/`).set(bearer(mia)).send({ name: 'x' }), 404, 'NOT_FOUND');
    assertError(await t.api.delete(`${fav()}/${adas}/`).set(bearer(mia)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${fav()}/${adas}/group/`).set(bearer(mia)), 404, 'NOT_FOUND');
    const fresh = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${project.id}/modules/`)
      .set(bearer(ada))
      .send({ name: 'Fresh' });
    assertError(
      await t.api
        .post(`${fav()}/`)
        .set(bearer(mia))
        .send({ entity_type: 'module', entity_identifier: fresh.body.id, parent: adas }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/${other.slug}/user-favorites/`).set(bearer(mia)),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('Guests may not use user-favorites/ (403), as in Plane', async () => {
    assertError(await t.api.get(`${fav()}/`).set(bearer(gus)), 403, 'PERMISSION_DENIED');
    assertError(
      await t.api.post(`${fav()}/`).set(bearer(gus)).send({ entity_type: 'project', entity_identifier: project.id }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('leaving a project hides its favourites; a deleted entity drops out of the list', async () => {
    const zed = await signUp(t);
    await addMember(t, ws.id, zed.userId, 15);
    await addProjectMember(t, ws.id, project.id, zed.userId, 15);
    const c = await t.api.post(`${fav()}/`).set(bearer(zed)).send({ entity_type: 'cycle', entity_identifier: cycleId });
    assert.equal(c.status, 200);
    const m = await t.api
      .post(`${fav()}/`)
      .set(bearer(zed))
      .send({ entity_type: 'module', entity_identifier: moduleId });
    assert.equal(m.status, 200);
    assert.equal((await t.api.get(`${fav()}/`).set(bearer(zed))).body.length, 2);
    await t.sql('UPDATE modules SET deleted_at = now() WHERE id = $1', [moduleId]);
    assert.equal((await t.api.get(`${fav()}/`).set(bearer(zed))).body.length, 1);
    await t.sql('UPDATE modules SET deleted_at = NULL WHERE id = $1', [moduleId]);
    await t.sql('UPDATE project_members SET is_active = false WHERE project_id = $1 AND member_id = $2', [
      project.id,
      zed.userId,
    ]);
    assert.deepEqual((await t.api.get(`${fav()}/`).set(bearer(zed))).body, []);
  });

  it('older routes: user-favorite-projects, project user-favorite-cycles and user-favorite-modules', async () => {
    const kim = await signUp(t);
    await addMember(t, ws.id, kim.userId, 15);
    await addProjectMember(t, ws.id, project.id, kim.userId, 15);
    const add = await t.api
      .post(`/api/workspaces/${ws.slug}/user-favorite-projects/`)
      .set(bearer(kim))
      .send({ project: project.id });
    assert.equal(add.status, 204, JSON.stringify(add.body));
    assert.equal(
      (
        await t.api
          .post(`/api/workspaces/${ws.slug}/user-favorite-projects/`)
          .set(bearer(kim))
          .send({ project: project.id })
      ).status,
      204,
    );
    const listed = await t.api.get(`/api/workspaces/${ws.slug}/user-favorite-projects/`).set(bearer(kim));
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((f: { entity_identifier: string }) => f.entity_identifier),
      [project.id],
    );
    assertError(
      await t.api
        .post(`/api/workspaces/${ws.slug}/user-favorite-projects/`)
        .set(bearer(kim))
        .send({ project: secret.id }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/user-favorite-projects/`).set(bearer(kim)).send({ project: 'x' }),
      422,
      'VALIDATION_ERROR',
    );

    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    assert.equal(
      (await t.api.post(`${base}/user-favorite-cycles/`).set(bearer(kim)).send({ cycle: cycleId })).status,
      204,
    );
    assert.equal(
      (await t.api.post(`${base}/user-favorite-modules/`).set(bearer(kim)).send({ module: moduleId })).status,
      204,
    );
    assert.equal((await t.api.get(`${fav()}/`).set(bearer(kim))).body.length, 3);
    // a cycle of another project through this project's route
    const elsewhere = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${secret.id}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Hidden' });
    assertError(
      await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${project.id}/user-favorite-cycles/`)
        .set(bearer(ada))
        .send({ cycle: elsewhere.body.id }),
      404,
      'NOT_FOUND',
    );
    // Guests: cycles need project Member (403), modules any project role
    assertError(
      await t.api.post(`${base}/user-favorite-cycles/`).set(bearer(gus)).send({ cycle: cycleId }),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal(
      (await t.api.post(`${base}/user-favorite-modules/`).set(bearer(gus)).send({ module: moduleId })).status,
      204,
    );
    assert.equal((await t.api.delete(`${base}/user-favorite-modules/${moduleId}/`).set(bearer(gus))).status, 204);

    assert.equal((await t.api.delete(`${base}/user-favorite-cycles/${cycleId}/`).set(bearer(kim))).status, 204);
    assertError(await t.api.delete(`${base}/user-favorite-cycles/${cycleId}/`).set(bearer(kim)), 404, 'NOT_FOUND');
    assert.equal((await t.api.delete(`${base}/user-favorite-modules/${moduleId}/`).set(bearer(kim))).status, 204);
    assert.equal(
      (await t.api.delete(`/api/workspaces/${ws.slug}/user-favorite-projects/${project.id}/`).set(bearer(kim))).status,
      204,
    );
    assert.deepEqual((await t.api.get(`${fav()}/`).set(bearer(kim))).body, []);
  });
});
