import { ConfigError, loadConfig, MetricsPortServer } from '#common';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createAppProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses Prometheus' text exposition format (version 0.0.4) strictly: every line is a `# HELP`, a
 * `# TYPE` or a sample `name{label="value",…} number`; anything else fails the test.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[3]) {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
      let l: RegExpExecArray | null;
      let consumed = 0;
      while ((l = re.exec(m[3]))) {
        labels[l[1]] = l[2];
        consumed = re.lastIndex;
      }
      assert.equal(consumed, m[3].length, `bad labels: ${line}`);
    }
    samples.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value ?? 0;
}

describe('metrics are off by default', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('GET /metrics is 404', async () => {
    const res = await t.api.get('/metrics');
    assert.equal(res.status, 404);
    assert.equal(typeof res.body.error_code, 'string');
  });
});

describe('metrics on the HTTP port, behind METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN, API_KEY_RATE_LIMIT: '3/minute' });
  });
  after(() => t.close());

  const scrape = async () => {
    const res = await t.api.get('/metrics').auth(TOKEN, { type: 'bearer' });
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return parseExposition(res.text);
  };

  it('refuses a missing or wrong token', async () => {
    assertError(await t.api.get('/metrics'), 401, 'AUTHENTICATION_REQUIRED');
    assertError(
      await t.api.get('/metrics').auth('not-the-token-0123456789', { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
  });

  it('counts requests by route template, never by raw path, and counts rate-limit rejections by kind', async () => {
    const u = await signUp(t);
    const ws = await createWorkspace(t, u.token);
    const project = await createAppProject(t, u.token, ws.slug);
    const key = await createApiKey(t, u.token, ws.slug);
    const route = '/api/v1/workspaces/:slug/projects/:project_id/issues';
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/${project.id}/issues/`).set('X-API-Key', key);
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    await t.api.get(`/no/such/route/${project.id}`).expect(404);
    const afterScrape = await scrape();

    const count = (s: Sample[], status: string) =>
      value(s, 'meridian_http_requests_total', { method: 'GET', route, status });
    assert.equal(count(afterScrape, '200') - count(before, '200'), 3);
    assert.equal(count(afterScrape, '429') - count(before, '429'), 1);
    assert.equal(
      value(afterScrape, 'meridian_http_request_duration_seconds_count', { method: 'GET', route, status: '200' }) -
        value(before, 'meridian_http_request_duration_seconds_count', { method: 'GET', route, status: '200' }),
      3,
    );
    assert.ok(value(afterScrape, 'meridian_http_requests_total', { route: 'unmatched', status: '404' }) >= 1);
    assert.equal(
      value(afterScrape, 'meridian_rate_limit_rejections_total', { kind: 'api-key' }) -
        value(before, 'meridian_rate_limit_rejections_total', { kind: 'api-key' }),
      1,
    );
    // no id, slug or raw path in any label value
    for (const s of afterScrape) {
      for (const v of Object.values(s.labels)) {
        assert.doesNotMatch(v, UUID, `${s.name} has an id in a label`);
        assert.ok(!v.includes(ws.slug), `${s.name} has a slug in a label`);
      }
    }
    // the pool, the outbox and the process defaults (event-loop lag among them)
    assert.equal(value(afterScrape, 'meridian_db_pool_max'), t.config.database.url ? t.config.database.poolSize : 1);
    assert.ok(afterScrape.some((s) => s.name === 'meridian_db_pool_connections' && s.labels.state === 'idle'));
    assert.ok(afterScrape.some((s) => s.name === 'meridian_db_pool_waiting'));
    assert.ok(afterScrape.some((s) => s.name === 'meridian_webhook_outbox_pending' && s.labels.state === 'due'));
    assert.ok(afterScrape.some((s) => s.name === 'meridian_webhook_outbox_oldest_due_seconds'));
    assert.ok(afterScrape.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
    assert.ok(afterScrape.some((s) => s.name === 'process_cpu_seconds_total'));
  });
});

describe('metrics on a separate port (METRICS_PORT)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ METRICS_PORT: '0' });
  });
  after(() => t.close());

  it('serves /metrics there without a token, and not on the HTTP port', async () => {
    assert.equal((await t.api.get('/metrics')).status, 404);
    const port = t.app.get(MetricsPortServer).port();
    assert.ok(port);
    await t.api.get('/health').expect(200);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    const samples = parseExposition(await res.text());
    assert.ok(value(samples, 'meridian_http_requests_total', { method: 'GET', route: '/health', status: '200' }) >= 1);
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
  });
});

describe('metrics configuration', () => {
  it('refuses METRICS_ENABLED on the HTTP port without a token in production', () => {
    const base = { NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40), METRICS_ENABLED: 'true' };
    assert.throws(() => loadConfig(base), ConfigError);
    assert.equal(loadConfig({ ...base, METRICS_TOKEN: TOKEN }).metrics.enabled, true);
    assert.equal(loadConfig({ ...base, METRICS_PORT: '9464' }).metrics.port, 9464);
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), ConfigError);
    assert.equal(loadConfig({}).metrics.enabled, false);
  });
});
