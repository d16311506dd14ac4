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

/** Plane 0.25.3's `PageSerializer` fields (`plane/app/serializers/page.py`). */
const PAGE_FIELDS = [
  'id',
  'name',
  'owned_by',
  'access',
  'color',
  'parent',
  'is_favorite',
  'is_locked',
  'archived_at',
  'workspace',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
  'view_props',
  'logo_props',
  'label_ids',
  'project_ids',
].sort();
/** `PageDetailSerializer`: the above and `description_html`. */
const DETAIL_FIELDS = [...PAGE_FIELDS, 'description_html'].sort();
/** `PageVersionSerializer` and `PageVersionDetailSerializer`. */
const VERSION_FIELDS = [
  'id',
  'workspace',
  'page',
  'last_saved_at',
  'owned_by',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
].sort();
const VERSION_DETAIL_FIELDS = [...VERSION_FIELDS, 'description_binary', 'description_html', 'description_json'].sort();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const binaryParser = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** Project pages: `projects/{id}/pages/…`, `favorite-pages/`, and pages in `user-favorites/`. */
describe('App API: pages', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let mia: SignedUp; // workspace Member, project Member
  let max: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // another workspace's Admin
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string };
  let sibling: { id: string };
  let foreign: { id: string };
  const as = (u: SignedUp) => ({
    get: (url: string) => t.api.get(url).auth(u.token, { type: 'bearer' }),
    post: (url: string, body: object = {}) => t.api.post(url).auth(u.token, { type: 'bearer' }).send(body),
    patch: (url: string, body: object) => t.api.patch(url).auth(u.token, { type: 'bearer' }).send(body),
    delete: (url: string) => t.api.delete(url).auth(u.token, { type: 'bearer' }),
  });
  const base = (p = project.id, slug = ws.slug) => `/api/workspaces/${slug}/projects/${p}`;
  const pages = (p = project.id, slug = ws.slug) => `${base(p, slug)}/pages`;

  async function page(u: SignedUp, body: Record<string, unknown> = {}, p = project.id, slug = ws.slug) {
    const res = await as(u).post(`${pages(p, slug)}/`, { name: `Page ${Math.random()}`, ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  const binary = (u: SignedUp, id: string) =>
    as(u).get(`${pages()}/${id}/description/`).buffer(true).parse(binaryParser);

  before(async () => {
    t = await startTestApp();
    [ada, mia, max, gus, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug, { name: 'Handbook' });
    sibling = await createAppProject(t, ada.token, ws.slug, { name: 'Sibling' });
    foreign = await createAppProject(t, eve.token, other.slug, { name: 'Elsewhere' });
    for (const u of [mia, max]) await addProjectMember(t, ws.id, project.id, u.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
  });
  after(() => t.close());

  it("creates, lists, reads and updates a page in Plane's shape", async () => {
    const label = await as(ada).post(`${base()}/issue-labels/`, { name: 'docs' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    const foreignLabel = await as(ada).post(`${base(sibling.id)}/issue-labels/`, { name: 'elsewhere' });
    const created = await page(mia, {
      name: 'Onboarding',
      color: '#aabbcc',
      logo_props: { in_use: 'emoji' },
      labels: [label.body.id, foreignLabel.body.id],
      description_html: '<p>Hello</p>',
      owned_by: ada.userId,
      is_locked: true,
      workspace: 'ignored',
    });
    assert.deepEqual(Object.keys(created).sort(), DETAIL_FIELDS);
    assert.equal(created.name, 'Onboarding');
    assert.equal(created.owned_by, mia.userId, 'owned_by is read-only');
    assert.equal(created.created_by, mia.userId);
    assert.equal(created.workspace, ws.id);
    assert.equal(created.access, 0);
    assert.equal(created.is_locked, false, 'is_locked is not set by create');
    assert.equal(created.is_favorite, false);
    assert.equal(created.archived_at, null);
    assert.equal(created.parent, null);
    assert.equal(created.description_html, '<p>Hello</p>');
    assert.deepEqual(created.view_props, { full_width: false });
    assert.deepEqual(created.logo_props, { in_use: 'emoji' });
    assert.deepEqual(created.label_ids, [label.body.id], "another project's label is dropped");
    assert.deepEqual(created.project_ids, [project.id]);

    const list = await as(ada).get(`${pages()}/`);
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body), 'a bare array');
    const listed = list.body.find((p: { id: string }) => p.id === created.id);
    assert.deepEqual(Object.keys(listed).sort(), PAGE_FIELDS, 'the list has no description_html');

    const got = await as(max).get(`${pages()}/${created.id}/`);
    assert.equal(got.status, 200);
    assert.deepEqual(Object.keys(got.body).sort(), [...DETAIL_FIELDS, 'issue_ids'].sort());
    assert.deepEqual(got.body.issue_ids, []);

    const patched = await as(max).patch(`${pages()}/${created.id}/`, {
      name: 'Onboarding guide',
      view_props: { full_width: true },
      label_ids: [],
      archived_at: '2020-01-01',
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.name, 'Onboarding guide');
    assert.deepEqual(patched.body.view_props, { full_width: true });
    assert.deepEqual(patched.body.label_ids, []);
    assert.equal(patched.body.archived_at, null, 'archived_at is not set by PATCH');
    assert.equal(patched.body.updated_by, max.userId);

    // the web app sends its whole page object back (`asJSON`): read-only keys are ignored
    const whole = await as(max).patch(`${pages()}/${created.id}/`, {
      ...patched.body,
      name: 'Whole',
      anchor: null,
      team: null,
      is_favorite: true,
      is_locked: true,
      owned_by: max.userId,
    });
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    assert.equal(whole.body.name, 'Whole');
    assert.equal(whole.body.is_locked, false);
    assert.equal(whole.body.owned_by, mia.userId);

    // a sub-page: not in the list, readable by id
    const child = await page(mia, { name: 'Child', parent: created.id });
    assert.equal(child.parent, created.id);
    const ids = (await as(mia).get(`${pages()}/`)).body.map((p: { id: string }) => p.id);
    assert.ok(!ids.includes(child.id), 'the list shows top-level pages');
    assert.equal((await as(mia).get(`${pages()}/${child.id}/`)).status, 200);
    assertError(await as(mia).patch(`${pages()}/${created.id}/`, { parent: created.id }), 422, 'VALIDATION_ERROR');
  });

  it('validates bodies (422) and answers 404 for foreign or unknown ids', async () => {
    for (const body of [
      { name: 5 },
      { name: 'x'.repeat(256) },
      { access: 2 },
      { access: null },
      { color: 1 },
      { parent: 'nope' },
      { labels: ['nope'] },
      { labels: 'x' },
      { view_props: [] },
      { logo_props: 'x' },
      { description_binary: 'not base64!' },
    ]) {
      const res = await as(mia).post(`${pages()}/`, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    const mine = await page(mia);
    for (const body of [{ description_html: '<p>x</p>' }, { description_binary: '***' }, { description_binary: 1 }]) {
      const res = await as(mia).patch(`${pages()}/${mine.id}/description/`, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    assert.equal((await as(mia).post(`${pages()}/${mine.id}/access/`, { access: 'private' })).status, 422);
    assert.equal((await as(mia).get(`${pages()}/not-a-uuid/`)).status, 404);

    const theirs = await page(eve, {}, foreign.id, other.slug);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [theirs.id, missing]) {
      assertError(await as(ada).get(`${pages()}/${id}/`), 404, 'NOT_FOUND');
      assertError(await as(ada).patch(`${pages()}/${id}/`, { name: 'x' }), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${pages()}/${id}/archive/`), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${pages()}/${id}/lock/`), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${pages()}/${id}/duplicate/`), 404, 'NOT_FOUND');
      assertError(await as(ada).get(`${pages()}/${id}/description/`), 404, 'NOT_FOUND');
      assertError(await as(ada).get(`${pages()}/${id}/versions/`), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${base()}/favorite-pages/${id}/`), 404, 'NOT_FOUND');
    }
    assertError(await as(ada).post(`${pages()}/`, { parent: theirs.id }), 404, 'NOT_FOUND');
    // a page of this workspace's other project is not this project's
    const there = await page(ada, {}, sibling.id);
    assertError(await as(ada).get(`${pages()}/${there.id}/`), 404, 'NOT_FOUND');
    assertError(await as(ada).get(`${pages()}/${mine.id}/versions/${missing}/`), 404, 'NOT_FOUND');
    // the other workspace's Admin cannot reach this workspace
    assert.equal((await as(eve).get(`${pages()}/${mine.id}/`)).status, 404);
  });

  it('archives with sub-pages, restores, and deletes only archived pages (owner or Admin)', async () => {
    const parent = await page(mia, { name: 'Parent' });
    const child = await page(mia, { name: 'Child', parent: parent.id });
    const grandchild = await page(mia, { name: 'Grandchild', parent: child.id });
    await as(mia).post(`${base()}/favorite-pages/${parent.id}/`);

    assertError(await as(mia).delete(`${pages()}/${parent.id}/`), 400, 'PAGE_NOT_ARCHIVED');
    assertError(await as(max).post(`${pages()}/${parent.id}/archive/`), 403, 'PERMISSION_DENIED');
    const archived = await as(mia).post(`${pages()}/${parent.id}/archive/`);
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    assert.ok(!Number.isNaN(Date.parse(archived.body.archived_at)));
    const today = new Date().toISOString().slice(0, 10);
    for (const p of [parent, child, grandchild]) {
      const got = await as(mia).get(`${pages()}/${p.id}/`);
      assert.equal(got.body.archived_at, today, `${p.name} is archived with its parent`);
    }
    assert.equal((await as(mia).get(`${pages()}/${parent.id}/`)).body.is_favorite, false, 'favourites go');

    // restoring the child alone: its parent is still archived, so it becomes top-level
    assert.equal((await as(ada).delete(`${pages()}/${child.id}/archive/`)).status, 204);
    const restored = (await as(mia).get(`${pages()}/${child.id}/`)).body;
    assert.equal(restored.archived_at, null);
    assert.equal(restored.parent, null);
    assert.equal((await as(mia).get(`${pages()}/${grandchild.id}/`)).body.archived_at, null);

    assertError(await as(max).delete(`${pages()}/${parent.id}/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(mia).delete(`${pages()}/${parent.id}/`)).status, 204, 'the owner deletes');
    assertError(await as(mia).get(`${pages()}/${parent.id}/`), 404, 'NOT_FOUND');
    // a project Admin deletes another's archived page
    const other = await page(max);
    assert.equal((await as(max).post(`${pages()}/${other.id}/archive/`)).status, 200);
    assert.equal((await as(ada).delete(`${pages()}/${other.id}/`)).status, 204);
  });

  it('a locked page refuses edits until unlocked (creator or Admin)', async () => {
    const p = await page(mia, { description_html: '<p>v0</p>' });
    assertError(await as(max).post(`${pages()}/${p.id}/lock/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(mia).post(`${pages()}/${p.id}/lock/`)).status, 204);
    assert.equal((await as(mia).get(`${pages()}/${p.id}/`)).body.is_locked, true);
    assertError(await as(mia).patch(`${pages()}/${p.id}/`, { name: 'x' }), 400, 'PAGE_LOCKED');
    const doc = Buffer.from('yjs-update').toString('base64');
    assertError(
      await as(mia).patch(`${pages()}/${p.id}/description/`, { description_binary: doc, description_html: '<p>x</p>' }),
      400,
      'PAGE_LOCKED',
    );
    assert.equal((await as(ada).delete(`${pages()}/${p.id}/lock/`)).status, 204, 'an Admin unlocks');
    assert.equal((await as(mia).patch(`${pages()}/${p.id}/`, { name: 'x' })).status, 200);
    // archived: the description is refused
    assert.equal((await as(mia).post(`${pages()}/${p.id}/archive/`)).status, 200);
    assertError(
      await as(mia).patch(`${pages()}/${p.id}/description/`, { description_binary: doc, description_html: '<p>x</p>' }),
      400,
      'PAGE_ARCHIVED',
    );
  });

  it("a private page is its owner's alone; only the owner changes access", async () => {
    const p = await page(mia, { name: 'Secret' });
    assert.equal((await as(mia).post(`${pages()}/${p.id}/access/`, { access: 1 })).status, 204);
    assert.equal((await as(mia).get(`${pages()}/${p.id}/`)).body.access, 1);
    for (const u of [max, ada]) {
      assertError(await as(u).get(`${pages()}/${p.id}/`), 404, 'NOT_FOUND');
      assertError(await as(u).get(`${pages()}/${p.id}/description/`), 404, 'NOT_FOUND');
      assertError(await as(u).patch(`${pages()}/${p.id}/`, { name: 'x' }), 404, 'NOT_FOUND');
      assertError(await as(u).post(`${base()}/favorite-pages/${p.id}/`), 404, 'NOT_FOUND');
      const listed = (await as(u).get(`${pages()}/`)).body.map((x: { id: string }) => x.id);
      assert.ok(!listed.includes(p.id));
    }
    assert.ok((await as(mia).get(`${pages()}/`)).body.some((x: { id: string }) => x.id === p.id));
    // back to public; an Admin may lock it but not change its access
    assert.equal((await as(mia).post(`${pages()}/${p.id}/access/`, { access: 0 })).status, 204);
    assertError(await as(ada).post(`${pages()}/${p.id}/access/`, { access: 1 }), 400, 'PAGE_ACCESS_OWNER_ONLY');
    assertError(await as(max).patch(`${pages()}/${p.id}/`, { access: 1 }), 400, 'PAGE_ACCESS_OWNER_ONLY');
    assert.equal((await as(max).patch(`${pages()}/${p.id}/`, { access: 0, name: 'Open' })).status, 200);
    assertError(await as(max).post(`${pages()}/${p.id}/access/`, { access: 1 }), 403, 'PERMISSION_DENIED');
  });

  it('Guests: read only, and only their own pages unless the project shows them everything', async () => {
    const p = await page(mia, { name: 'For everyone' });
    assert.equal((await as(gus).post(`${pages()}/`, { name: 'g' })).status, 403);
    assertError(await as(gus).get(`${pages()}/${p.id}/`), 404, 'NOT_FOUND');
    assert.ok(!(await as(gus).get(`${pages()}/`)).body.some((x: { id: string }) => x.id === p.id));
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    try {
      assert.equal((await as(gus).get(`${pages()}/${p.id}/`)).status, 200);
      assert.ok((await as(gus).get(`${pages()}/`)).body.some((x: { id: string }) => x.id === p.id));
      assert.equal((await as(gus).get(`${pages()}/${p.id}/versions/`)).status, 200);
      assert.equal((await as(gus).patch(`${pages()}/${p.id}/`, { name: 'g' })).status, 403);
      assert.equal((await as(gus).post(`${pages()}/${p.id}/duplicate/`)).status, 403);
      assertError(
        await as(gus).patch(`${pages()}/${p.id}/description/`, {
          description_binary: 'AAAA',
          description_html: '<p/>',
        }),
        403,
        'PERMISSION_DENIED',
      );
      assertError(await as(gus).post(`${pages()}/${p.id}/lock/`), 403, 'PERMISSION_DENIED');
      assert.equal((await as(gus).post(`${base()}/favorite-pages/${p.id}/`)).status, 403);
    } finally {
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [project.id]);
    }
  });

  it('duplicates a page', async () => {
    const p = await page(mia, { name: 'Template', description_html: '<p>body</p>', color: '#123456' });
    const doc = Buffer.from('yjs').toString('base64');
    await as(mia).patch(`${pages()}/${p.id}/description/`, {
      description_binary: doc,
      description_html: '<p>body 2</p>',
    });
    const copy = await as(max).post(`${pages()}/${p.id}/duplicate/`);
    assert.equal(copy.status, 201, JSON.stringify(copy.body));
    assert.deepEqual(Object.keys(copy.body).sort(), DETAIL_FIELDS);
    assert.notEqual(copy.body.id, p.id);
    assert.equal(copy.body.name, 'Template (Copy)');
    assert.equal(copy.body.owned_by, max.userId);
    assert.equal(copy.body.created_by, max.userId);
    assert.equal(copy.body.description_html, '<p>body 2</p>');
    assert.equal(copy.body.color, '#123456');
    assert.deepEqual(copy.body.project_ids, [project.id]);
    const bytes = await binary(max, copy.body.id);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.body.length, 0, 'the copy has no binary document');
  });

  it('round-trips the binary description and keeps versions', async () => {
    const p = await page(mia, { name: 'Notes' });
    const empty = await binary(mia, p.id);
    assert.equal(empty.status, 200);
    assert.match(empty.headers['content-type'], /^application\/octet-stream/);
    assert.match(empty.headers['content-disposition'], /page_description\.bin/);
    assert.equal(empty.body.length, 0);

    const doc = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 10, 13]);
    const saved = await as(max).patch(`${pages()}/${p.id}/description/`, {
      description_binary: doc.toString('base64'),
      description_html: '<p>first</p>',
      description: { type: 'doc', content: [] },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body, { message: 'Updated successfully' });
    const back = await binary(mia, p.id);
    assert.deepEqual(Buffer.from(back.body), doc);
    assert.equal((await as(mia).get(`${pages()}/${p.id}/`)).body.description_html, '<p>first</p>');

    // same HTML: no new version; new HTML: a version
    await as(max).patch(`${pages()}/${p.id}/description/`, {
      description_binary: doc.toString('base64'),
      description_html: '<p>first</p>',
    });
    const doc2 = Buffer.from('second');
    await as(mia).patch(`${pages()}/${p.id}/description/`, {
      description_binary: doc2.toString('base64'),
      description_html: '<p>second</p>',
    });
    const versions = await as(mia).get(`${pages()}/${p.id}/versions/`);
    assert.equal(versions.status, 200);
    assert.equal(versions.body.length, 2);
    for (const v of versions.body) assert.deepEqual(Object.keys(v).sort(), VERSION_FIELDS);
    assert.equal(versions.body[0].owned_by, mia.userId, 'newest first');
    assert.equal(versions.body[0].page, p.id);
    const one = await as(mia).get(`${pages()}/${p.id}/versions/${versions.body[1].id}/`);
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body).sort(), VERSION_DETAIL_FIELDS);
    assert.equal(one.body.description_html, '<p>first</p>');
    assert.equal(one.body.description_binary, doc.toString('base64'));
    assert.deepEqual(one.body.description_json, { type: 'doc', content: [] });
    // a version of another page through this page is a 404
    const q = await page(mia);
    assertError(await as(mia).get(`${pages()}/${q.id}/versions/${versions.body[1].id}/`), 404, 'NOT_FOUND');

    // at most 20 versions
    for (let i = 0; i < 21; i++)
      await as(mia).patch(`${pages()}/${p.id}/description/`, {
        description_binary: doc2.toString('base64'),
        description_html: `<p>v${i}</p>`,
      });
    const kept = await as(mia).get(`${pages()}/${p.id}/versions/`);
    assert.equal(kept.body.length, 20);
  });

  it('favourites through favorite-pages/ and user-favorites/, with is_favorite', async () => {
    const p = await page(mia, { name: 'Favourite me', logo_props: { in_use: 'icon' } });
    assert.equal((await as(max).post(`${base()}/favorite-pages/${p.id}/`)).status, 204);
    assert.equal((await as(max).post(`${base()}/favorite-pages/${p.id}/`)).status, 204, 'twice is a no-op');
    assert.equal((await as(max).get(`${pages()}/${p.id}/`)).body.is_favorite, true);
    assert.equal((await as(mia).get(`${pages()}/${p.id}/`)).body.is_favorite, false, "the caller's own");
    const list = (await as(max).get(`${pages()}/`)).body;
    assert.equal(list[0].id, p.id, 'favourites first');

    const favs = await as(max).get(`/api/workspaces/${ws.slug}/user-favorites/`);
    const fav = favs.body.find((f: { entity_identifier: string }) => f.entity_identifier === p.id);
    assert.ok(fav, JSON.stringify(favs.body));
    assert.equal(fav.entity_type, 'page');
    assert.equal(fav.project_id, project.id);
    assert.deepEqual(fav.entity_data, {
      id: p.id,
      name: 'Favourite me',
      logo_props: { in_use: 'icon' },
      project_id: project.id,
    });

    assert.equal((await as(max).delete(`${base()}/favorite-pages/${p.id}/`)).status, 204);
    assertError(await as(max).delete(`${base()}/favorite-pages/${p.id}/`), 404, 'NOT_FOUND');
    assert.equal((await as(max).get(`${pages()}/${p.id}/`)).body.is_favorite, false);

    // the sidebar's route (what the web app sends)
    const added = await as(max).post(`/api/workspaces/${ws.slug}/user-favorites/`, {
      entity_type: 'page',
      entity_identifier: p.id,
      project_id: project.id,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.entity_data.name, 'Favourite me');
    assert.equal((await as(max).get(`${pages()}/${p.id}/`)).body.is_favorite, true);
    assert.equal((await as(max).delete(`/api/workspaces/${ws.slug}/user-favorites/${added.body.id}/`)).status, 204);

    // a private page of another, or a foreign page, cannot be favourited there either
    const secret = await page(mia, { access: 1 });
    const theirs = await page(eve, {}, foreign.id, other.slug);
    for (const id of [secret.id, theirs.id]) {
      const res = await as(max).post(`/api/workspaces/${ws.slug}/user-favorites/`, {
        entity_type: 'page',
        entity_identifier: id,
      });
      assertError(res, 404, 'NOT_FOUND');
    }
    // deleting a favourite page takes everyone's favourite with it
    await as(max).post(`${base()}/favorite-pages/${p.id}/`);
    await as(mia).post(`${pages()}/${p.id}/archive/`);
    await as(mia).delete(`${pages()}/${p.id}/`);
    const after = await as(max).get(`/api/workspaces/${ws.slug}/user-favorites/`);
    assert.ok(!after.body.some((f: { entity_identifier: string }) => f.entity_identifier === p.id));
  });

  it('an archived project shows no pages and refuses writes', async () => {
    const p = await page(ada, { name: 'Frozen' });
    const proj = await createAppProject(t, ada.token, ws.slug, { name: 'To archive' });
    const q = await page(ada, { name: 'Frozen too' }, proj.id);
    await t.sql('UPDATE projects SET archived_at = now() WHERE id = $1', [proj.id]);
    try {
      const listed = await as(ada).get(`${pages(proj.id)}/`);
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body, []);
      assertError(await as(ada).get(`${pages(proj.id)}/${q.id}/`), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${pages(proj.id)}/`, { name: 'x' }), 400, 'PROJECT_ARCHIVED');
      assertError(await as(ada).post(`${pages(proj.id)}/${q.id}/lock/`), 400, 'PROJECT_ARCHIVED');
    } finally {
      await t.sql('UPDATE projects SET archived_at = NULL WHERE id = $1', [proj.id]);
    }
    assert.equal((await as(ada).get(`${pages()}/${p.id}/`)).status, 200);
  });
});
