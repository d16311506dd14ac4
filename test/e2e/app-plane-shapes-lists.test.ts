import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- list bodies are read generically */

/**
 * The App API answers its lists as Plane 0.25.3's views do (docs/decisions.md "App API lists: a bare
 * array unless paged"): a bare array of every row where Plane returns `Response(serializer.data)`,
 * a page only with both `per_page` and `cursor` where Plane pages on request, the envelope where
 * Plane always pages. Unknown body fields are dropped on the App API and refused on v1
 * ("Unknown body fields").
 */
describe('App API: Plane’s list shapes and lenient bodies', () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let key: string;
  const ids: Record<string, string> = {};
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const w = (path: string) => `/api/workspaces/${ws.slug}/${path}`;
  const p = (path: string) => `/api/workspaces/${ws.slug}/projects/${project.id}/${path}`;
  const ok = async (res: Promise<any> | any, status = 201) => {
    const r = await res;
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body;
  };

  before(async () => {
    t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_WORKER: 'false' });
    ada = await signUp(t);
    bob = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, bob.userId, 15);
    project = await createAppProject(t, ada.token, ws.slug, { identifier: 'SHP', name: 'Shapes' });
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    await ok(
      t.api.patch(`/api/workspaces/${ws.slug}/projects/${project.id}/`).set(bearer(ada)).send({ intake_view: true }),
      200,
    );
    key = await createApiKey(t, ada.token, ws.slug);
    await createApiKey(t, ada.token, ws.slug, { label: 'second' });
    const post = (u: SignedUp, path: string, body: unknown) =>
      t.api
        .post(path)
        .set(bearer(u))
        .send(body as object);
    ids.label = (await ok(post(ada, p('issue-labels/'), { name: 'L' }))).id;
    ids.cycle = (await ok(post(ada, p('cycles/'), { name: 'C' }))).id;
    ids.module = (await ok(post(ada, p('modules/'), { name: 'M' }))).id;
    // bob assigns ada twice: ada has two notifications
    ids.issue = (await ok(post(bob, p('issues/'), { name: 'One', assignee_ids: [ada.userId] }))).id;
    await ok(post(bob, p('issues/'), { name: 'Two', assignee_ids: [ada.userId] }));
    ids.comment = (await ok(post(ada, p(`issues/${ids.issue}/comments/`), { comment_html: '<p>hi</p>' }))).id;
    await ok(post(ada, p(`issues/${ids.issue}/issue-links/`), { url: 'https://example.com/a' }));
    await ok(post(ada, p(`issues/${ids.issue}/reactions/`), { reaction: '128077' }));
    await ok(post(ada, p(`comments/${ids.comment}/reactions/`), { reaction: '128077' }));
    ids.webhook = (await ok(post(ada, w('webhooks/'), { url: 'http://127.0.0.1:9/hook' }))).id;
    await ok(post(ada, w('invitations/'), { emails: [{ email: `${unique('inv')}@example.com`, role: 15 }] }), 200);
    await ok(post(ada, w('stickies/'), { name: 'S' }));
  });
  after(() => t?.close());

  /** Routes Plane never pages: a bare array, whatever the paging parameters. */
  const unpaged = () => [
    '/api/users/me/workspaces/',
    '/api/users/me/workspaces/invitations/',
    w('members/'),
    w('invitations/'),
    w('projects/'),
    w('states/'),
    w('labels/'),
    w(`webhooks/`),
    w(`webhook-logs/${ids.webhook}/`),
    p('members/'),
    p('states/'),
    p('issue-labels/'),
    p('cycles/'),
    p('archived-cycles/'),
    p('modules/'),
    p('archived-modules/'),
    p('estimates/'),
    p(`issues/${ids.issue}/comments/`),
    p(`issues/${ids.issue}/issue-links/`),
    p(`issues/${ids.issue}/reactions/`),
    p(`comments/${ids.comment}/reactions/`),
    p(`issues/${ids.issue}/history/`),
    p(`issues/${ids.issue}/issue-subscribers/`),
    p(`issues/list/?issues=${ids.issue}`),
    p('search-issues/?search='),
  ];

  it('answers the lists Plane never pages with every row as a bare array, paging parameters or not', async () => {
    for (const path of unpaged()) {
      const sep = path.includes('?') ? '&' : '?';
      for (const query of ['', `${sep}per_page=1`, `${sep}per_page=1&cursor=1:0:0`, `${sep}per_page=x&cursor=y`]) {
        const res = await t.api.get(`${path}${query}`).set(bearer(ada));
        assert.equal(res.status, 200, `${path}${query}: ${JSON.stringify(res.body)}`);
        assert.ok(Array.isArray(res.body), `${path}${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    // every row, not a first page
    const members = await t.api.get(w('members/')).set(bearer(ada));
    assert.equal(members.body.length, 2);
    const states = await t.api.get(p('states/')).set(bearer(ada));
    assert.equal(states.body.length, 5);
    assert.deepEqual(
      states.body.map((s: { sequence: number }) => s.sequence),
      [...states.body.map((s: { sequence: number }) => s.sequence)].sort((a: number, b: number) => a - b),
      'states by sequence',
    );
    const mine = await t.api.get('/api/users/me/workspaces/').set(bearer(bob));
    assert.deepEqual(
      mine.body.map((x: { slug: string }) => x.slug),
      [ws.slug],
    );
  });

  it('pages notifications and API tokens only with both per_page and cursor (Plane’s test)', async () => {
    for (const [path, total] of [
      [w('users/notifications/'), 2],
      [w('api-tokens/'), 2],
    ] as const) {
      for (const query of ['', '?per_page=1', '?cursor=1:0:0', '?per_page=&cursor=']) {
        const res = await t.api.get(`${path}${query}`).set(bearer(ada));
        assert.equal(res.status, 200, `${path}${query}: ${JSON.stringify(res.body)}`);
        assert.ok(Array.isArray(res.body), `${path}${query}`);
        assert.equal(res.body.length, total, `${path}${query}`);
      }
      // the web app opens the list with `<per_page>:0:0`, Plane's first page
      const first = await t.api.get(`${path}?per_page=1&cursor=1:0:0`).set(bearer(ada));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.results.length, 1, path);
      assert.equal(first.body.total_count, total);
      assert.ok(first.body.next_cursor, path);
      assert.equal(first.body.prev_cursor, null);
      const seen = [first.body.results[0].id];
      let cursor: string | null = first.body.next_cursor;
      while (cursor) {
        const page = await t.api.get(`${path}?per_page=1&cursor=${encodeURIComponent(cursor)}`).set(bearer(ada));
        assert.equal(page.status, 200, JSON.stringify(page.body));
        seen.push(...page.body.results.map((r: { id: string }) => r.id));
        cursor = page.body.next_cursor;
      }
      const all = await t.api.get(path).set(bearer(ada));
      assert.deepEqual(
        seen,
        all.body.map((r: { id: string }) => r.id),
        `${path}: the pages walk the bare array's order`,
      );
      // asked for a page, its parameters are checked
      assertError(await t.api.get(`${path}?per_page=0&cursor=1:0:0`).set(bearer(ada)), 400, 'INVALID_PER_PAGE');
      assertError(await t.api.get(`${path}?per_page=1&cursor=nope`).set(bearer(ada)), 400, 'INVALID_CURSOR');
    }
  });

  it('keeps the envelope where Plane always pages, and on GET /api/workspaces/', async () => {
    for (const path of ['/api/workspaces/', w('stickies/'), p('issues/'), p('intake-issues/'), p('archived-issues/')]) {
      const res = await t.api.get(path).set(bearer(ada));
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      assert.ok(Array.isArray(res.body.results), path);
      assert.ok('next_cursor' in res.body && 'prev_cursor' in res.body, path);
    }
    // Plane's first-page cursor on an always-paged list
    const stickies = await t.api.get(`${w('stickies/')}?per_page=20&cursor=20:0:0`).set(bearer(ada));
    assert.equal(stickies.body.results.length, 1);
  });

  it('documents each list’s shape in the OpenAPI document', async () => {
    const doc = JSON.parse((await t.api.get('/api/openapi.json')).text);
    const ok200 = (route: string) => doc.paths[route].get.responses['200'].content['application/json'].schema;
    const queries = (route: string) =>
      doc.paths[route].get.parameters
        .filter((x: { in: string }) => x.in === 'query')
        .map((x: { name: string }) => x.name);
    assert.deepEqual(ok200('/api/workspaces/{slug}/members/'), { type: 'array', items: { type: 'object' } });
    assert.deepEqual(queries('/api/workspaces/{slug}/members/'), [], 'Plane never pages it');
    assert.deepEqual(ok200('/api/workspaces/{slug}/users/notifications/').oneOf, [
      { type: 'array', items: { type: 'object' } },
      { $ref: '#/components/schemas/PageEnvelope' },
    ]);
    assert.deepEqual(queries('/api/workspaces/{slug}/users/notifications/').sort(), ['cursor', 'per_page']);
    assert.deepEqual(ok200('/api/workspaces/'), { $ref: '#/components/schemas/PageEnvelope' });
    // an App-only body takes further fields; a body v1 shares keeps refusing them
    assert.equal(doc.components.schemas.AppCreateWorkItemDto.additionalProperties, undefined);
    assert.equal(doc.components.schemas.CreateProjectDto.additionalProperties, false);
  });

  it('drops unknown fields of App API bodies, still validating the known ones', async () => {
    // what Plane's create work item modal sends besides the fields Plane's serializer reads
    const created = await t.api
      .post(p('issues/'))
      .set(bearer(ada))
      .send({ name: 'From the modal', type_id: null, project_id: project.id, workspace_id: ws.id, bogus: 1 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.name, 'From the modal');
    assert.equal(created.body.bogus, undefined);
    const label = await t.api
      .post(p('issue-labels/'))
      .set(bearer(ada))
      .send({ name: 'L2', whatever: { a: 1 } });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    const states = await t.api.get(p('states/')).set(bearer(ada));
    const patched = await t.api
      .patch(p(`states/${states.body[0].id}/`))
      .set(bearer(ada))
      .send({ description: 'd', id: 'not-an-id', created_at: 'x', project: 'y', unknown: true });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.id, states.body[0].id);
    const cycle = await t.api
      .patch(p(`cycles/${ids.cycle}/`))
      .set(bearer(ada))
      .send({ name: 'C2', progress: 99 });
    assert.equal(cycle.status, 200, JSON.stringify(cycle.body));
    // known fields are still validated, and a body that is not an object is still a 400
    const bad = assertError(
      await t.api.post(p('issues/')).set(bearer(ada)).send({ name: 'x', priority: 'critical', bogus: 1 }),
      422,
      'VALIDATION_ERROR',
    );
    assert.deepEqual(Object.keys(bad.errors as object), ['priority']);
    assertError(
      await t.api.post(p('issues/')).set(bearer(ada)).set('Content-Type', 'application/json').send('[1]'),
      400,
      'MALFORMED_REQUEST',
    );
  });

  it('keeps refusing unknown fields on the External API v1 and the auth routes', async () => {
    const v1 = await t.api
      .post(`/api/v1/workspaces/${ws.slug}/projects/${project.id}/issues/`)
      .set('X-API-Key', key)
      .send({ name: 'x', bogus: 1 });
    const err = assertError(v1, 422, 'VALIDATION_ERROR');
    assert.deepEqual(err.errors, { bogus: ['This field is not allowed.'] });
    const auth = await t.api.post('/auth/sign-in/').send({ email: ada.email, password: ada.password, remember: true });
    assertError(auth, 422, 'VALIDATION_ERROR');
  });
});
