import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
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

/** Every field of Plane's `IssueAttachmentSerializer` / `FileAssetSerializer` (`fields = "__all__"`), and `asset_url`. */
const ASSET_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'deleted_at',
  'attributes',
  'asset',
  'entity_type',
  'entity_identifier',
  'is_deleted',
  'is_archived',
  'external_id',
  'external_source',
  'size',
  'is_uploaded',
  'storage_metadata',
  'created_by',
  'updated_by',
  'user',
  'workspace',
  'draft_issue',
  'project',
  'issue',
  'comment',
  'page',
  'asset_url',
].sort();

const LIMIT = 1000;
const PNG = Buffer.from('\x89PNG\r\n\x1a\n legacy image bytes', 'latin1');

/**
 * Plane 0.25.3's pre-v2 multipart uploads (`IssueAttachmentEndpoint.post`, `UserAssetsEndpoint.post`,
 * `FileAssetEndpoint.post`): the file in the `asset` part, stored at once; the asset is then served by
 * the routes that were already there (the attachment list and download, the legacy key routes, the
 * static and workspace reads). On the local store, with `FILE_SIZE_LIMIT` = 1000 bytes.
 */
describe('App API: legacy multipart uploads (issue-attachments/, users/file-assets/, workspaces/{slug}/file-assets/)', () => {
  let t: TestApp;
  let uploads: string;
  let admin: SignedUp;
  let member: SignedUp;
  let member2: SignedUp;
  let guest: SignedUp;
  let outsider: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let other: { id: string };
  let item: { id: string };
  let otherItem: { id: string };
  let foreign: { slug: string; project: { id: string }; item: { id: string } };

  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const legacyAttachments = (issueId = item.id, pid = project.id, slug = ws.slug) =>
    `/api/workspaces/${slug}/projects/${pid}/issues/${issueId}/issue-attachments/`;
  const wsAssets = (slug = ws.slug) => `/api/workspaces/${slug}/file-assets/`;

  /** a multipart post of `content` as the `field` part (default `asset`), with the given text fields */
  function upload(
    url: string,
    u: SignedUp | null,
    content: Buffer,
    opts: { name?: string; type?: string; field?: string; fields?: Record<string, string> } = {},
  ) {
    let req = t.api.post(url);
    if (u) req = req.set(bearer(u));
    for (const [k, v] of Object.entries(opts.fields ?? {})) req = req.field(k, v);
    return req.attach(opts.field ?? 'asset', content, {
      filename: opts.name ?? 'file.bin',
      contentType: opts.type ?? 'application/octet-stream',
    });
  }

  /** the path and query of an absolute URL Meridian handed out */
  const local = (url: string) => {
    const u = new URL(url, t.url);
    assert.equal(u.origin, t.url, 'signed URLs point at Meridian itself');
    return u.pathname + u.search;
  };

  /** follows a read redirect to Meridian's signed URL and returns the file's answer */
  async function follow(res: { status: number; headers: Record<string, string>; body: unknown }) {
    assert.equal(res.status, 302, JSON.stringify(res.body));
    return t.api.get(local(res.headers.location)).buffer(true);
  }

  async function workItem(u: SignedUp, pid = project.id, slug = ws.slug): Promise<{ id: string }> {
    const res = await t.api
      .post(`/api/workspaces/${slug}/projects/${pid}/issues/`)
      .set(bearer(u))
      .send({ name: 'with files' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  const count = async (where: string, params: unknown[]) =>
    Number((await t.sql<{ n: string }>(`SELECT count(*)::text AS n FROM file_assets WHERE ${where}`, params))[0].n);

  /** a raw request (for bodies supertest would not send): the status and parsed body of the answer */
  function raw(
    url: string,
    u: SignedUp,
    headers: Record<string, string | number>,
    send: (req: http.ClientRequest) => void,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${t.url}${url}`, { method: 'POST', headers: { ...bearer(u), ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        });
      });
      // the server may answer and close before the whole body is sent
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
      });
      send(req);
    });
  }

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-legacy-uploads-'));
    t = await startTestApp({ UPLOADS_DIR: uploads, FILE_SIZE_LIMIT: String(LIMIT) });
    [admin, member, member2, guest, outsider] = [
      await signUp(t),
      await signUp(t),
      await signUp(t),
      await signUp(t),
      await signUp(t),
    ];
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
    const foreignWs = await createWorkspace(t, outsider.token);
    const foreignProject = await createAppProject(t, outsider.token, foreignWs.slug);
    foreign = {
      slug: foreignWs.slug,
      project: foreignProject,
      item: await workItem(outsider, foreignProject.id, foreignWs.slug),
    };
  });
  after(async () => {
    await t.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  describe('POST …/issues/{issue_id}/issue-attachments/', () => {
    it('stores the file: 201 with the serializer, listed, downloadable through asset_url, in the history', async () => {
      const content = Buffer.from('%PDF-1.4 legacy attachment\n');
      const res = await upload(legacyAttachments(), member, content, {
        name: 'spec.pdf',
        type: 'application/pdf',
        fields: { attributes: JSON.stringify({ name: 'Spec, final.pdf', type: 'text/plain', size: 1 }) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const a = res.body;
      assert.deepEqual(Object.keys(a).sort(), ASSET_FIELDS);
      assert.equal(a.entity_type, 'ISSUE_ATTACHMENT');
      assert.equal(a.entity_identifier, item.id);
      assert.equal(a.is_uploaded, true);
      assert.equal(a.is_deleted, false);
      assert.equal(a.size, content.length);
      // the name is the client's; the type and size are the file's
      assert.deepEqual(a.attributes, { name: 'Spec, final.pdf', type: 'application/pdf', size: content.length });
      assert.equal(a.issue, item.id);
      assert.equal(a.project, project.id);
      assert.equal(a.workspace, ws.id);
      assert.equal(a.created_by, member.userId);
      assert.match(a.asset, new RegExp(`^${ws.id}/[0-9a-f]{32}-spec\\.pdf$`));
      assert.equal(
        a.asset_url,
        `/api/assets/v2/workspaces/${ws.slug}/projects/${project.id}/issues/${item.id}/attachments/${a.id}/`,
      );

      // the legacy list (and the v2 one) show it to another member
      const list = await t.api.get(legacyAttachments()).set(bearer(member2));
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((r: { id: string }) => r.id),
        [a.id],
      );
      assert.equal(list.body[0].asset_url, a.asset_url);
      assert.deepEqual(list.body[0], a);

      // the list's asset_url answers the bytes
      const file = await follow(await t.api.get(a.asset_url).set(bearer(member2)));
      assert.equal(file.status, 200);
      assert.deepEqual(file.body, content);
      assert.equal(file.headers['content-type'], 'application/pdf');

      // the history notes the upload once, with the attachment
      const history = await t.sql<{ verb: string; new_identifier: string; actor_id: string }>(
        "SELECT verb, new_identifier, actor_id FROM issue_activities WHERE issue_id = $1 AND field = 'attachment'",
        [item.id],
      );
      assert.deepEqual(history, [{ verb: 'created', new_identifier: a.id, actor_id: member.userId }]);
      const counted = await t.api
        .get(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/${item.id}/`)
        .set(bearer(member));
      assert.equal(counted.body.attachment_count, 1);

      // another member may not delete it (uploader or project Admin); the uploader may
      assertError(await t.api.delete(`${legacyAttachments()}${a.id}/`).set(bearer(member2)), 403, 'PERMISSION_DENIED');
      assert.equal((await t.api.delete(`${legacyAttachments()}${a.id}/`).set(bearer(member))).status, 204);
      assert.deepEqual((await t.api.get(legacyAttachments()).set(bearer(member))).body, []);
      assertError(await t.api.get(a.asset_url).set(bearer(member)), 404, 'NOT_FOUND');
    });

    it('takes the file name when no attributes name is given, and a Content-Type with parameters', async () => {
      const res = await upload(legacyAttachments(), member, Buffer.from('plain words'), {
        name: 'notes.txt',
        type: 'Text/Plain; charset=utf-8',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body.attributes, { name: 'notes.txt', type: 'text/plain', size: 11 });
      const file = await follow(await t.api.get(res.body.asset_url).set(bearer(member)));
      assert.equal(file.text ?? file.body.toString(), 'plain words');
      assert.equal((await t.api.delete(`${legacyAttachments()}${res.body.id}/`).set(bearer(admin))).status, 204);
    });

    it('refuses a bad upload with 400/413/415/422 in the error shape, and stores nothing', async () => {
      const before = await count('issue_id = $1', [item.id]);
      const url = legacyAttachments();
      const cases: Array<[Promise<{ status: number; body: unknown }>, number, string]> = [
        // over FILE_SIZE_LIMIT
        [
          upload(url, member, Buffer.alloc(LIMIT + 1, 'x'), { name: 'big.txt', type: 'text/plain' }),
          413,
          'ATTACHMENT_TOO_LARGE',
        ],
        // empty file
        [upload(url, member, Buffer.alloc(0), { name: 'empty.txt', type: 'text/plain' }), 400, 'FILE_EMPTY'],
        // the file under another field
        [
          upload(url, member, Buffer.from('x'), { field: 'file', name: 'a.txt', type: 'text/plain' }),
          400,
          'FILE_REQUIRED',
        ],
        // no file at all, only fields
        [t.api.post(url).set(bearer(member)).field('attributes', '{}'), 400, 'FILE_REQUIRED'],
        // `asset` as a text value
        [t.api.post(url).set(bearer(member)).field('asset', 'not a file'), 400, 'FILE_REQUIRED'],
        // a url-encoded form cannot carry a file
        [t.api.post(url).set(bearer(member)).type('form').send('asset=x'), 400, 'FILE_REQUIRED'],
        // JSON is not a form (Plane's parsers: 415)
        [t.api.post(url).set(bearer(member)).send({ asset: 'x' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
        // a type outside Plane's ATTACHMENT_MIME_TYPES
        [
          upload(url, member, Buffer.from('MZ'), { name: 'x.exe', type: 'application/x-msdownload' }),
          400,
          'ATTACHMENT_TYPE_NOT_ALLOWED',
        ],
        // attributes that are not a JSON object
        [
          upload(url, member, Buffer.from('x'), { name: 'a.txt', type: 'text/plain', fields: { attributes: '{nope' } }),
          422,
          'VALIDATION_ERROR',
        ],
        [
          upload(url, member, Buffer.from('x'), {
            name: 'a.txt',
            type: 'text/plain',
            fields: { attributes: '{"name":"\\u0000"}' },
          }),
          400,
          'INVALID_CHARACTERS',
        ],
        // a multipart body that does not parse
        [
          t.api
            .post(url)
            .set(bearer(member))
            .set('Content-Type', 'multipart/form-data; boundary=XYZ')
            .send('--ABC\r\nnot a form\r\n'),
          400,
          'MALFORMED_REQUEST',
        ],
      ];
      for (const [pending, status, code] of cases) assertError(await pending, status, code);
      // the detail names the field to use
      const wrong = await upload(url, member, Buffer.from('x'), { field: 'file', name: 'a.txt', type: 'text/plain' });
      assert.match((wrong.body as { detail: string }).detail, /`asset`.*`file`/);
      // anonymous
      assertError(
        await upload(url, null, Buffer.from('x'), { name: 'a.txt', type: 'text/plain' }),
        401,
        'AUTHENTICATION_REQUIRED',
      );
      assert.equal(await count('issue_id = $1', [item.id]), before);
    });

    it('refuses a body over the limit by its Content-Length, and a streamed one as it is read (413)', async () => {
      const before = await count('issue_id = $1', [item.id]);
      const boundary = 'meridianboundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="asset"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      // announced: answered before the body is sent
      const announced = await raw(
        legacyAttachments(),
        member,
        { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 10 * 1024 * 1024 },
        (req) => {
          req.flushHeaders();
          req.write(head);
        },
      );
      assert.equal(announced.status, 413, JSON.stringify(announced.body));
      assert.equal(announced.body.error_code, 'ATTACHMENT_TOO_LARGE');
      assert.equal(announced.body.file_size_limit, LIMIT);
      // chunked, no length: refused once more than the limit and the form overhead has arrived
      const streamed = await raw(
        legacyAttachments(),
        member,
        { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
        (req) => {
          req.write(head);
          req.write(Buffer.alloc(80 * 1024, 'x'));
          req.end(`\r\n--${boundary}--\r\n`);
        },
      );
      assert.equal(streamed.status, 413, JSON.stringify(streamed.body));
      assert.equal(streamed.body.error_code, 'ATTACHMENT_TOO_LARGE');
      assert.equal(await count('issue_id = $1', [item.id]), before);
      // the server still answers
      assert.equal((await t.api.get(legacyAttachments()).set(bearer(member))).status, 200);
    });

    it('a work item, project or workspace outside the path is a 404', async () => {
      const file = { name: 'a.txt', type: 'text/plain' };
      const x = Buffer.from('x');
      // another project's work item under this project
      assertError(await upload(legacyAttachments(otherItem.id), member, x, file), 404, 'NOT_FOUND');
      // an unknown work item
      assertError(
        await upload(legacyAttachments('00000000-0000-4000-8000-000000000000'), member, x, file),
        404,
        'NOT_FOUND',
      );
      // another workspace's project (under this workspace), and another workspace
      assertError(
        await upload(legacyAttachments(foreign.item.id, foreign.project.id), member, x, file),
        404,
        'PROJECT_NOT_FOUND',
      );
      assertError(
        await upload(legacyAttachments(foreign.item.id, foreign.project.id, foreign.slug), member, x, file),
        404,
        'WORKSPACE_NOT_FOUND',
      );
      // the outsider's own work item, through this workspace's path: not theirs here
      assertError(await upload(legacyAttachments(), outsider, x, file), 404, 'WORKSPACE_NOT_FOUND');
      assert.equal(await count('issue_id IN ($1, $2)', [otherItem.id, foreign.item.id]), 0);
    });

    it("a Guest uploads only to the work items they may see (Plane's Guest rule); an archived project refuses", async () => {
      const file = { name: 'g.txt', type: 'text/plain' };
      assertError(await upload(legacyAttachments(), guest, Buffer.from('g'), file), 404, 'NOT_FOUND');
      const own = await workItem(member);
      await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [own.id, guest.userId]);
      const res = await upload(legacyAttachments(own.id), guest, Buffer.from('g'), file);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.created_by, guest.userId);

      await t.sql('UPDATE projects SET archived_at = now() WHERE id = $1', [other.id]);
      try {
        assertError(
          await upload(legacyAttachments(otherItem.id, other.id), member, Buffer.from('a'), file),
          400,
          'PROJECT_ARCHIVED',
        );
      } finally {
        await t.sql('UPDATE projects SET archived_at = NULL WHERE id = $1', [other.id]);
      }
      assert.equal(await count('issue_id = $1', [otherItem.id]), 0);
    });
  });

  describe('POST /api/users/file-assets/', () => {
    it("stores the caller's image: 201, served by the static read and the key routes, deletable by key", async () => {
      const res = await upload('/api/users/file-assets/', member, PNG, { name: 'me.png', type: 'image/png' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const a = res.body;
      assert.deepEqual(Object.keys(a).sort(), ASSET_FIELDS);
      assert.equal(a.entity_type, 'USER_AVATAR');
      assert.equal(a.workspace, null);
      assert.equal(a.user, member.userId);
      assert.equal(a.created_by, member.userId);
      assert.equal(a.is_uploaded, true);
      assert.deepEqual(a.attributes, { name: 'me.png', type: 'image/png', size: PNG.length });
      assert.match(a.asset, /^user-[0-9a-f]{32}-me\.png$/);
      assert.equal(a.asset_url, `/api/assets/v2/static/${a.id}/`);
      assert.deepEqual((await follow(await t.api.get(a.asset_url))).body, PNG);

      // the legacy key routes: the caller's own only
      const got = await t.api.get(`/api/users/file-assets/${a.asset}/`).set(bearer(member));
      assert.equal(got.status, 200);
      assert.equal(got.body.status, true);
      assert.equal(got.body.data.id, a.id);
      assert.deepEqual((await t.api.get(`/api/users/file-assets/${a.asset}/`).set(bearer(member2))).body, {
        error: 'Asset key does not exist',
        status: false,
      });
      assertError(await t.api.delete(`/api/users/file-assets/${a.asset}/`).set(bearer(member2)), 404, 'NOT_FOUND');

      // the avatar is not changed by the upload (the client saves the URL itself, as with Plane)
      const me = await t.api.get('/api/users/me/').set(bearer(member));
      assert.notEqual(me.body.avatar, a.asset_url);

      assert.equal((await t.api.delete(`/api/users/file-assets/${a.asset}/`).set(bearer(member))).status, 204);
      assertError(await t.api.get(a.asset_url), 404, 'NOT_FOUND');
    });

    it('takes entity_type USER_COVER and an attributes name; refuses other types, files and sizes', async () => {
      const cover = await upload('/api/users/file-assets/', guest, PNG, {
        name: 'c.webp',
        type: 'image/webp',
        fields: { entity_type: 'USER_COVER', attributes: '{"name":"My cover"}' },
      });
      assert.equal(cover.status, 201, JSON.stringify(cover.body));
      assert.equal(cover.body.entity_type, 'USER_COVER');
      assert.equal(cover.body.attributes.name, 'My cover');
      assert.equal((await t.api.get(cover.body.asset_url)).status, 302);

      const url = '/api/users/file-assets/';
      const before = await count('created_by_id = $1', [member.userId]);
      assertError(
        await upload(url, member, PNG, { name: 'a.png', type: 'image/png', fields: { entity_type: 'WORKSPACE_LOGO' } }),
        400,
        'INVALID_ENTITY_TYPE',
      );
      assertError(
        await upload(url, member, PNG, { name: 'a.svg', type: 'image/svg+xml' }),
        400,
        'ATTACHMENT_TYPE_NOT_ALLOWED',
      );
      assertError(
        await upload(url, member, Buffer.from('t'), { name: 'a.txt', type: 'text/plain' }),
        400,
        'ATTACHMENT_TYPE_NOT_ALLOWED',
      );
      assertError(
        await upload(url, member, Buffer.alloc(LIMIT + 1, 1), { name: 'a.png', type: 'image/png' }),
        413,
        'ATTACHMENT_TOO_LARGE',
      );
      assertError(await upload(url, member, Buffer.alloc(0), { name: 'a.png', type: 'image/png' }), 400, 'FILE_EMPTY');
      assertError(
        await upload(url, member, PNG, { field: 'avatar', name: 'a.png', type: 'image/png' }),
        400,
        'FILE_REQUIRED',
      );
      assertError(await t.api.post(url).set(bearer(member)).send({}), 415, 'UNSUPPORTED_MEDIA_TYPE');
      assertError(await upload(url, null, PNG, { name: 'a.png', type: 'image/png' }), 401, 'AUTHENTICATION_REQUIRED');
      assert.equal(await count('created_by_id = $1', [member.userId]), before);
    });
  });

  describe('POST /api/workspaces/{slug}/file-assets/', () => {
    it('stores a file of the workspace: 201, read by members through asset_url, found, deleted and restored by key', async () => {
      const res = await upload(wsAssets(), member, PNG, { name: 'diagram.png', type: 'image/png' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const a = res.body;
      assert.deepEqual(Object.keys(a).sort(), ASSET_FIELDS);
      assert.equal(a.workspace, ws.id);
      assert.equal(a.project, null);
      assert.equal(a.entity_type, 'PAGE_DESCRIPTION');
      assert.equal(a.is_uploaded, true);
      assert.deepEqual(a.attributes, { name: 'diagram.png', type: 'image/png', size: PNG.length });
      assert.ok(a.asset.startsWith(`${ws.id}/`), a.asset);
      assert.equal(a.asset_url, `/api/assets/v2/workspaces/${ws.slug}/${a.id}/`);
      // any member of the workspace reads it, Guests too; others do not
      assert.deepEqual((await follow(await t.api.get(a.asset_url).set(bearer(guest)))).body, PNG);
      assertError(await t.api.get(a.asset_url).set(bearer(outsider)), 404, 'WORKSPACE_NOT_FOUND');

      // the legacy key routes
      const key = `/api/workspaces/file-assets/${ws.id}/${encodeURIComponent(a.asset.slice(ws.id.length + 1))}/`;
      const got = await t.api.get(key).set(bearer(member2));
      assert.equal(got.status, 200);
      assert.equal(got.body.status, true);
      assert.deepEqual(
        got.body.data.map((r: { id: string }) => r.id),
        [a.id],
      );
      assertError(await t.api.get(key).set(bearer(outsider)), 404, 'WORKSPACE_NOT_FOUND');
      assert.equal((await t.api.delete(key).set(bearer(member2))).status, 204);
      assertError(await t.api.get(a.asset_url).set(bearer(member)), 404, 'NOT_FOUND');
      assert.equal((await t.api.post(`${key}restore/`).set(bearer(member))).status, 204);
      assert.equal((await t.api.get(a.asset_url).set(bearer(member))).status, 302);
    });

    it('any workspace member uploads; a logo only a workspace Admin, a cover a project Admin; nothing is put in place', async () => {
      const guestUpload = await upload(wsAssets(), guest, PNG, { name: 'g.gif', type: 'image/gif' });
      assert.equal(guestUpload.status, 201, JSON.stringify(guestUpload.body));

      const logo = { name: 'logo.png', type: 'image/png', fields: { entity_type: 'WORKSPACE_LOGO' } };
      assertError(await upload(wsAssets(), member, PNG, logo), 403, 'PERMISSION_DENIED');
      const byAdmin = await upload(wsAssets(), admin, PNG, logo);
      assert.equal(byAdmin.status, 201, JSON.stringify(byAdmin.body));
      assert.equal(byAdmin.body.entity_identifier, ws.id);
      assert.equal(byAdmin.body.asset_url, `/api/assets/v2/static/${byAdmin.body.id}/`);
      const w = await t.api.get(`/api/workspaces/${ws.slug}/`).set(bearer(admin));
      assert.notEqual(w.body.logo_url, byAdmin.body.asset_url);

      const cover = (pid: string) => ({
        name: 'cover.jpg',
        type: 'image/jpeg',
        fields: { entity_type: 'PROJECT_COVER', entity_identifier: pid },
      });
      assertError(await upload(wsAssets(), member, PNG, cover(project.id)), 403, 'PERMISSION_DENIED');
      assertError(await upload(wsAssets(), admin, PNG, cover(foreign.project.id)), 404, 'NOT_FOUND');
      const projectCover = await upload(wsAssets(), admin, PNG, cover(project.id));
      assert.equal(projectCover.status, 201, JSON.stringify(projectCover.body));
      assert.equal(projectCover.body.project, project.id);
    });

    it('refuses outsiders (404), bad entity types, files and sizes, and stores nothing', async () => {
      const before = await count('workspace_id = $1', [ws.id]);
      const png = { name: 'a.png', type: 'image/png' };
      assertError(await upload(wsAssets(), outsider, PNG, png), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await upload(wsAssets('no-such-workspace'), member, PNG, png), 404, 'WORKSPACE_NOT_FOUND');
      assertError(
        await upload(wsAssets(), member, PNG, { ...png, fields: { entity_type: 'ISSUE_ATTACHMENT' } }),
        400,
        'INVALID_ENTITY_TYPE',
      );
      assertError(
        await upload(wsAssets(), member, Buffer.from('%PDF'), { name: 'a.pdf', type: 'application/pdf' }),
        400,
        'ATTACHMENT_TYPE_NOT_ALLOWED',
      );
      assertError(await upload(wsAssets(), member, Buffer.alloc(LIMIT + 1, 2), png), 413, 'ATTACHMENT_TOO_LARGE');
      assertError(await upload(wsAssets(), member, Buffer.alloc(0), png), 400, 'FILE_EMPTY');
      assertError(await upload(wsAssets(), member, PNG, { ...png, field: 'file' }), 400, 'FILE_REQUIRED');
      assertError(await t.api.post(wsAssets()).set(bearer(member)).send({ asset: 'x' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      assertError(await upload(wsAssets(), null, PNG, png), 401, 'AUTHENTICATION_REQUIRED');
      assert.equal(await count('workspace_id = $1', [ws.id]), before);
    });
  });

  it('the OpenAPI document describes the three uploads as multipart forms with an `asset` file', async () => {
    const doc = JSON.parse((await t.api.get('/api/openapi.json')).text);
    for (const p of [
      '/api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-attachments/',
      '/api/users/file-assets/',
      '/api/workspaces/{slug}/file-assets/',
    ]) {
      const op = doc.paths[p]?.post;
      assert.ok(op, `POST ${p} is documented`);
      const schema = op.requestBody?.content?.['multipart/form-data']?.schema;
      assert.equal(schema?.properties?.asset?.format, 'binary', `POST ${p}: ${JSON.stringify(op.requestBody)}`);
      assert.deepEqual(schema.required, ['asset']);
      assert.ok(op.responses['201'], `POST ${p}: 201`);
      assert.deepEqual(op.security, [{ bearer: [] }]);
    }
  });
});
