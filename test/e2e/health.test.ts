import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('GET /health', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('is public and reports the database up, no pending migration, and Meridian’s version', async () => {
    const res = await t.api.get('/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.info.database.status, 'up');
    assert.deepEqual(res.body.info.migrations, { status: 'up', pending: [] });
    assert.equal(res.body.version, VERSION);
  });

  it('GET /api/instances/ keeps Plane’s current_version and adds meridian_version', async () => {
    const res = await t.api.get('/api/instances/');
    assert.equal(res.status, 200);
    assert.equal(res.body.instance.current_version, '0.25.3');
    assert.equal(res.body.instance.meridian_version, VERSION);
  });
});
