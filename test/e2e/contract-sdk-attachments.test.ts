import { PlaneClient } from '@makeplane/plane-node-sdk';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Contract test: Plane's official Node SDK (@makeplane/plane-node-sdk 0.2.12), unmodified, for
 * `client.workItems.attachments` (`plane-node-sdk/dist/api/WorkItems/Attachments.js`): create, the
 * upload to the returned URL, update (`is_uploaded`), list, retrieve (follows the 302 to the signed
 * download) and delete.
 */
describe('contract: @makeplane/plane-node-sdk 0.2.12 (work item attachments)', () => {
  let t: TestApp;
  let client: PlaneClient;
  let slug: string;
  let projectId: string;
  let uploads: string;

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-sdk-uploads-'));
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000', UPLOADS_DIR: uploads });
    const owner = await signUp(t);
    slug = (await createWorkspace(t, owner.token)).slug;
    const apiKey = await createApiKey(t, owner.token, slug);
    projectId = (await createProject(t, apiKey, slug, { identifier: 'SDKA', name: 'Sdk Attachments' })).id;
    client = new PlaneClient({ baseUrl: t.url, apiKey });
  });
  after(async () => {
    await t.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('workItems.attachments: create, upload, update, list, retrieve, delete', async () => {
    const item = await client.workItems.create(slug, projectId, { name: 'with a file' });
    const content = 'contract bytes\n';
    const created = (await client.workItems.attachments.create(slug, projectId, item.id, {
      name: 'report.txt',
      type: 'text/plain',
      size: Buffer.byteLength(content),
    })) as unknown as {
      asset_id: string;
      upload_data: { url: string; method: string };
      attachment: { is_uploaded: boolean; attributes: unknown };
    };
    assert.equal(created.attachment.is_uploaded, false);
    assert.deepEqual(created.attachment.attributes, {
      name: 'report.txt',
      type: 'text/plain',
      size: Buffer.byteLength(content),
    });
    assert.deepEqual(await client.workItems.attachments.list(slug, projectId, item.id), []);

    const put = await fetch(created.upload_data.url, {
      method: created.upload_data.method,
      headers: { 'Content-Type': 'text/plain' },
      body: content,
    });
    assert.equal(put.status, 204);

    const updated = await client.workItems.attachments.update(slug, projectId, item.id, created.asset_id, {
      is_uploaded: true,
    });
    assert.equal(updated.id, created.asset_id);
    assert.equal(updated.is_uploaded, true);

    const listed = await client.workItems.attachments.list(slug, projectId, item.id);
    assert.deepEqual(
      listed.map((a) => [a.id, a.is_uploaded, a.issue]),
      [[created.asset_id, true, item.id]],
    );

    // as in Plane, retrieve answers 302 to the signed download; the SDK's HTTP client follows it
    const body = (await client.workItems.attachments.retrieve(slug, projectId, item.id, created.asset_id)) as unknown;
    assert.equal(body, content);

    await client.workItems.attachments.delete(slug, projectId, item.id, created.asset_id);
    assert.deepEqual(await client.workItems.attachments.list(slug, projectId, item.id), []);
    await assert.rejects(
      client.workItems.attachments.retrieve(slug, projectId, item.id, created.asset_id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
  });

  it('workItems.attachments.create: a type off the allow list is refused', async () => {
    const item = await client.workItems.create(slug, projectId, { name: 'no exe' });
    await assert.rejects(
      client.workItems.attachments.create(slug, projectId, item.id, {
        name: 'a.exe',
        type: 'application/x-msdownload',
        size: 10,
      }),
      (err: { statusCode?: number }) => err.statusCode === 400,
    );
  });
});
