import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, TestApp } from '../support/test-app';

describe('GET /health', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('is public and reports the database up', async () => {
    const res = await t.api.get('/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.info.database.status, 'up');
  });
});
