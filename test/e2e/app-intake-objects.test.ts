import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** Plane's `IntakeSerializer` keys (`plane/app/serializers/intake.py`: `__all__` of `Intake` plus two). */
const INTAKE_KEYS = [
  'created_at',
  'created_by',
  'deleted_at',
  'description',
  'id',
  'is_default',
  'logo_props',
  'name',
  'pending_issue_count',
  'project',
  'project_detail',
  'updated_at',
  'updated_by',
  'view_props',
  'workspace',
].sort();

/** A project's intake object (Plane's `IntakeViewSet`) under `intakes/` and its older name `inboxes/`. */
describe('App API: the intake object (intakes/, inboxes/)', () => {
  let t: TestApp;
  let ada: SignedUp;
  let eve: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let unused: { id: string };
  let foreign: { id: string };
  let foreignIntake: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  /** An error answer with `status` in the `{detail, error_code}` shape. */
  const refused = (res: { status: number; body: { error_code?: unknown; detail?: unknown } }, status: number) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(typeof res.body.error_code, 'string');
    assert.equal(typeof res.body.detail, 'string');
  };

  async function submit(slug: string, projectId: string, who: SignedUp, name: string): Promise<void> {
    await t.sql('UPDATE projects SET intake_view = true WHERE id = $1', [projectId]);
    const res = await t.api
      .post(`/api/workspaces/${slug}/projects/${projectId}/intake-issues/`)
      .set(bearer(who))
      .send({ issue: { name } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    project = await createAppProject(t, ada.token, ws.slug);
    unused = await createAppProject(t, ada.token, ws.slug);
    const other = await createWorkspace(t, eve.token);
    foreign = await createAppProject(t, eve.token, other.slug);
    await submit(ws.slug, project.id, ada, 'First');
    await submit(ws.slug, project.id, ada, 'Second');
    await submit(other.slug, foreign.id, eve, 'Theirs');
    foreignIntake = (await t.sql<{ id: string }>('SELECT id FROM intakes WHERE project_id = $1', [foreign.id]))[0].id;
  });
  after(() => t.close());

  for (const base of ['intakes', 'inboxes']) {
    it(`${base}/: the project's intake with its pending count, in Plane's shape; retrieve; 404s`, async () => {
      const url = `/api/workspaces/${ws.slug}/projects/${project.id}/${base}/`;
      const list = await t.api.get(url).set(bearer(ada));
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.deepEqual(Object.keys(list.body).sort(), INTAKE_KEYS);
      assert.equal(list.body.pending_issue_count, base === 'intakes' ? 2 : 1); // intakes/ declines one below
      assert.equal(list.body.project, project.id);
      assert.equal(list.body.workspace, ws.id);
      assert.equal(list.body.is_default, true);
      assert.equal(list.body.project_detail.id, project.id);

      // a declined item is no longer pending
      const items = await t.api
        .get(`/api/workspaces/${ws.slug}/projects/${project.id}/intake-issues/`)
        .set(bearer(ada));
      const first = (items.body.results as Array<{ issue: { id: string; name: string } }>).find(
        (r) => r.issue.name === 'First',
      )!;
      if (base === 'intakes') {
        const declined = await t.api
          .patch(`/api/workspaces/${ws.slug}/projects/${project.id}/intake-issues/${first.issue.id}/`)
          .set(bearer(ada))
          .send({ status: -1 });
        assert.equal(declined.status, 200, JSON.stringify(declined.body));
      }
      const one = await t.api.get(`${url}${list.body.id}/`).set(bearer(ada));
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.equal(one.body.id, list.body.id);
      assert.equal(one.body.pending_issue_count, 1);

      refused(await t.api.get(`${url}${foreignIntake}/`).set(bearer(ada)), 404);
      refused(await t.api.get(`${url}00000000-0000-4000-8000-000000000000/`).set(bearer(ada)), 404);
      refused(await t.api.get(`/api/workspaces/${ws.slug}/projects/${unused.id}/${base}/`).set(bearer(ada)), 404);
      refused(await t.api.get(url).set(bearer(eve)), 404);
    });

    it(`${base}/{id}/: PATCH renames (422 on a bad name); DELETE refuses the default intake`, async () => {
      const url = `/api/workspaces/${ws.slug}/projects/${project.id}/${base}/`;
      const id = (await t.api.get(url).set(bearer(ada))).body.id as string;
      const renamed = await t.api
        .patch(`${url}${id}/`)
        .set(bearer(ada))
        .send({ name: `Triage ${base}`, description: 'Requests from support', pending_issue_count: 99 });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.name, `Triage ${base}`);
      assert.equal(renamed.body.description, 'Requests from support');
      assert.notEqual(renamed.body.pending_issue_count, 99);
      refused(
        await t.api
          .patch(`${url}${id}/`)
          .set(bearer(ada))
          .send({ name: 'x'.repeat(256) }),
        422,
      );
      refused(await t.api.patch(`${url}${id}/`).set(bearer(ada)).send({ name: null }), 422);
      refused(await t.api.patch(`${url}${foreignIntake}/`).set(bearer(ada)).send({ name: 'Mine' }), 404);
      const gone = await t.api.delete(`${url}${id}/`).set(bearer(ada));
      assertError(gone, 400, 'INTAKE_DEFAULT_UNDELETABLE');
      assert.equal((await t.api.get(url).set(bearer(ada))).body.id, id);
      refused(await t.api.delete(`${url}${foreignIntake}/`).set(bearer(ada)), 404);
      const theirs = await t.sql<{ name: string }>('SELECT name FROM intakes WHERE id = $1', [foreignIntake]);
      assert.doesNotMatch(theirs[0].name, /^Mine$/);
    });
  }
});
