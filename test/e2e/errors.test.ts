import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('one error shape for every failure (docs/reference/http-interface.md §7)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ BODY_LIMIT: '2kb' })));
  after(() => t.close());

  it('answers unknown paths in every module with 404 ROUTE_NOT_FOUND', async () => {
    for (const path of [
      '/nope',
      '/api/nope/',
      '/api/v1/nope/',
      '/api/public/anchors/x/',
      '/api/instances/nope/',
      '/auth/nope/',
    ]) {
      assertError(await t.api.get(path), 404, 'ROUTE_NOT_FOUND');
    }
  });

  it('answers a known path with an unsupported method with 405 and Allow', async () => {
    const res = await t.api.put('/auth/sign-in/').send({});
    assertError(res, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(res.headers.allow, 'POST');
    const ws = await t.api.delete('/api/workspaces/');
    assertError(ws, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(ws.headers.allow, 'GET, POST');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON and a non-object body with 400 MALFORMED_REQUEST', async () => {
    const bad = await t.api.post('/auth/sign-in/').set('Content-Type', 'application/json').send('{"email": ');
    assertError(bad, 400, 'MALFORMED_JSON');
    const array = await t.api.post('/auth/sign-in/').set('Content-Type', 'application/json').send('[1,2]');
    assertError(array, 400, 'MALFORMED_REQUEST');
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.api.post('/auth/sign-up/').send({ email: 'big@example.com', password: 'x'.repeat(4000) });
    assertError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers validation failures with 422 and an errors map, rejecting unknown fields', async () => {
    const res = await t.api.post('/auth/sign-in/').send({ email: 'a@example.com', password: 'pw', remember: true });
    const body = assertError(res, 422, 'VALIDATION_ERROR');
    assert.deepEqual(body.errors, { remember: ['This field is not allowed.'] });
  });

  it('answers an empty JSON body as {} (validation, not a parse error)', async () => {
    const res = await t.api.post('/auth/sign-in/').set('Content-Type', 'application/json').send('');
    assertError(res, 422, 'VALIDATION_ERROR');
  });

  it('answers a failing database with 500 INTERNAL_ERROR without internals, and /health with 503 and Retry-After', async () => {
    const u = await signUp(t);
    assert.equal((await t.api.get('/health')).status, 200);
    await t.database.dataSource.destroy();
    const res = await t.api.get('/api/workspaces/').auth(u.token, { type: 'bearer' });
    const body = assertError(res, 500, 'INTERNAL_ERROR');
    assert.deepEqual(Object.keys(body).sort(), ['detail', 'error_code']);
    assert.doesNotMatch(JSON.stringify(body), /SELECT|at .*\.js|Error:/);
    const health = await t.api.get('/health');
    assertError(health, 503, 'SERVICE_UNAVAILABLE');
    // as the database's 503s: a load balancer or client knows when to ask again
    assert.equal(health.headers['retry-after'], '5');
  });
});
