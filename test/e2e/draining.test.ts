import { Draining } from '#common';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestApp, TestApp } from '../support/test-app';

/** One request over a fresh connection; resolves with the status, the Connection header and whether the socket closed. */
function get(url: string, agent: http.Agent): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

/**
 * The stop sequence's first step (README "Replicas", `SHUTDOWN_DRAIN_MS`): once draining, `GET /health`
 * answers 503 with `draining: true` and every answer closes its keep-alive connection, while the
 * routes still answer.
 */
describe('draining before the listener closes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('turns /health to 503 and closes keep-alive connections, still answering requests', async () => {
    const agent = new http.Agent({ keepAlive: true });
    try {
      const ok = await get(`${t.url}/health`, agent);
      assert.equal(ok.status, 200);
      assert.equal(ok.connection, 'keep-alive');
      t.app.get(Draining).start();
      const health = await t.api.get('/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.error_code, 'SERVICE_UNAVAILABLE');
      assert.equal(health.body.draining, true);
      assert.equal(health.headers['retry-after'], '5');
      const other = await get(`${t.url}/api/instances/`, agent);
      assert.equal(other.status, 200);
      assert.equal(other.connection, 'close');
    } finally {
      agent.destroy();
    }
  });
});
