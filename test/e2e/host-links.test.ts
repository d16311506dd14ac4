import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '#common';
import { createApiKey, createAppProject, createProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { MockOAuthProvider, startMockOAuthProvider } from '../support/oauth-provider';
import { startTestApp, TestApp } from '../support/test-app';

// Issue 36: the `Host` header ended up in the links Meridian hands out (signed upload and download
// URLs, export `url`s, OAuth callbacks). They are built on API_BASE_URL only.

const BASE = 'https://api.meridian.test';
const EVIL = 'evil.example';

describe('links to Meridian are built on API_BASE_URL, never on the request’s Host', () => {
  let t: TestApp;
  let idp: MockOAuthProvider;
  let uploads: string;
  let owner: SignedUp;
  let ws: { id: string; slug: string };
  let key: string;

  /** the path and query of a link Meridian handed out, after checking it is on API_BASE_URL */
  const onBase = (url: string) => {
    assert.ok(!url.includes(EVIL), url);
    const u = new URL(url);
    assert.equal(u.origin, BASE, url);
    return u.pathname + u.search;
  };

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-uploads-'));
    idp = await startMockOAuthProvider();
    // a trailing slash is dropped
    t = await startTestApp({ ...idp.env, API_BASE_URL: `${BASE}/`, UPLOADS_DIR: uploads, TRUST_PROXY: '1' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('v1 attachments: the upload URL and the download redirect', async () => {
    const project = await createProject(t, key, ws.slug, { identifier: 'HST', name: 'Host' });
    const p = (rest: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${rest}`;
    const item = await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'with a file' });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    const base = `work-items/${item.body.id}/attachments/`;
    const created = await t.api
      .post(p(base))
      .set('Host', EVIL)
      .set('X-Forwarded-Host', EVIL)
      .set('X-API-Key', key)
      .send({ name: 'a.txt', type: 'text/plain', size: 2 });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const put = await t.api.put(onBase(created.body.upload_data.url)).set('Content-Type', 'text/plain').send('ok');
    assert.equal(put.status, 204, JSON.stringify(put.body));
    const assetId = created.body.asset_id as string;
    const done = await t.api
      .patch(p(`${base}${assetId}/`))
      .set('X-API-Key', key)
      .send({ is_uploaded: true });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const read = await t.api
      .get(p(`${base}${assetId}/`))
      .set('Host', EVIL)
      .set('X-API-Key', key);
    assert.equal(read.status, 302, JSON.stringify(read.body));
    const file = await t.api.get(onBase(read.headers.location)).buffer(true);
    assert.equal(file.status, 200);
    assert.equal(file.text ?? file.body.toString(), 'ok');
  });

  it('App assets: upload URLs and the read redirects (static, project)', async () => {
    const bearer = { type: 'bearer' } as const;
    /** posts the file as the web app does: `upload_data.fields`, then `file` */
    const upload = (data: { url: string; fields: Record<string, string> }, content: Buffer, type: string) => {
      let req = t.api.post(onBase(data.url));
      for (const [k, v] of Object.entries(data.fields)) req = req.field(k, v);
      return req.attach('file', content, { filename: 'f', contentType: type });
    };
    const png = Buffer.from('\x89PNG fake image');
    const avatar = await t.api
      .post('/api/assets/v2/user-assets/')
      .set('Host', EVIL)
      .auth(owner.token, bearer)
      .send({ name: 'me.png', type: 'image/png', size: png.length, entity_type: 'USER_AVATAR', entity_identifier: '' });
    assert.equal(avatar.status, 200, JSON.stringify(avatar.body));
    assert.equal((await upload(avatar.body.upload_data, png, 'image/png')).status, 204);
    const made = await t.api.patch(`/api/assets/v2/user-assets/${avatar.body.asset_id}/`).auth(owner.token, bearer);
    assert.equal(made.status, 204, JSON.stringify(made.body));
    const statics = await t.api.get(avatar.body.asset_url).set('Host', EVIL);
    assert.equal(statics.status, 302, JSON.stringify(statics.body));
    assert.equal((await t.api.get(onBase(statics.headers.location)).buffer(true)).status, 200);

    const project = await createAppProject(t, owner.token, ws.slug);
    const v2 = `/api/assets/v2/workspaces/${ws.slug}/projects/${project.id}/`;
    const image = await t.api.post(v2).set('Host', EVIL).auth(owner.token, bearer).send({
      name: 'i.png',
      type: 'image/png',
      size: png.length,
      entity_type: 'ISSUE_DESCRIPTION',
      entity_identifier: '',
    });
    assert.equal(image.status, 200, JSON.stringify(image.body));
    assert.equal((await upload(image.body.upload_data, png, 'image/png')).status, 204);
    assert.equal((await t.api.patch(`${v2}${image.body.asset_id}/`).auth(owner.token, bearer)).status, 204);
    const read = await t.api.get(`${v2}${image.body.asset_id}/`).set('Host', EVIL).auth(owner.token, bearer);
    assert.equal(read.status, 302, JSON.stringify(read.body));
    assert.equal((await t.api.get(onBase(read.headers.location)).buffer(true)).status, 200);
  });

  it('exports: the listed url', async () => {
    await createAppProject(t, owner.token, ws.slug);
    const api = `/api/workspaces/${ws.slug}/export-issues/`;
    const made = await t.api.post(api).auth(owner.token, { type: 'bearer' }).send({ provider: 'csv' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (let i = 0; ; i++) {
      const list = await t.api
        .get(`${api}?per_page=10&cursor=10:0:0`)
        .set('Host', EVIL)
        .auth(owner.token, { type: 'bearer' });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const newest = list.body.results[0] as { status: string; url: string | null };
      if (newest.status === 'completed') {
        const file = await t.api.get(onBase(newest.url!)).auth(owner.token, { type: 'bearer' });
        assert.equal(file.status, 200);
        break;
      }
      assert.notEqual(newest.status, 'failed');
      assert.ok(i < 200, 'the export did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('OAuth: the redirect_uri sent to the provider', async () => {
    for (const route of ['/auth/github/', '/auth/spaces/gitlab/']) {
      const res = await t.api.get(route).set('Host', EVIL).set('X-Forwarded-Host', EVIL);
      assert.equal(res.status, 302, JSON.stringify(res.body));
      const location = String(res.headers.location);
      assert.ok(!location.includes(EVIL), location);
      const redirect = new URL(location).searchParams.get('redirect_uri')!;
      assert.match(onBase(redirect), /^\/auth\/(spaces\/)?(github|gitlab)\/callback\/$/);
    }
  });
});

describe('API_BASE_URL', () => {
  it('defaults to http://localhost:PORT, drops a trailing slash, and must be an http(s) URL', () => {
    const plain = loadConfig({ NODE_ENV: 'test', PORT: '9123' });
    assert.equal(plain.apiBaseUrl, 'http://localhost:9123');
    assert.equal(plain.apiBaseUrlIsDefault, true);
    const set = loadConfig({ NODE_ENV: 'test', API_BASE_URL: 'https://plane.example.com/' });
    assert.equal(set.apiBaseUrl, 'https://plane.example.com');
    assert.equal(set.apiBaseUrlIsDefault, false);
    assert.throws(() => loadConfig({ NODE_ENV: 'test', API_BASE_URL: 'evil.example' }), ConfigError);
  });
});
