import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ArchiveAndCloseService, JobRunner } from '#domain';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** A real HTTP receiver of webhook deliveries on a loopback port. */
async function startReceiver() {
  const got: Array<{ event: string; action: string; data: { id: string }; activity: Record<string, unknown> }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push(JSON.parse(raw));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    got,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `fn` returns a truthy value (deliveries are asynchronous). */
async function eventually<T>(fn: () => T, what: string, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The project automations over HTTP (Plane's `issue_automation_task.py`): the settings the web app's
 * automation screen sends, then a daily run (`ArchiveAndCloseService.run`, as the job runner calls
 * it) and what the web app and a webhook receiver see of it. Runs on both engines.
 */
describe('App API: archive-and-close automation', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let admin: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let states: Record<string, { id: string; name: string }>;
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const get = (path: string) => t.api.get(path).auth(admin.token, { type: 'bearer' });
  const patchProject = (body: object) =>
    t.api
      .patch(base() + '/')
      .auth(admin.token, { type: 'bearer' })
      .send(body);
  const create = async (name: string, group: string) => {
    const res = await t.api
      .post(`${base()}/issues/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ name, state_id: states[group].id });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };

  before(async () => {
    rx = await startReceiver();
    t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50' });
    admin = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    project = await createAppProject(t, admin.token, ws.slug, { identifier: 'AUTO', name: 'Automated' });
    const rows = await t.sql<{ id: string; name: string; group: string }>(
      'SELECT id, name, "group" FROM states WHERE project_id = $1',
      [project.id],
    );
    states = Object.fromEntries(rows.map((r) => [r.group, { id: r.id, name: r.name }]));
  });
  after(async () => {
    await t.close();
    await rx.close();
  });

  it('takes the automation settings as Plane’s serializer does: 0–12 months, a default_state of the project', async () => {
    for (const body of [{ archive_in: 13 }, { archive_in: -1 }, { close_in: 1.5 }, { close_in: null }]) {
      const err = assertError(await patchProject(body), 422, 'VALIDATION_ERROR');
      assert.ok((err.errors as Record<string, unknown>)[Object.keys(body)[0]], JSON.stringify(err));
    }
    const other = await createAppProject(t, admin.token, ws.slug, { identifier: 'OTH', name: 'Other' });
    const [foreign] = await t.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 LIMIT 1', [other.id]);
    const err = assertError(await patchProject({ close_in: 1, default_state: foreign.id }), 422, 'VALIDATION_ERROR');
    assert.ok((err.errors as Record<string, unknown>).default_state);
    const unchanged = await get(base() + '/');
    assert.equal(unchanged.body.close_in, 0, 'nothing of a refused change is written');

    // the screen's toggles: on with the cancelled state, off with null
    const on = await patchProject({ close_in: 1, default_state: states.cancelled.id });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.close_in, 1);
    assert.equal(on.body.default_state, states.cancelled.id);
    const off = await patchProject({ close_in: 0, default_state: null });
    assert.equal(off.status, 200);
    assert.equal(off.body.default_state, null);
    const both = await patchProject({ archive_in: 1, close_in: 2, default_state: states.cancelled.id });
    assert.equal(both.status, 200);
    assert.deepEqual([both.body.archive_in, both.body.close_in], [1, 2]);
  });

  it('a daily run archives and closes idle work items: archive list, state, history, delta sync and webhooks', async () => {
    const hook = await t.api
      .post(`/api/workspaces/${ws.slug}/webhooks/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ url: rx.url, issue: true });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const done = await create('Done long ago', 'completed');
    const stale = await create('Forgotten', 'started');
    const fresh = await create('Done yesterday', 'completed');
    await t.sql(`UPDATE issues SET updated_at = now() - interval '61 days' WHERE id = ANY($1::uuid[])`, [
      [done, stale],
    ]);
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));

    // the daily job, as the job runner starts it (`archive-and-close`, automation.jobs.ts)
    const run = await t.app.get(JobRunner, { strict: false }).runNow('archive-and-close');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { archived: 1, closed: 1 });

    const archived = await get(`${base()}/archived-issues/`);
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    const archivedIds = (archived.body.results ?? archived.body).map((r: { id: string }) => r.id);
    assert.ok(archivedIds.includes(done), 'the archived item is in the archive list');
    assert.ok(!archivedIds.includes(fresh));
    const list = await get(`${base()}/issues/`);
    const listed = (list.body.results ?? list.body).map((r: { id: string }) => r.id);
    assert.ok(!listed.includes(done), 'and no longer in the list');

    const closed = await get(`${base()}/issues/${stale}/`);
    assert.equal(closed.body.state_id, states.cancelled.id);

    // the archived work item's history, as its archive page reads it
    const history = await get(`${base()}/issues/${done}/history/`);
    assert.equal(history.status, 200, JSON.stringify(history.body));
    const archiveRow = history.body.find((r: { field: string }) => r.field === 'archived_at');
    assert.deepEqual(
      [archiveRow.verb, archiveRow.old_value, archiveRow.new_value, archiveRow.comment, archiveRow.actor],
      ['updated', null, 'archive', 'Plane has archived the issue', admin.userId],
    );
    const stateRow = (await get(`${base()}/issues/${stale}/history/`)).body.find(
      (r: { field: string }) => r.field === 'state',
    );
    assert.deepEqual(
      [stateRow.verb, stateRow.old_value, stateRow.new_value, stateRow.new_identifier, stateRow.comment],
      ['updated', null, states.cancelled.name, states.cancelled.id, 'Plane updated the state to '],
    );

    // the web app's delta sync sees both at once
    const delta = await get(`${base()}/v2/issues/?cursor=500:0:0&updated_at__gt=${encodeURIComponent(since)}`);
    assert.equal(delta.status, 200);
    assert.deepEqual(
      delta.body.results.map((r: { id: string; state_id: string }) => [r.id, r.state_id]),
      [[stale, states.cancelled.id]],
    );
    const gone = await get(`${base()}/deleted-issues/?updated_at__gt=${encodeURIComponent(since)}`);
    assert.deepEqual(gone.body, [done]);

    // one `issue` delivery per change, as for any update
    const archiveHook = await eventually(
      () => rx.got.find((g) => g.data?.id === done && g.activity?.field === 'archived_at'),
      'the archive delivery',
    );
    assert.deepEqual(
      [archiveHook.event, archiveHook.action, archiveHook.activity.new_value],
      ['issue', 'updated', 'archive'],
    );
    const closeHook = await eventually(
      () => rx.got.find((g) => g.data?.id === stale && g.activity?.field === 'state'),
      'the close delivery',
    );
    assert.deepEqual(
      [closeHook.event, closeHook.action, closeHook.activity.new_value, closeHook.activity.new_identifier],
      ['issue', 'updated', states.cancelled.name, states.cancelled.id],
    );

    // a second run changes nothing
    assert.deepEqual(await t.app.get(ArchiveAndCloseService).run(), { archived: 0, closed: 0 });

    // restored, its history reads as Plane's web app expects: "Plane archived", then "restored"
    const restore = await t.api.delete(`${base()}/issues/${done}/archive/`).auth(admin.token, { type: 'bearer' });
    assert.equal(restore.status, 204);
    const rows = (await get(`${base()}/issues/${done}/history/?activity_type=issue-property`)).body.filter(
      (r: { field: string }) => r.field === 'archived_at',
    );
    assert.deepEqual(
      rows.map((r: Record<string, unknown>) => [r.old_value, r.new_value, r.comment]),
      [
        [null, 'archive', 'Plane has archived the issue'],
        ['archive', 'restore', 'has restored the issue'],
      ],
    );
  });

  it('a manual archive writes Plane’s "manual_archive" row, apart from the automation’s', async () => {
    const id = await create('Archived by hand', 'completed');
    const res = await t.api.post(`${base()}/issues/${id}/archive/`).auth(admin.token, { type: 'bearer' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [row] = await t.sql<Record<string, unknown>>(
      `SELECT old_value, new_value, comment FROM issue_activities WHERE issue_id = $1 AND field = 'archived_at'`,
      [id],
    );
    assert.deepEqual(row, { old_value: null, new_value: 'manual_archive', comment: 'Actor has archived the issue' });
  });
});
