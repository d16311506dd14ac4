import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
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

interface UploadData {
  url: string;
  method: string;
  fields: Record<string, string>;
}

/**
 * The web app's uploads (Plane 0.25.3 `/api/assets/v2/…`) on the local store: create the asset, post
 * the file as a multipart form to `upload_data.url` (as `generateFileUploadPayload` and
 * `FileUploadService.uploadFile` do), mark it uploaded, read it back through the redirect.
 */
describe('App API: assets and work item attachments (presigned flow, local store)', () => {
  let t: TestApp;
  let uploads: string;
  let admin: SignedUp;
  let member: SignedUp;
  let member2: SignedUp;
  let guest: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let other: { id: string };
  let foreignProject: { id: string };
  let item: { id: string };
  let otherItem: { id: string };
  const v2 = (rest: string) => `/api/assets/v2/workspaces/${ws.slug}/${rest}`;
  const attachments = (issueId = item.id, pid = project.id) => v2(`projects/${pid}/issues/${issueId}/attachments/`);

  /** the path and query of an absolute URL Meridian handed out */
  const local = (url: string) => {
    const u = new URL(url);
    assert.equal(u.origin, t.url, 'signed URLs point at Meridian itself');
    return u.pathname + u.search;
  };

  /** what the web app does with `upload_data`: the fields, then the file as `file` */
  function postForm(up: UploadData, content: Buffer, name = 'file.bin', type = up.fields['Content-Type']) {
    let req = t.api.post(local(up.url));
    for (const [k, v] of Object.entries(up.fields)) req = req.field(k, v);
    return req.attach('file', content, { filename: name, contentType: type });
  }

  /** follows a read redirect to Meridian's signed URL and returns the response */
  async function follow(res: { status: number; headers: Record<string, string> }) {
    assert.equal(res.status, 302, JSON.stringify(res));
    return t.api.get(local(new URL(res.headers.location, t.url).toString())).buffer(true);
  }

  async function workItem(u: SignedUp, pid = project.id): Promise<{ id: string }> {
    const res = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${pid}/issues/`)
      .auth(u.token, { type: 'bearer' })
      .send({ name: 'with files' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-app-uploads-'));
    t = await startTestApp({ UPLOADS_DIR: uploads, FILE_SIZE_LIMIT: '1000' });
    [admin, member, member2, guest] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, member2.userId, 15);
    await addMember(t, ws.id, guest.userId, 5);
    project = await createAppProject(t, admin.token, ws.slug);
    other = await createAppProject(t, admin.token, ws.slug);
    for (const pid of [project.id, other.id]) {
      await addProjectMember(t, ws.id, pid, member.userId, 15);
      await addProjectMember(t, ws.id, pid, member2.userId, 15);
      await addProjectMember(t, ws.id, pid, guest.userId, 5);
    }
    item = await workItem(member);
    otherItem = await workItem(member, other.id);
    const stranger = await signUp(t);
    const strangerWs = await createWorkspace(t, stranger.token);
    foreignProject = await createAppProject(t, stranger.token, strangerWs.slug);
  });
  after(async () => {
    await t.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('attachment: create → multipart upload → PATCH → listed with asset_url → read returns the bytes', async () => {
    const content = Buffer.from('%PDF-1.4 attachment bytes\n');
    const res = await t.api
      .post(attachments())
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'spec.pdf', type: 'application/pdf', size: content.length });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { upload_data: up, asset_id: id, attachment, asset_url } = res.body;
    assert.equal(up.method, 'POST');
    assert.equal(up.fields['Content-Type'], 'application/pdf');
    assert.equal(typeof up.fields.key, 'string');
    assert.equal(
      asset_url,
      `/api/assets/v2/workspaces/${ws.slug}/projects/${project.id}/issues/${item.id}/attachments/${id}/`,
    );
    assert.equal(attachment.id, id);
    assert.equal(attachment.asset_url, asset_url);
    assert.equal(attachment.is_uploaded, false);
    assert.deepEqual(attachment.attributes, { name: 'spec.pdf', type: 'application/pdf', size: content.length });

    // not listed, not readable, not completable before the upload
    assert.deepEqual((await t.api.get(attachments()).auth(member.token, { type: 'bearer' })).body, []);
    assertError(await t.api.get(asset_url).auth(member.token, { type: 'bearer' }), 400, 'ATTACHMENT_NOT_UPLOADED');
    assertError(await t.api.patch(asset_url).auth(member.token, { type: 'bearer' }), 400, 'ATTACHMENT_NOT_UPLOADED');

    const upload = await postForm(up, content, 'spec.pdf');
    assert.equal(upload.status, 204, JSON.stringify(upload.body));
    const done = await t.api.patch(asset_url).auth(member.token, { type: 'bearer' });
    assert.equal(done.status, 204, JSON.stringify(done.body));
    // once uploaded, the signed URL takes no more uploads
    assertError(await postForm(up, content, 'spec.pdf'), 409, 'CONFLICT');
    assert.equal((await t.api.patch(asset_url).auth(member.token, { type: 'bearer' })).status, 204);

    const list = await t.api.get(attachments()).auth(guest.token, { type: 'bearer' });
    // a Guest sees only the work items they created (Plane's Guest rule)
    assert.equal(list.status, 404);
    const mine = await t.api.get(attachments()).auth(member2.token, { type: 'bearer' });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.length, 1);
    const [row] = mine.body;
    for (const key of [
      'id',
      'attributes',
      'asset',
      'entity_type',
      'is_uploaded',
      'size',
      'asset_url',
      'issue',
      'project',
      'workspace',
      'created_by',
    ]) {
      assert.ok(key in row, `${key} in ${JSON.stringify(row)}`);
    }
    assert.equal(row.is_uploaded, true);
    assert.equal(row.entity_type, 'ISSUE_ATTACHMENT');
    assert.equal(row.issue, item.id);
    assert.equal(row.asset_url, asset_url);

    const file = await follow(await t.api.get(asset_url).auth(member2.token, { type: 'bearer' }));
    assert.equal(file.status, 200);
    assert.deepEqual(file.body, content);
    assert.equal(file.headers['content-type'], 'application/pdf');

    // the history notes the upload once
    const history = await t.sql<{ n: string }>(
      "SELECT count(*)::text AS n FROM issue_activities WHERE issue_id = $1 AND field = 'attachment' AND verb = 'created'",
      [item.id],
    );
    assert.equal(history[0].n, '1');
    // the v1 routes see the same attachment
    const count = await t.sql<{ n: string }>(
      'SELECT count(*)::text AS n FROM file_assets WHERE issue_id = $1 AND deleted_at IS NULL AND is_uploaded',
      [item.id],
    );
    assert.equal(count[0].n, '1');
  });

  it('a file over FILE_SIZE_LIMIT is refused at create (413), and more bytes than declared at upload (413)', async () => {
    assertError(
      await t.api
        .post(attachments())
        .auth(member.token, { type: 'bearer' })
        .send({ name: 'big.txt', type: 'text/plain', size: 1001 }),
      413,
      'ATTACHMENT_TOO_LARGE',
    );
    assertError(
      await t.api
        .post('/api/assets/v2/user-assets/')
        .auth(member.token, { type: 'bearer' })
        .send({ name: 'a.png', type: 'image/png', size: 5000, entity_type: 'USER_AVATAR', entity_identifier: '' }),
      413,
      'ATTACHMENT_TOO_LARGE',
    );
    const res = await t.api
      .post(attachments())
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'small.txt', type: 'text/plain', size: 5 });
    assert.equal(res.status, 200);
    assertError(await postForm(res.body.upload_data, Buffer.alloc(10, 'x')), 413, 'ATTACHMENT_TOO_LARGE');
    assertError(await postForm(res.body.upload_data, Buffer.alloc(2000, 'x')), 413, 'ATTACHMENT_TOO_LARGE');
    // nothing stored: it cannot be completed
    assertError(
      await t.api.patch(res.body.asset_url).auth(member.token, { type: 'bearer' }),
      400,
      'ATTACHMENT_NOT_UPLOADED',
    );
  });

  it('a type outside the allow list is refused (400), at create and in the upload form', async () => {
    for (const body of [
      { name: 'x.exe', type: 'application/x-msdownload', size: 3 },
      { name: 'x', size: 3 },
    ]) {
      assertError(
        await t.api.post(attachments()).auth(member.token, { type: 'bearer' }).send(body),
        400,
        'ATTACHMENT_TYPE_NOT_ALLOWED',
      );
    }
    // avatars, logos and description images are images
    assertError(
      await t.api
        .post('/api/assets/v2/user-assets/')
        .auth(member.token, { type: 'bearer' })
        .send({ name: 'a.txt', type: 'text/plain', size: 3, entity_type: 'USER_AVATAR' }),
      400,
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    assertError(
      await t.api
        .post(v2(`projects/${project.id}/`))
        .auth(member.token, { type: 'bearer' })
        .send({
          name: 'a.svg',
          type: 'image/svg+xml',
          size: 3,
          entity_type: 'ISSUE_DESCRIPTION',
          entity_identifier: item.id,
        }),
      400,
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    // entity types each route takes
    assertError(
      await t.api
        .post('/api/assets/v2/user-assets/')
        .auth(member.token, { type: 'bearer' })
        .send({ name: 'a.png', type: 'image/png', size: 3, entity_type: 'WORKSPACE_LOGO' }),
      400,
      'INVALID_ENTITY_TYPE',
    );
    assertError(
      await t.api
        .post(v2(`projects/${project.id}/`))
        .auth(member.token, { type: 'bearer' })
        .send({ name: 'a.png', type: 'image/png', size: 3, entity_type: 'NOPE' }),
      400,
      'INVALID_ENTITY_TYPE',
    );
    // the form's Content-Type must be the declared one (as an S3 presigned POST's policy)
    const res = await t.api
      .post(attachments())
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'n.txt', type: 'text/plain', size: 3 });
    const up: UploadData = {
      ...res.body.upload_data,
      fields: { ...res.body.upload_data.fields, 'Content-Type': 'text/html' },
    };
    assertError(await postForm(up, Buffer.from('abc')), 400, 'ATTACHMENT_TYPE_NOT_ALLOWED');
    // a raw body is not a form
    assertError(
      await t.api.post(local(res.body.upload_data.url)).set('Content-Type', 'text/plain').send('abc'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // a bad signature
    const forged = res.body.upload_data.url.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
    assertError(await postForm({ ...res.body.upload_data, url: forged }, Buffer.from('abc')), 403, 'INVALID_SIGNATURE');
  });

  it('ids of another project or workspace are 404', async () => {
    const body = { name: 'n.txt', type: 'text/plain', size: 3 };
    // another workspace's project
    assertError(
      await t.api.post(attachments(item.id, foreignProject.id)).auth(admin.token, { type: 'bearer' }).send(body),
      404,
      'PROJECT_NOT_FOUND',
    );
    // another project's work item under this project
    assertError(
      await t.api.post(attachments(otherItem.id)).auth(member.token, { type: 'bearer' }).send(body),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.get(attachments(otherItem.id)).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    // an attachment read under another project, and another project's image
    const created = await t.api.post(attachments()).auth(member.token, { type: 'bearer' }).send(body);
    assertError(
      await t.api
        .get(`${attachments(item.id, other.id)}${created.body.asset_id}/`)
        .auth(member.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    const image = await t.api
      .post(v2(`projects/${project.id}/`))
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'i.png', type: 'image/png', size: 3, entity_type: 'ISSUE_DESCRIPTION', entity_identifier: '' });
    assert.equal(image.status, 200, JSON.stringify(image.body));
    for (const req of [
      t.api.get(v2(`projects/${other.id}/${image.body.asset_id}/`)),
      t.api.patch(v2(`projects/${other.id}/${image.body.asset_id}/`)),
      t.api.delete(v2(`projects/${other.id}/${image.body.asset_id}/`)),
    ]) {
      assertError(await req.auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    }
    // a description image for another project's work item
    assertError(
      await t.api
        .post(v2(`projects/${project.id}/`))
        .auth(member.token, { type: 'bearer' })
        .send({
          name: 'i.png',
          type: 'image/png',
          size: 3,
          entity_type: 'ISSUE_DESCRIPTION',
          entity_identifier: otherItem.id,
        }),
      404,
      'NOT_FOUND',
    );
    // bulk-linking to another project's work item
    assertError(
      await t.api
        .post(v2(`projects/${project.id}/${otherItem.id}/bulk/`))
        .auth(member.token, { type: 'bearer' })
        .send({ asset_ids: [image.body.asset_id] }),
      404,
      'NOT_FOUND',
    );
    // another user's avatar
    const avatar = await t.api
      .post('/api/assets/v2/user-assets/')
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'a.png', type: 'image/png', size: 3, entity_type: 'USER_AVATAR', entity_identifier: '' });
    assertError(
      await t.api.delete(`/api/assets/v2/user-assets/${avatar.body.asset_id}/`).auth(member2.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    // a workspace the caller is not a member of
    assertError(
      await t.api.get(`/api/workspaces/file-assets/${ws.id}/x.png/`).auth((await signUp(t)).token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('delete: the uploader or a project Admin (403 for another Member); the list drops it', async () => {
    const content = Buffer.from('bye');
    const res = await t.api
      .post(attachments())
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'bye.txt', type: 'text/plain', size: content.length });
    assert.equal((await postForm(res.body.upload_data, content)).status, 204);
    assert.equal((await t.api.patch(res.body.asset_url).auth(member.token, { type: 'bearer' })).status, 204);
    assertError(
      await t.api.delete(res.body.asset_url).auth(member2.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal((await t.api.delete(res.body.asset_url).auth(admin.token, { type: 'bearer' })).status, 204);
    const list = await t.api.get(attachments()).auth(member.token, { type: 'bearer' });
    assert.ok(!list.body.some((a: { id: string }) => a.id === res.body.asset_id));
    assertError(await t.api.get(res.body.asset_url).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    // the uploader deletes their own
    const own = await t.api
      .post(attachments())
      .auth(member2.token, { type: 'bearer' })
      .send({ name: 'own.txt', type: 'text/plain', size: 3 });
    assert.equal((await t.api.delete(own.body.asset_url).auth(member2.token, { type: 'bearer' })).status, 204);
  });

  it('a Guest attaches files to their own work items (and to all with guest_view_all_features)', async () => {
    const body = { name: 'g.txt', type: 'text/plain', size: 3 };
    assertError(await t.api.post(attachments()).auth(guest.token, { type: 'bearer' }).send(body), 404, 'NOT_FOUND');
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    try {
      const res = await t.api.post(attachments()).auth(guest.token, { type: 'bearer' }).send(body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await postForm(res.body.upload_data, Buffer.from('abc'))).status, 204);
      assert.equal((await t.api.patch(res.body.asset_url).auth(guest.token, { type: 'bearer' })).status, 204);
      assert.equal((await t.api.delete(res.body.asset_url).auth(guest.token, { type: 'bearer' })).status, 204);
    } finally {
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [project.id]);
    }
  });

  it('avatar: user asset → upload → PATCH makes it the avatar, read publicly through asset_url; DELETE clears it', async () => {
    const png = Buffer.from('\x89PNG fake image');
    const res = await t.api
      .post('/api/assets/v2/user-assets/')
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'me.png', type: 'image/png', size: png.length, entity_type: 'USER_AVATAR', entity_identifier: '' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['asset_id', 'asset_url', 'upload_data']);
    assert.equal(res.body.asset_url, `/api/assets/v2/static/${res.body.asset_id}/`);
    assertError(await t.api.get(res.body.asset_url), 404, 'NOT_FOUND');
    assert.equal((await postForm(res.body.upload_data, png, 'me.png')).status, 204);
    const patch = await t.api
      .patch(`/api/assets/v2/user-assets/${res.body.asset_id}/`)
      .auth(member.token, { type: 'bearer' });
    assert.equal(patch.status, 204, JSON.stringify(patch.body));
    const me = await t.api.get('/api/users/me/').auth(member.token, { type: 'bearer' });
    assert.equal(me.body.avatar_url, res.body.asset_url);
    const file = await follow(await t.api.get(res.body.asset_url));
    assert.deepEqual(file.body, png);

    // a second avatar replaces the first, which is soft-deleted
    const next = await t.api
      .post('/api/assets/v2/user-assets/')
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'me2.png', type: 'image/png', size: png.length, entity_type: 'USER_AVATAR' });
    assert.equal((await postForm(next.body.upload_data, png)).status, 204);
    assert.equal(
      (await t.api.patch(`/api/assets/v2/user-assets/${next.body.asset_id}/`).auth(member.token, { type: 'bearer' }))
        .status,
      204,
    );
    assertError(await t.api.get(res.body.asset_url), 404, 'NOT_FOUND');
    assert.equal(
      (await t.api.get('/api/users/me/').auth(member.token, { type: 'bearer' })).body.avatar_url,
      next.body.asset_url,
    );

    assert.equal(
      (await t.api.delete(`/api/assets/v2/user-assets/${next.body.asset_id}/`).auth(member.token, { type: 'bearer' }))
        .status,
      204,
    );
    assert.equal((await t.api.get('/api/users/me/').auth(member.token, { type: 'bearer' })).body.avatar_url, null);
  });

  it('workspace logo (Admin only) and a workspace image: read, delete, restore, legacy routes', async () => {
    const png = Buffer.from('logo bytes');
    const body = {
      name: 'logo.png',
      type: 'image/png',
      size: png.length,
      entity_type: 'WORKSPACE_LOGO',
      entity_identifier: ws.id,
    };
    assertError(await t.api.post(v2('')).auth(member.token, { type: 'bearer' }).send(body), 403, 'PERMISSION_DENIED');
    const res = await t.api.post(v2('')).auth(admin.token, { type: 'bearer' }).send(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await postForm(res.body.upload_data, png)).status, 204);
    assert.equal((await t.api.patch(v2(`${res.body.asset_id}/`)).auth(admin.token, { type: 'bearer' })).status, 204);
    const w = await t.api.get(`/api/workspaces/${ws.slug}/`).auth(member.token, { type: 'bearer' });
    assert.equal(w.body.logo_url, res.body.asset_url);
    assert.deepEqual((await follow(await t.api.get(res.body.asset_url))).body, png);

    // an image outside any project: read through the workspace route
    const img = await t.api
      .post(v2(''))
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'note.gif', type: 'image/gif', size: 3, entity_type: 'PAGE_DESCRIPTION', entity_identifier: '' });
    assert.equal(img.status, 200, JSON.stringify(img.body));
    assert.equal(img.body.asset_url, v2(`${img.body.asset_id}/`));
    assertError(await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    assert.equal((await postForm(img.body.upload_data, Buffer.from('GIF'))).status, 204);
    assert.equal((await t.api.patch(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 204);
    assert.deepEqual(
      (await follow(await t.api.get(img.body.asset_url).auth(guest.token, { type: 'bearer' }))).body,
      Buffer.from('GIF'),
    );
    // not a static asset
    assertError(await t.api.get(`/api/assets/v2/static/${img.body.asset_id}/`), 404, 'NOT_FOUND');
    assert.equal((await t.api.delete(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 204);
    assertError(await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    assert.equal(
      (await t.api.post(v2(`restore/${img.body.asset_id}/`)).auth(member.token, { type: 'bearer' })).status,
      204,
    );
    assert.equal((await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 302);

    // legacy routes by storage key
    const [{ asset: key }] = await t.sql<{ asset: string }>('SELECT asset FROM file_assets WHERE id = $1', [
      img.body.asset_id,
    ]);
    const shortKey = key.slice(ws.id.length + 1);
    const legacy = `/api/workspaces/file-assets/${ws.id}/${encodeURIComponent(shortKey)}/`;
    const got = await t.api.get(legacy).auth(member.token, { type: 'bearer' });
    assert.equal(got.status, 200);
    assert.equal(got.body.status, true);
    assert.equal(got.body.data[0].id, img.body.asset_id);
    assert.equal((await t.api.delete(legacy).auth(member.token, { type: 'bearer' })).status, 204);
    assert.equal((await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 404);
    assert.equal((await t.api.post(`${legacy}restore/`).auth(member.token, { type: 'bearer' })).status, 204);
    assert.equal((await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 302);
    const missing = await t.api.get('/api/users/file-assets/nothing.png/').auth(member.token, { type: 'bearer' });
    assert.deepEqual(missing.body, { error: 'Asset key does not exist', status: false });
    assertError(
      await t.api.delete('/api/users/file-assets/nothing.png/').auth(member.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
  });

  it('description images of a new work item are linked by the bulk route; a new project gets its cover', async () => {
    const img = await t.api
      .post(v2(`projects/${project.id}/`))
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'd.webp', type: 'image/webp', size: 4, entity_type: 'ISSUE_DESCRIPTION', entity_identifier: '' });
    assert.equal(img.status, 200, JSON.stringify(img.body));
    assert.equal(img.body.asset_url, v2(`projects/${project.id}/${img.body.asset_id}/`));
    assert.equal((await postForm(img.body.upload_data, Buffer.from('WEBP'))).status, 204);
    assert.equal((await t.api.patch(img.body.asset_url).auth(member.token, { type: 'bearer' })).status, 204);
    const fresh = await workItem(member);
    const bulk = await t.api
      .post(v2(`projects/${project.id}/${fresh.id}/bulk/`))
      .auth(member.token, { type: 'bearer' })
      .send({ asset_ids: [img.body.asset_id] });
    assert.equal(bulk.status, 204, JSON.stringify(bulk.body));
    const [row] = await t.sql<{ issue_id: string }>('SELECT issue_id FROM file_assets WHERE id = $1', [
      img.body.asset_id,
    ]);
    assert.equal(row.issue_id, fresh.id);
    assert.deepEqual(
      (await follow(await t.api.get(img.body.asset_url).auth(member.token, { type: 'bearer' }))).body,
      Buffer.from('WEBP'),
    );
    assert.equal(
      (
        await t.api
          .post(v2(`projects/${project.id}/${fresh.id}/bulk/`))
          .auth(member.token, { type: 'bearer' })
          .send({ asset_ids: [] })
      ).status,
      422,
    );

    // a cover uploaded before the project exists, then linked to it (project Admin)
    const cover = await t.api
      .post(v2(''))
      .auth(admin.token, { type: 'bearer' })
      .send({ name: 'c.jpg', type: 'image/jpeg', size: 5, entity_type: 'PROJECT_COVER', entity_identifier: '' });
    assert.equal(cover.status, 200, JSON.stringify(cover.body));
    assert.equal((await postForm(cover.body.upload_data, Buffer.from('JFIF!'))).status, 204);
    assert.equal((await t.api.patch(v2(`${cover.body.asset_id}/`)).auth(admin.token, { type: 'bearer' })).status, 204);
    const p = await createAppProject(t, admin.token, ws.slug);
    assertError(
      await t.api
        .post(v2(`projects/${project.id}/${project.id}/bulk/`))
        .auth(member.token, { type: 'bearer' })
        .send({ asset_ids: [cover.body.asset_id] }),
      403,
      'PERMISSION_DENIED',
    );
    const linked = await t.api
      .post(v2(`projects/${p.id}/${p.id}/bulk/`))
      .auth(admin.token, { type: 'bearer' })
      .send({ asset_ids: [cover.body.asset_id] });
    assert.equal(linked.status, 204, JSON.stringify(linked.body));
    const got = await t.api.get(`/api/workspaces/${ws.slug}/projects/${p.id}/`).auth(admin.token, { type: 'bearer' });
    assert.equal(got.body.cover_image_url, cover.body.asset_url);
  });
});
