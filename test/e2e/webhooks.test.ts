import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  assertError,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { startServer, waitExit } from '../support/processes';
import { loadConfig } from '#common';
import { startDatabase } from '#database';
import { createApp } from '../../apps/server/src/bootstrap';
import { ENGINE, migratedDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

/**
 * HMAC-SHA256 written out from SHA-256 (RFC 2104), independent of the server's `createHmac`:
 * the test checks `X-Plane-Signature` as a receiver would, with its own implementation.
 */
function hmacSha256Hex(key: string, message: string): string {
  let k = Buffer.from(key, 'utf8');
  if (k.length > 64) k = createHash('sha256').update(k).digest();
  k = Buffer.concat([k, Buffer.alloc(64 - k.length)]);
  const inner = createHash('sha256')
    .update(Buffer.from(k.map((b) => b ^ 0x36)))
    .update(message, 'utf8')
    .digest();
  return createHash('sha256')
    .update(Buffer.from(k.map((b) => b ^ 0x5c)))
    .update(inner)
    .digest('hex');
}

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: {
    event: string;
    action: string;
    webhook_id: string;
    workspace_id: string;
    data: Record<string, unknown>;
    activity: {
      field: string | null;
      new_value: unknown;
      old_value: unknown;
      actor: Record<string, unknown> | null;
      old_identifier: string | null;
      new_identifier: string | null;
    };
  };
}

/** A real HTTP receiver on a random loopback port; per path, a queue of statuses to answer (then 200). */
async function startReceiver() {
  const got: Received[] = [];
  const plan = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: Received['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = {} as Received['body'];
      }
      got.push({ path: req.url ?? '', headers: req.headers, raw, body });
      const status = plan.get(req.url ?? '')?.shift() ?? 200;
      res.writeHead(status, {
        'content-type': 'text/plain',
        ...(status >= 300 && status < 400 ? { location: '/redirected' } : {}),
      });
      res.end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    got,
    plan,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => got.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls until `fn` returns a truthy value (deliveries are asynchronous); fails after `ms`. */
async function eventually<T>(fn: () => T | Promise<T>, what: string, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ALL_EVENTS = { project: true, issue: true, module: true, cycle: true, issue_comment: true };

describe('webhooks: Plane contract, reliable delivery', () => {
  let t: TestApp;
  let rx: Receiver;
  let admin: SignedUp;

  before(async () => {
    rx = await startReceiver();
    t = await startTestApp({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_BACKOFF_BASE_MS: '150',
      WEBHOOK_BACKOFF_MAX_MS: '600',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_DEACTIVATE_AFTER: '2',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    admin = await signUp(t);
  });
  after(async () => {
    await t.close();
    await rx.close();
  });

  async function workspaceWithHook(body: Record<string, unknown> = ALL_EVENTS) {
    const ws = await createWorkspace(t, admin.token);
    const path = `/${unique('hook')}`;
    const res = await t.api
      .post(`/api/workspaces/${ws.slug}/webhooks/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ url: rx.url(path), ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { ws, path, hook: res.body as { id: string; secret_key: string } };
  }

  it('manages webhooks with Plane’s fields; the secret is shown on create and regenerate only, and stored sealed', async () => {
    const ws = await createWorkspace(t, admin.token);
    const auth = { type: 'bearer' } as const;
    const url = rx.url('/manage');
    const created = await t.api
      .post(`/api/workspaces/${ws.slug}/webhooks/`)
      .auth(admin.token, auth)
      .send({ url, issue: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.secret_key, /^plane_wh_[0-9a-f]{32}$/);
    assert.deepEqual(
      {
        url: created.body.url,
        is_active: created.body.is_active,
        project: created.body.project,
        issue: created.body.issue,
        module: created.body.module,
        cycle: created.body.cycle,
        issue_comment: created.body.issue_comment,
        workspace: created.body.workspace,
      },
      {
        url,
        is_active: true,
        project: false,
        issue: true,
        module: false,
        cycle: false,
        issue_comment: false,
        workspace: ws.id,
      },
    );
    for (const key of ['id', 'created_at', 'updated_at']) assert.ok(created.body[key], key);

    const [row] = await t.sql<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = $1', [
      created.body.id,
    ]);
    assert.ok(!row.secret_sealed.includes(created.body.secret_key.slice(9)), 'the secret is not stored in clear');

    const list = await t.api.get(`/api/workspaces/${ws.slug}/webhooks/`).auth(admin.token, auth);
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].secret_key, undefined);
    const one = await t.api.get(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`).auth(admin.token, auth);
    assert.equal(one.status, 200);
    assert.equal(one.body.secret_key, undefined);

    const patched = await t.api
      .patch(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`)
      .auth(admin.token, auth)
      .send({ cycle: true, is_active: false, id: 'ignored', workspace: 'ignored' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.cycle, true);
    assert.equal(patched.body.is_active, false);
    assert.equal(patched.body.secret_key, undefined);
    // a boolean takes Django REST framework's strings ("no", "yes"…), as Plane's serializer; junk is 422
    const no = await t.api
      .patch(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`)
      .auth(admin.token, auth)
      .send({ issue: 'no' });
    assert.equal(no.status, 200, JSON.stringify(no.body));
    assert.equal(no.body.issue, false);
    const yes = await t.api
      .patch(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`)
      .auth(admin.token, auth)
      .send({ issue: 'yes' });
    assert.equal(yes.body.issue, true);
    assertError(
      await t.api
        .patch(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`)
        .auth(admin.token, auth)
        .send({ issue: 'maybe' }),
      422,
      'VALIDATION_ERROR',
    );

    const regenerated = await t.api
      .post(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/regenerate/`)
      .auth(admin.token, auth);
    assert.equal(regenerated.status, 200);
    assert.match(regenerated.body.secret_key, /^plane_wh_[0-9a-f]{32}$/);
    assert.notEqual(regenerated.body.secret_key, created.body.secret_key);

    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/webhooks/`).auth(admin.token, auth).send({ url }),
      409,
      'WEBHOOK_URL_TAKEN',
    );
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/webhooks/`).auth(admin.token, auth).send({ issue: true }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/webhooks/`).auth(admin.token, auth).send({ url: 'not a url' }),
      422,
      'VALIDATION_ERROR',
    );

    // another workspace's webhook is a 404 everywhere
    const other = await createWorkspace(t, admin.token);
    for (const res of [
      await t.api.get(`/api/workspaces/${other.slug}/webhooks/${created.body.id}/`).auth(admin.token, auth),
      await t.api
        .patch(`/api/workspaces/${other.slug}/webhooks/${created.body.id}/`)
        .auth(admin.token, auth)
        .send({ issue: false }),
      await t.api.post(`/api/workspaces/${other.slug}/webhooks/${created.body.id}/regenerate/`).auth(admin.token, auth),
      await t.api.get(`/api/workspaces/${other.slug}/webhook-logs/${created.body.id}/`).auth(admin.token, auth),
      await t.api.delete(`/api/workspaces/${other.slug}/webhooks/${created.body.id}/`).auth(admin.token, auth),
    ])
      assertError(res, 404, 'NOT_FOUND');

    const removed = await t.api
      .delete(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`)
      .auth(admin.token, auth);
    assert.equal(removed.status, 204);
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/webhooks/${created.body.id}/`).auth(admin.token, auth),
      404,
      'NOT_FOUND',
    );
  });

  it('delivers signed events for changes through both APIs: project, issue per change, comment, cycle, module', async () => {
    const { ws, path, hook } = await workspaceWithHook();
    const key = await createApiKey(t, admin.token, ws.slug);
    // App API: project created
    const project = await createAppProject(t, admin.token, ws.slug);
    const first = await eventually(() => rx.at(path).find((r) => r.body.event === 'project'), 'the project event');
    assert.equal(first.headers['content-type'], 'application/json');
    assert.equal(first.headers['x-plane-event'], 'project');
    assert.match(
      String(first.headers['x-plane-delivery']),
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    assert.equal(
      first.headers['x-plane-signature'],
      hmacSha256Hex(hook.secret_key, first.raw),
      'signature over the exact body',
    );
    assert.equal(first.headers['x-plane-timestamp'], undefined, 'the timestamped signature is opt-in');
    assert.deepEqual(Object.keys(first.body), ['event', 'action', 'webhook_id', 'workspace_id', 'data', 'activity']);
    assert.equal(first.body.action, 'created');
    assert.equal(first.body.webhook_id, hook.id);
    assert.equal(first.body.workspace_id, ws.id);
    assert.equal(first.body.data.id, project.id);
    assert.equal(first.body.data.identifier, project.identifier);
    assert.deepEqual(Object.keys(first.body.activity), [
      'field',
      'new_value',
      'old_value',
      'actor',
      'old_identifier',
      'new_identifier',
    ]);
    assert.equal(first.body.activity.actor?.id, admin.userId);

    // External API: a work item, then two fields changed → one event per change
    const v1 = `/api/v1/workspaces/${ws.slug}/projects/${project.id}`;
    const issue = await t.api.post(`${v1}/issues/`).set('X-API-Key', key).send({ name: 'First' });
    assert.equal(issue.status, 201, JSON.stringify(issue.body));
    const patched = await t.api
      .patch(`${v1}/issues/${issue.body.id}/`)
      .set('X-API-Key', key)
      .send({ name: 'Renamed', priority: 'high' });
    assert.equal(patched.status, 200);
    const issueEvents = await eventually(() => {
      const list = rx.at(path).filter((r) => r.body.event === 'issue');
      return list.length >= 3 ? list : null;
    }, 'three issue events');
    // deliveries are not ordered (at least once, several in flight): pick the events by action
    const created = issueEvents.filter((r) => r.body.action === 'created');
    assert.equal(created.length, 1);
    assert.equal(created[0].body.data.id, issue.body.id);
    const changes = issueEvents
      .filter((r) => r.body.action !== 'created')
      .map((r) => ({
        action: r.body.action,
        field: r.body.activity.field,
        old: r.body.activity.old_value,
        new: r.body.activity.new_value,
        name: r.body.data.name,
      }));
    assert.deepEqual(
      changes.sort((a, b) => String(a.field).localeCompare(String(b.field))),
      [
        { action: 'updated', field: 'name', old: 'First', new: 'Renamed', name: 'Renamed' },
        { action: 'updated', field: 'priority', old: 'none', new: 'high', name: 'Renamed' },
      ],
    );
    for (const r of issueEvents) assert.equal(r.headers['x-plane-signature'], hmacSha256Hex(hook.secret_key, r.raw));

    // comment: issue_comment event; deleting the work item: {id}
    const comment = await t.api
      .post(`${v1}/issues/${issue.body.id}/comments/`)
      .set('X-API-Key', key)
      .send({ comment_html: '<p>hello</p>' });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    const commented = await eventually(
      () => rx.at(path).find((r) => r.body.event === 'issue_comment'),
      'the comment event',
    );
    assert.equal(commented.body.action, 'created');
    assert.equal(commented.body.data.id, comment.body.id);
    assert.equal(commented.body.data.comment_html, '<p>hello</p>');
    assert.equal(commented.body.activity.field, 'description');

    const cycle = await t.api.post(`${v1}/cycles/`).set('X-API-Key', key).send({ name: 'Sprint 1' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const module = await t.api.post(`${v1}/modules/`).set('X-API-Key', key).send({ name: 'Mod' });
    assert.equal(module.status, 201, JSON.stringify(module.body));
    const renamed = await t.api
      .patch(`${v1}/modules/${module.body.id}/`)
      .set('X-API-Key', key)
      .send({ name: 'Module B' });
    assert.equal(renamed.status, 200);
    await eventually(
      () =>
        rx
          .at(path)
          .find((r) => r.body.event === 'cycle' && r.body.action === 'created' && r.body.data.id === cycle.body.id),
      'the cycle event',
    );
    const moduleUpdate = await eventually(
      () => rx.at(path).find((r) => r.body.event === 'module' && r.body.action === 'updated'),
      'the module update',
    );
    assert.deepEqual(
      {
        field: moduleUpdate.body.activity.field,
        old: moduleUpdate.body.activity.old_value,
        new: moduleUpdate.body.activity.new_value,
        name: moduleUpdate.body.data.name,
      },
      { field: 'name', old: 'Mod', new: 'Module B', name: 'Module B' },
    );

    const deleted = await t.api.delete(`${v1}/issues/${issue.body.id}/`).set('X-API-Key', key);
    assert.equal(deleted.status, 204);
    const gone = await eventually(
      () => rx.at(path).find((r) => r.body.event === 'issue' && r.body.action === 'deleted'),
      'the delete event',
    );
    assert.deepEqual(gone.body.data, { id: issue.body.id });

    // only subscribed events: a webhook with issue only never gets project events
    const narrow = await workspaceWithHook({ issue: true });
    const p2 = await createAppProject(t, admin.token, narrow.ws.slug);
    const key2 = await createApiKey(t, admin.token, narrow.ws.slug);
    await t.api
      .post(`/api/v1/workspaces/${narrow.ws.slug}/projects/${p2.id}/issues/`)
      .set('X-API-Key', key2)
      .send({ name: 'only this' });
    await eventually(() => rx.at(narrow.path).find((r) => r.body.event === 'issue'), 'the issue event');
    assert.deepEqual(
      rx.at(narrow.path).map((r) => r.body.event),
      ['issue'],
    );
  });

  it('reports intake creation and triage as intake_issue events (needs the issue switch)', async () => {
    const { ws, path } = await workspaceWithHook({ issue: true });
    const key = await createApiKey(t, admin.token, ws.slug);
    const project = await createAppProject(t, admin.token, ws.slug, { intake_view: true });
    const base = `/api/v1/workspaces/${ws.slug}/projects/${project.id}/intake-issues`;
    const created = await t.api
      .post(`${base}/`)
      .set('X-API-Key', key)
      .send({ issue: { name: 'From a customer' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const first = await eventually(() => rx.at(path).find((r) => r.body.event === 'intake_issue'), 'the intake event');
    assert.equal(first.body.action, 'created');
    assert.equal(first.body.data.id, created.body.id);
    assert.equal((first.body.data.issue_detail as { name: string }).name, 'From a customer');
    assert.equal(rx.at(path).filter((r) => r.body.event === 'issue').length, 0, 'not also an issue event');

    const accepted = await t.api.patch(`${base}/${created.body.issue}/`).set('X-API-Key', key).send({ status: 1 });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const triaged = await eventually(
      () => rx.at(path).find((r) => r.body.event === 'intake_issue' && r.body.activity.field === 'intake'),
      'the triage event',
    );
    assert.deepEqual(
      [triaged.body.action, triaged.body.activity.old_value, triaged.body.activity.new_value, triaged.body.data.status],
      ['updated', 'pending', 'accepted', 1],
    );

    const removed = await t.api.delete(`${base}/${created.body.issue}/`).set('X-API-Key', key);
    assert.equal(removed.status, 204);
    const gone = await eventually(
      () => rx.at(path).find((r) => r.body.event === 'intake_issue' && r.body.action === 'deleted'),
      'the intake delete',
    );
    assert.deepEqual(gone.body.data, { id: created.body.id });
  });

  it('retries a 500 with backoff, then succeeds; every attempt is logged without the signature', async () => {
    const { ws, path, hook } = await workspaceWithHook({ project: true });
    rx.plan.set(path, [500]);
    await createAppProject(t, admin.token, ws.slug);
    const both = await eventually(() => (rx.at(path).length >= 2 ? rx.at(path) : null), 'the retry');
    assert.equal(
      both[0].headers['x-plane-delivery'],
      both[1].headers['x-plane-delivery'],
      'the same delivery id on a retry',
    );
    assert.equal(both[0].raw, both[1].raw, 'the same body on a retry');
    assert.equal(both[1].headers['x-plane-signature'], hmacSha256Hex(hook.secret_key, both[1].raw));

    const logs = await eventually(async () => {
      const res = await t.api
        .get(`/api/workspaces/${ws.slug}/webhook-logs/${hook.id}/`)
        .auth(admin.token, { type: 'bearer' });
      return Array.isArray(res.body) && res.body.length === 2 ? res.body : null;
    }, 'two log rows');
    const byTry = [...logs].sort(
      (a: { retry_count: number }, b: { retry_count: number }) => a.retry_count - b.retry_count,
    );
    assert.deepEqual(
      byTry.map((l: { response_status: string; retry_count: number }) => [l.response_status, l.retry_count]),
      [
        ['500', 0],
        ['200', 1],
      ],
    );
    for (const log of logs) {
      assert.equal(log.webhook, hook.id);
      assert.equal(log.event_type, 'project');
      assert.equal(log.request_method, 'POST');
      assert.equal(log.request_body, both[0].raw);
      const headers = JSON.parse(log.request_headers);
      assert.equal(headers['X-Plane-Signature'], '[redacted]');
      assert.ok(!JSON.stringify(log).includes(hook.secret_key), 'no secret in the log');
      assert.ok(!JSON.stringify(log).includes(String(both[0].headers['x-plane-signature'])), 'no signature in the log');
    }
    const [delivery] = await t.sql<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1',
      [hook.id],
    );
    assert.deepEqual({ ...delivery, attempts: Number(delivery.attempts) }, { status: 'delivered', attempts: 2 });
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS and switches the webhook off after repeated failed deliveries', async () => {
    const { ws, path, hook } = await workspaceWithHook({ project: true });
    rx.plan.set(path, Array(20).fill(503));
    await createAppProject(t, admin.token, ws.slug);
    await createAppProject(t, admin.token, ws.slug);
    await eventually(async () => {
      const [row] = await t.sql<{ is_active: boolean }>('SELECT is_active FROM webhooks WHERE id = $1', [hook.id]);
      return row.is_active === false;
    }, 'the webhook switched off');
    const rows = await t.sql<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1',
      [hook.id],
    );
    assert.deepEqual(
      rows.map((r) => [r.status, Number(r.attempts)]),
      [
        ['failed', 3],
        ['failed', 3],
      ],
    );
    assert.equal(rx.at(path).length, 6, 'three attempts each, no more');
    const shown = await t.api
      .get(`/api/workspaces/${ws.slug}/webhooks/${hook.id}/`)
      .auth(admin.token, { type: 'bearer' });
    assert.equal(shown.body.is_active, false);

    // switched off: later changes are not queued; switching it on again delivers again
    await createAppProject(t, admin.token, ws.slug);
    const [{ n }] = await t.sql<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1',
      [hook.id],
    );
    assert.equal(Number(n), 2);
    rx.plan.set(path, []);
    const on = await t.api
      .patch(`/api/workspaces/${ws.slug}/webhooks/${hook.id}/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ is_active: true });
    assert.equal(on.body.is_active, true);
    await createAppProject(t, admin.token, ws.slug);
    await eventually(() => rx.at(path).length === 7, 'a delivery after switching on');
  });

  it('does not follow redirects: a 3xx fails the delivery at once', async () => {
    const { ws, path, hook } = await workspaceWithHook({ project: true });
    rx.plan.set(path, [302]);
    await createAppProject(t, admin.token, ws.slug);
    const [row] = await eventually(async () => {
      const r = await t.sql<{ status: string; attempts: number; last_error: string }>(
        'SELECT status, attempts, last_error FROM webhook_deliveries WHERE webhook_id = $1',
        [hook.id],
      );
      return r[0]?.status === 'failed' ? r : null;
    }, 'the failed delivery');
    assert.deepEqual([Number(row.attempts), row.last_error], [1, 'HTTP 302']);
    assert.equal(rx.at(path).length, 1);
    assert.equal(rx.at('/redirected').length, 0);
  });

  it('sends nothing for a rolled-back change, and the next committed change is delivered', async () => {
    const { ws, path, hook } = await workspaceWithHook({ project: true });
    const key = await createApiKey(t, admin.token, ws.slug);
    const a = await createAppProject(t, admin.token, ws.slug);
    const b = await createAppProject(t, admin.token, ws.slug);
    await eventually(() => rx.at(path).length === 2, 'two created events');
    // the update queues its event, then fails inside the transaction: a unique conflict, then a validation error
    assertError(
      await t.api
        .patch(`/api/v1/workspaces/${ws.slug}/projects/${b.id}/`)
        .set('X-API-Key', key)
        .send({ identifier: a.identifier }),
      409,
      'PROJECT_IDENTIFIER_TAKEN',
    );
    assertError(
      await t.api
        .patch(`/api/v1/workspaces/${ws.slug}/projects/${b.id}/`)
        .set('X-API-Key', key)
        .send({ name: 'x', timezone: 'Mars/Olympus' }),
      422,
      'VALIDATION_ERROR',
    );
    const rows = await t.sql<{ action: string }>(
      'SELECT action FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at',
      [hook.id],
    );
    assert.deepEqual(
      rows.map((r) => r.action),
      ['created', 'created'],
    );

    const ok = await t.api
      .patch(`/api/v1/workspaces/${ws.slug}/projects/${b.id}/`)
      .set('X-API-Key', key)
      .send({ name: 'Renamed project' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const updated = await eventually(
      () => rx.at(path).find((r) => r.body.action === 'updated'),
      'the committed update',
    );
    assert.equal(updated.body.activity.field, 'name');
    assert.equal(updated.body.activity.new_value, 'Renamed project');
    await sleep(300);
    assert.deepEqual(
      rx.at(path).map((r) => r.body.action),
      ['created', 'created', 'updated'],
      'nothing from the failed writes',
    );
  });

  it('refuses at send time a URL that now points at a refused address (resolved and checked on every attempt)', async () => {
    const { ws, path, hook } = await workspaceWithHook({ project: true });
    // as if the name now resolved elsewhere: a range WEBHOOK_ALLOWED_HOSTS does not allow
    await t.sql('UPDATE webhooks SET url = $2 WHERE id = $1', [hook.id, `http://127.0.0.2:${rx.port}${path}`]);
    await createAppProject(t, admin.token, ws.slug);
    const [row] = await eventually(async () => {
      const r = await t.sql<{ status: string; last_error: string }>(
        'SELECT status, last_error FROM webhook_deliveries WHERE webhook_id = $1',
        [hook.id],
      );
      return r[0]?.status === 'failed' ? r : null;
    }, 'the refused delivery');
    assert.match(row.last_error, /WEBHOOK_URL_NOT_ALLOWED/);
    assert.equal(rx.at(path).length, 0);
  });
});

describe('webhooks: URL refusals without WEBHOOK_ALLOWED_HOSTS', () => {
  let t: TestApp;
  let admin: SignedUp;
  let slug: string;
  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    slug = (await createWorkspace(t, admin.token)).slug;
  });
  after(() => t.close());

  for (const url of [
    'http://127.0.0.1/hook',
    'http://localhost:8080/hook',
    'http://10.0.0.1/',
    'http://192.168.1.10/',
    'http://172.16.0.5/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::7f00:1]/',
    'ftp://example.com/hook',
    'file:///etc/passwd',
  ]) {
    it(`refuses ${url} with 400 WEBHOOK_URL_NOT_ALLOWED`, async () => {
      const res = await t.api
        .post(`/api/workspaces/${slug}/webhooks/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ url, issue: true });
      assertError(res, 400, 'WEBHOOK_URL_NOT_ALLOWED');
    });
  }

  it('refuses the same addresses on update, and accepts a public address', async () => {
    const created = await t.api
      .post(`/api/workspaces/${slug}/webhooks/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ url: 'https://93.184.215.14/hook' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const res = await t.api
      .patch(`/api/workspaces/${slug}/webhooks/${created.body.id}/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ url: 'http://127.0.0.1:9/' });
    assertError(res, 400, 'WEBHOOK_URL_NOT_ALLOWED');
  });

  it('answers 400 WEBHOOK_URL_UNRESOLVABLE for a name that does not resolve', async () => {
    const res = await t.api
      .post(`/api/workspaces/${slug}/webhooks/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ url: 'http://meridian-webhook-test.invalid/' });
    assertError(res, 400, 'WEBHOOK_URL_UNRESOLVABLE');
  });
});

/** A port that was free a moment ago (the server prints its configured port, so PORT=0 will not do here). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('webhooks: a change committed before a crash is delivered after the restart', () => {
  let rx: Receiver;
  let db: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
  before(async () => {
    rx = await startReceiver();
    db = await migratedDatabaseEnv();
  });
  after(async () => {
    await rx.close();
    await db.drop();
  });

  it('kill -9 after the commit, before any attempt: the new process sends it (with the opt-in timestamped signature)', async () => {
    const env = {
      ...db.env,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      SECRET_KEY: 'k'.repeat(48),
    };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
    };
    const first = await startServer({ ...env, PORT: String(port), WEBHOOK_WORKER: 'false' });
    let secret: string;
    try {
      const setup = await call('POST', '/api/instances/admins/sign-up/', {
        email: 'ops@example.com',
        password: 'an admin passphrase',
        first_name: 'Ops',
        company_name: 'Acme',
      });
      assert.equal(setup.status, 201, JSON.stringify(setup.body));
      const user = await call('POST', '/auth/sign-up/', { email: 'ada@example.com', password: 'a long passphrase' });
      const token = user.body.access_token as string;
      assert.equal((await call('POST', '/api/workspaces/', { name: 'Acme', slug: 'acme' }, token)).status, 201);
      const hook = await call(
        'POST',
        '/api/workspaces/acme/webhooks/',
        { url: rx.url('/crash'), project: true },
        token,
      );
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      secret = hook.body.secret_key as string;
      const project = await call(
        'POST',
        '/api/workspaces/acme/projects/',
        { name: 'Survivor', identifier: 'SURV' },
        token,
      );
      assert.equal(project.status, 201, JSON.stringify(project.body));
      await sleep(300);
      assert.equal(rx.at('/crash').length, 0, 'the worker is off in this process');
    } finally {
      first.child.kill('SIGKILL');
      await waitExit(first.child);
    }

    const second = await startServer({ ...env, PORT: String(await freePort()), WEBHOOK_TIMESTAMP_SIGNATURE: 'true' });
    try {
      const got = await eventually(() => rx.at('/crash')[0], 'the delivery after the restart', 30_000);
      assert.equal(got.body.event, 'project');
      assert.equal(got.body.action, 'created');
      assert.equal(got.body.data.name, 'Survivor');
      assert.equal(got.headers['x-plane-signature'], hmacSha256Hex(secret, got.raw));
      const ts = String(got.headers['x-plane-timestamp']);
      assert.match(ts, /^\d{10}$/);
      assert.equal(got.headers['x-plane-timestamp-signature'], hmacSha256Hex(secret, `${ts}.${got.raw}`));
      await sleep(300);
      assert.equal(rx.at('/crash').length, 1, 'delivered once');
    } finally {
      second.child.kill('SIGTERM');
      await waitExit(second.child);
    }
  });
});

describe(
  'webhooks: several server processes on one PostgreSQL database',
  { skip: ENGINE !== 'postgres' ? 'PostgreSQL only' : false },
  () => {
    let t: TestApp;
    let second: { app: { close(): Promise<void> } } | null = null;
    let rx: Receiver;
    before(async () => {
      rx = await startReceiver();
      const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '20' };
      t = await startTestApp(env);
      // a second application on the same database: its own worker polls the same outbox
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: t.config.database.url!,
        ...env,
      });
      second = { app: await createApp(config, await startDatabase(config)) };
      await (second.app as unknown as { init(): Promise<void> }).init();
    });
    after(async () => {
      await second?.app.close();
      await t.close();
      await rx.close();
    });

    it('claims with FOR UPDATE SKIP LOCKED: every delivery is sent exactly once', async () => {
      const admin = await signUp(t);
      const ws = await createWorkspace(t, admin.token);
      const hook = await t.api
        .post(`/api/workspaces/${ws.slug}/webhooks/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ url: rx.url('/replicas'), project: true });
      assert.equal(hook.status, 201);
      await Promise.all(Array.from({ length: 20 }, () => createAppProject(t, admin.token, ws.slug)));
      await eventually(() => rx.at('/replicas').length >= 20, 'twenty deliveries');
      await sleep(500);
      const got = rx.at('/replicas');
      assert.equal(got.length, 20, 'no delivery sent twice');
      assert.equal(new Set(got.map((r) => r.headers['x-plane-delivery'])).size, 20);
      assert.equal(new Set(got.map((r) => r.body.data.id)).size, 20);
    });
  },
);

describe('webhooks: a slow receiver does not hold up the others', () => {
  let t: TestApp;
  let rx: Receiver;
  /** a receiver that reads each request and never answers while the test runs */
  let hang: http.Server;
  const held: http.ServerResponse[] = [];
  let hangPort = 0;
  before(async () => {
    rx = await startReceiver();
    hang = http.createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
    hangPort = (hang.address() as net.AddressInfo).port;
    t = await startTestApp({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      // far longer than the test: a slow attempt is still open when the fast receiver has everything
      WEBHOOK_TIMEOUT_MS: '120000',
      WEBHOOK_CONCURRENCY: '16',
      WEBHOOK_CONCURRENCY_PER_WEBHOOK: '4',
    });
  });
  after(async () => {
    for (const res of held) res.destroy();
    hang.closeAllConnections();
    await t.close();
    await new Promise<void>((resolve) => hang.close(() => resolve()));
    await rx.close();
  });

  it('delivers every event to a fast receiver while another holds its share of attempts open', async () => {
    const admin = await signUp(t);
    const ws = await createWorkspace(t, admin.token);
    const add = async (url: string) => {
      const res = await t.api
        .post(`/api/workspaces/${ws.slug}/webhooks/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ url, project: true });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const slow = await add(`http://127.0.0.1:${hangPort}/slow`);
    await add(rx.url('/fast'));
    const EVENTS = 24;
    for (let i = 0; i < EVENTS; i++) await createAppProject(t, admin.token, ws.slug);
    // every event reaches the fast receiver although none of the slow one's attempts has ended
    await eventually(() => rx.at('/fast').length >= EVENTS, 'every delivery to the fast receiver', 60_000);
    assert.equal(new Set(rx.at('/fast').map((r) => r.headers['x-plane-delivery'])).size, EVENTS);
    await eventually(() => held.length >= 4, 'the slow receiver’s share of attempts');
    await sleep(300);
    assert.equal(held.length, 4, 'the slow receiver holds its share (WEBHOOK_CONCURRENCY_PER_WEBHOOK) and no more');
    assert.ok(
      held.every((res) => !res.writableEnded),
      'the slow receiver has answered nothing',
    );
    const [slowLogs] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_logs WHERE webhook_id = $1', [
      slow,
    ]);
    assert.equal(Number(slowLogs.n), 0, 'no attempt to the slow receiver has finished');
    const [pending] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending'`,
      [slow],
    );
    assert.equal(Number(pending.n), EVENTS, 'its deliveries wait, none lost');
  });
});
