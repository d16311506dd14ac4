import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '#common';
import { AttachmentService, createObjectStorage } from '#domain';
import {
  addMemberWithKey,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** every file under `dir`, recursively */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('External API v1: work item attachments (local store)', () => {
  let t: TestApp;
  let uploads: string;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  let other: { id: string };
  let item: { id: string };
  let foreign: { id: string };
  const p = (rest: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${rest}`;
  /** the path and query of an absolute URL Meridian handed out */
  const local = (url: string) => {
    const u = new URL(url);
    assert.equal(u.origin, t.url, 'signed URLs point at Meridian itself');
    return u.pathname + u.search;
  };

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-uploads-'));
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000', UPLOADS_DIR: uploads, FILE_SIZE_LIMIT: '1000' });
    const owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'ATT', name: 'Attachments' });
    other = await createProject(t, key, ws.slug, { identifier: 'OTA', name: 'Other' });
    item = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'with files' })).body;
    foreign = (await t.api.post(p('issues/', other.id)).set('X-API-Key', key).send({ name: 'elsewhere' })).body;
  });
  after(async () => {
    await t.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  async function create(body: Record<string, unknown>, base = `work-items/${item.id}/attachments/`) {
    return t.api.post(p(base)).set('X-API-Key', key).send(body);
  }

  it('two-step upload through HTTP, listed, downloaded with the same bytes, with history', async () => {
    const content = Buffer.from('hello, attachment\n');
    const res = await create({ name: 'notes.txt', type: 'text/plain', size: content.length });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { upload_data: up, asset_id: id, attachment } = res.body;
    assert.equal(attachment.id, id);
    assert.equal(attachment.is_uploaded, false);
    assert.deepEqual(attachment.attributes, { name: 'notes.txt', type: 'text/plain', size: content.length });
    assert.equal(attachment.issue, item.id);
    assert.equal(attachment.entity_type, 'ISSUE_ATTACHMENT');
    assert.match(attachment.asset, new RegExp(`^${ws.id}/[0-9a-f]{32}-notes\\.txt$`));
    assert.equal(up.method, 'PUT');
    // not listed, not downloadable, not completable before the upload
    assert.deepEqual((await t.api.get(p(`work-items/${item.id}/attachments/`)).set('X-API-Key', key)).body, []);
    assertError(
      await t.api.get(p(`work-items/${item.id}/attachments/${id}/`)).set('X-API-Key', key),
      400,
      'ATTACHMENT_NOT_UPLOADED',
    );
    assertError(
      await t.api
        .patch(p(`work-items/${item.id}/attachments/${id}/`))
        .set('X-API-Key', key)
        .send({ is_uploaded: true }),
      400,
      'ATTACHMENT_NOT_UPLOADED',
    );

    const put = await t.api.put(local(up.url)).set('Content-Type', 'text/plain').send(content);
    assert.equal(put.status, 204, JSON.stringify(put.body));
    assert.deepEqual(files(uploads).length, 1);

    const done = await t.api
      .patch(p(`issues/${item.id}/issue-attachments/${id}/`))
      .set('X-API-Key', key)
      .send({ is_uploaded: true });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.is_uploaded, true);
    // completing twice writes history once
    assert.equal(
      (
        await t.api
          .patch(p(`work-items/${item.id}/attachments/${id}/`))
          .set('X-API-Key', key)
          .send({})
      ).status,
      200,
    );

    for (const base of [`work-items/${item.id}/attachments/`, `issues/${item.id}/issue-attachments/`]) {
      const list = await t.api.get(p(base)).set('X-API-Key', key);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((a: { id: string }) => a.id),
        [id],
      );
    }
    const redirect = await t.api
      .get(p(`work-items/${item.id}/attachments/${id}/`))
      .set('X-API-Key', key)
      .redirects(0);
    assert.equal(redirect.status, 302);
    const dl = await t.api
      .get(local(redirect.headers.location))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    assert.equal(dl.status, 200);
    assert.deepEqual(dl.body, content);
    assert.equal(dl.headers['content-type'].split(';')[0], 'text/plain');
    assert.match(dl.headers['content-disposition'], /attachment; filename\*=UTF-8''notes\.txt/);

    const hist = await t.sql<{ verb: string; field: string; new_value: string; new_identifier: string }>(
      `SELECT verb, field, new_value, new_identifier FROM issue_activities WHERE issue_id = $1 AND field = 'attachment'`,
      [item.id],
    );
    assert.deepEqual(hist, [{ verb: 'created', field: 'attachment', new_value: 'notes.txt', new_identifier: id }]);
  });

  it('a JSON file uploads byte for byte (the body is not parsed as JSON)', async () => {
    const content = Buffer.from('{"a": [1, 2]}');
    const res = await create({ name: 'data.json', type: 'application/json', size: content.length });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const put = await t.api
      .put(local(res.body.upload_data.url))
      .set('Content-Type', 'application/json')
      .send(content.toString());
    assert.equal(put.status, 204, JSON.stringify(put.body));
    const done = await t.api
      .patch(p(`work-items/${item.id}/attachments/${res.body.asset_id}/`))
      .set('X-API-Key', key)
      .send({ is_uploaded: true });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const redirect = await t.api
      .get(p(`work-items/${item.id}/attachments/${res.body.asset_id}/`))
      .set('X-API-Key', key)
      .redirects(0);
    const dl = await t.api
      .get(local(redirect.headers.location))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    assert.deepEqual(dl.body, content);
  });

  it('a viewer (role 5) lists but cannot add attachments', async () => {
    const viewer = await signUp(t);
    const viewerKey = await addMemberWithKey(t, ws, viewer, 15);
    await addProjectMember(t, ws.id, project.id, viewer.userId, 5);
    const list = await t.api.get(p(`work-items/${item.id}/attachments/`)).set('X-API-Key', viewerKey);
    assert.equal(list.status, 200);
    assertError(
      await t.api
        .post(p(`work-items/${item.id}/attachments/`))
        .set('X-API-Key', viewerKey)
        .send({ name: 'v.txt', type: 'text/plain', size: 1 }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('a declared size over FILE_SIZE_LIMIT, a type off the allow list and a bad body are refused', async () => {
    const big = await create({ name: 'big.png', type: 'image/png', size: 1001 });
    assertError(big, 413, 'ATTACHMENT_TOO_LARGE');
    assert.equal((big.body as { file_size_limit: number }).file_size_limit, 1000);
    assertError(
      await create({ name: 'run.exe', type: 'application/x-msdownload', size: 10 }),
      400,
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    assertError(await create({ name: 'x.txt', type: 'text/plain' }), 422, 'VALIDATION_ERROR');
    assertError(await create({ type: 'text/plain', size: 3 }), 422, 'VALIDATION_ERROR');
    assertError(await create({ name: 'x.txt', type: 'text/plain', size: 0 }), 422, 'VALIDATION_ERROR');
    assert.equal(
      Number(
        (
          await t.sql<{ n: string }>(
            `SELECT count(*) AS n FROM file_assets WHERE attributes->>'name' IN ('big.png','run.exe')`,
          )
        )[0].n,
      ),
      0,
    );
  });

  it('an upload larger than declared is refused and the asset cannot be completed', async () => {
    const res = await create({ name: 'small.txt', type: 'text/plain', size: 4 });
    const put = await t.api
      .put(local(res.body.upload_data.url))
      .set('Content-Type', 'text/plain')
      .send(Buffer.from('12345678'));
    assertError(put, 413, 'ATTACHMENT_TOO_LARGE');
    assertError(
      await t.api
        .patch(p(`work-items/${item.id}/attachments/${res.body.asset_id}/`))
        .set('X-API-Key', key)
        .send({ is_uploaded: true }),
      400,
      'ATTACHMENT_NOT_UPLOADED',
    );
  });

  it('a tampered, swapped, missing or expired signature is refused; an unknown asset is 404', async () => {
    const res = await create({ name: 's.txt', type: 'text/plain', size: 2 });
    const id: string = res.body.asset_id;
    const url = new URL(res.body.upload_data.url);
    const sig = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const tampered = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    const base = `/api/v1/assets/${id}/upload/`;
    assertError(
      await t.api.put(`${base}?expires=${expires}&signature=${tampered}`).set('Content-Type', 'text/plain').send('ok'),
      403,
      'INVALID_SIGNATURE',
    );
    assertError(
      await t.api
        .put(`${base}?expires=${Number(expires) + 60}&signature=${sig}`)
        .set('Content-Type', 'text/plain')
        .send('ok'),
      403,
      'INVALID_SIGNATURE',
    );
    assertError(await t.api.put(base).set('Content-Type', 'text/plain').send('ok'), 403, 'INVALID_SIGNATURE');
    // an upload signature does not download
    assertError(
      await t.api.get(`/api/v1/assets/${id}/download/?expires=${expires}&signature=${sig}`),
      403,
      'INVALID_SIGNATURE',
    );
    // a signature for another asset does not fit this one
    const other = await create({ name: 't.txt', type: 'text/plain', size: 2 });
    const otherSig = new URL(other.body.upload_data.url).searchParams;
    assertError(
      await t.api
        .put(`${base}?expires=${otherSig.get('expires')}&signature=${otherSig.get('signature')}`)
        .set('Content-Type', 'text/plain')
        .send('ok'),
      403,
      'INVALID_SIGNATURE',
    );
    // expired: signed correctly with the server's key, in the past
    const past = Math.floor(Date.now() / 1000) - 10;
    const signer = t.app.get(AttachmentService).signer;
    assertError(
      await t.api
        .put(`${base}?expires=${past}&signature=${signer.sign('upload', id, past)}`)
        .set('Content-Type', 'text/plain')
        .send('ok'),
      403,
      'SIGNED_URL_EXPIRED',
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    const future = Math.floor(Date.now() / 1000) + 60;
    assertError(
      await t.api
        .put(`/api/v1/assets/${unknown}/upload/?expires=${future}&signature=${signer.sign('upload', unknown, future)}`)
        .set('Content-Type', 'text/plain')
        .send('ok'),
      404,
      'NOT_FOUND',
    );
    // the original signature still works
    assert.equal(
      (await t.api.put(local(res.body.upload_data.url)).set('Content-Type', 'text/plain').send('ok')).status,
      204,
    );
  });

  it("another project's work item, or an attachment of another work item, is 404", async () => {
    assertError(await t.api.get(p(`work-items/${foreign.id}/attachments/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(
      await create({ name: 'a.txt', type: 'text/plain', size: 1 }, `work-items/${foreign.id}/attachments/`),
      404,
      'NOT_FOUND',
    );
    const mine = await create({ name: 'm.txt', type: 'text/plain', size: 1 });
    assertError(
      await t.api
        .delete(p(`work-items/${foreign.id}/attachments/${mine.body.asset_id}/`, other.id))
        .set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(p(`work-items/${item.id}/attachments/${mine.body.asset_id}/`, other.id)).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(p(`work-items/${item.id}/attachments/not-a-uuid/`)).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
  });

  it('delete soft-deletes, removes the file, writes history, and the signed download stops working', async () => {
    const res = await create({ name: 'gone.txt', type: 'text/plain', size: 3 });
    const id: string = res.body.asset_id;
    await t.api.put(local(res.body.upload_data.url)).set('Content-Type', 'text/plain').send('bye');
    await t.api
      .patch(p(`work-items/${item.id}/attachments/${id}/`))
      .set('X-API-Key', key)
      .send({ is_uploaded: true });
    const redirect = await t.api
      .get(p(`work-items/${item.id}/attachments/${id}/`))
      .set('X-API-Key', key)
      .redirects(0);
    const before = files(uploads).filter((f) => f.endsWith('gone.txt'));
    assert.equal(before.length, 1);
    const del = await t.api.delete(p(`issues/${item.id}/issue-attachments/${id}/`)).set('X-API-Key', key);
    assert.equal(del.status, 204);
    assert.deepEqual(
      files(uploads).filter((f) => f.endsWith('gone.txt')),
      [],
    );
    const row = await t.sql<{ is_deleted: boolean; deleted: boolean }>(
      `SELECT is_deleted, deleted_at IS NOT NULL AS deleted FROM file_assets WHERE id = $1`,
      [id],
    );
    assert.deepEqual(row, [{ is_deleted: true, deleted: true }]);
    const list = await t.api.get(p(`work-items/${item.id}/attachments/`)).set('X-API-Key', key);
    assert.ok(!list.body.some((a: { id: string }) => a.id === id));
    assertError(await t.api.get(p(`work-items/${item.id}/attachments/${id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(
      await t.api.delete(p(`work-items/${item.id}/attachments/${id}/`)).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.get(local(redirect.headers.location)), 404, 'NOT_FOUND');
    const hist = await t.sql<{ verb: string; old_value: string }>(
      `SELECT verb, old_value FROM issue_activities WHERE issue_id = $1 AND field = 'attachment' AND verb = 'deleted'`,
      [item.id],
    );
    assert.deepEqual(hist, [{ verb: 'deleted', old_value: 'gone.txt' }]);
  });
});

describe('object storage selection', () => {
  it('local disk under DATA_DIR/uploads by default, UPLOADS_DIR overrides', () => {
    const dflt = loadConfig({ DATA_DIR: '/tmp/meridian-x' });
    assert.equal(dflt.storage.uploadsDir, path.resolve('/tmp/meridian-x/uploads'));
    assert.equal(dflt.storage.s3, undefined);
    assert.equal(createObjectStorage(dflt).kind, 'local');
    assert.equal(
      loadConfig({ DATA_DIR: '/tmp/meridian-x', UPLOADS_DIR: '/srv/files' }).storage.uploadsDir,
      path.resolve('/srv/files'),
    );
  });

  it('an S3 bucket selects the AWS SDK store, which presigns a size- and type-bound POST and a GET (no network)', async () => {
    const config = loadConfig({
      AWS_S3_BUCKET_NAME: 'meridian-test',
      AWS_REGION: 'eu-west-1',
      AWS_S3_ENDPOINT_URL: 'http://minio.local:9000',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret-example',
      USE_MINIO: '1',
    });
    assert.deepEqual(config.storage.s3, {
      bucket: 'meridian-test',
      region: 'eu-west-1',
      endpoint: 'http://minio.local:9000',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret-example',
      forcePathStyle: true,
    });
    const store = createObjectStorage(config);
    assert.equal(store.kind, 's3');
    const obj = { id: 'x', key: 'ws/abc-a b.txt', contentType: 'text/plain', size: 42, name: 'a b.txt' };
    const up = await store.uploadTarget(obj, 3600, 'http://ignored');
    assert.equal(up.method, 'POST');
    assert.equal(up.url, 'http://minio.local:9000/meridian-test');
    assert.equal(up.fields.key, obj.key);
    assert.equal(up.fields['Content-Type'], 'text/plain');
    const policy = JSON.parse(Buffer.from(up.fields.Policy, 'base64').toString());
    assert.ok(policy.conditions.some((c: unknown) => JSON.stringify(c) === '["content-length-range",1,42]'));
    assert.ok(policy.conditions.some((c: unknown) => JSON.stringify(c) === '["eq","$Content-Type","text/plain"]'));
    const dl = new URL(await store.downloadUrl(obj, 300, 'http://ignored'));
    assert.equal(dl.origin + dl.pathname, 'http://minio.local:9000/meridian-test/ws/abc-a%20b.txt');
    assert.equal(dl.searchParams.get('X-Amz-Expires'), '300');
    assert.match(dl.searchParams.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/);
    assert.equal(dl.searchParams.get('response-content-disposition'), "attachment; filename*=UTF-8''a%20b.txt");
  });
});
