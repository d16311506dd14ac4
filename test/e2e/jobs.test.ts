import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import request from 'supertest';
import { JobRunner, OBJECT_STORAGE } from '#domain';
import type { ObjectStorage } from '#domain';
import { createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { CLI, listeningUrl, runNode, startServer, waitExit } from '../support/processes';
import { ENGINE, migratedDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** The runner's loop polls quickly here; an export without a sign of life for 1 s is abandoned. */
const FAST = { JOBS_POLL_INTERVAL_MS: '200', EXPORT_LEASE_MS: '1000', JOBS_BATCH_SIZE: '2', METRICS_ENABLED: 'true' };

async function until<T>(what: string, read: () => Promise<T | undefined | null | false>, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await read();
    if (v) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface JobRow {
  runs: number;
  failures: number;
  outcome: string | null;
  last_slot: Date | null;
  result: Record<string, number> | null;
}
async function jobRow(t: TestApp, name: string): Promise<JobRow> {
  const [row] = await t.sql<JobRow>(
    `SELECT runs, failures, outcome, last_slot, result FROM scheduled_jobs WHERE name = $1`,
    [name],
  );
  return row;
}

/**
 * Plane's scheduled jobs on the job runner (docs/jobs.md): each job purges what is past its
 * retention and nothing else, a schedule slot runs once (two processes on one PostgreSQL, or the
 * embedded database's one process), an export whose runner died is taken over while the server
 * runs, the jobs' runs are in `/metrics`.
 */
describe('scheduled jobs', () => {
  let t: TestApp;
  let runner: JobRunner;
  let storage: ObjectStorage;
  let ada: SignedUp;
  let ws: { id: string; slug: string };
  let p: { id: string; identifier: string };

  before(async () => {
    t = await startTestApp(FAST);
    runner = t.app.get(JobRunner, { strict: false });
    storage = t.app.get<ObjectStorage>(OBJECT_STORAGE, { strict: false });
    ada = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    p = await createAppProject(t, ada.token, ws.slug);
  });
  after(() => t?.close());

  it('registers Plane’s jobs with Plane’s schedule', async () => {
    const list = await runner.list();
    const byName = new Map(list.map((j) => [j.name, j.schedule]));
    assert.equal(byName.get('hard-delete'), 'daily at 00:00 UTC');
    assert.equal(byName.get('archive-and-close'), 'daily at 01:00 UTC');
    assert.equal(byName.get('send-email-notifications'), 'every 5 minutes');
    assert.equal(byName.get('delete-expired-exports'), 'daily at 01:30 UTC');
    assert.equal(byName.get('delete-unuploaded-assets'), 'daily at 02:00 UTC');
    assert.equal(byName.get('delete-api-logs'), 'daily at 02:30 UTC');
    for (const j of list) assert.ok(j.nextRunAt.getTime() > Date.now() - 1000, `${j.name} has a next run`);
  });

  it('hard-delete purges rows soft-deleted past HARD_DELETE_AFTER_DAYS, in batches, and nothing else', async () => {
    const labels = await t.sql<{ id: string }>(
      `INSERT INTO labels (workspace_id, project_id, name, color, sort_order, deleted_at)
       SELECT $1, $2, 'l' || n, '#000000', n, CASE WHEN n <= 5 THEN $3::timestamptz WHEN n = 6 THEN $4::timestamptz END
       FROM generate_series(1, 7) AS n RETURNING id`,
      [ws.id, p.id, ago(61), ago(59)],
    );
    assert.equal(labels.length, 7);
    // a work item deleted long ago, with its history: the history goes with it (foreign keys)
    const [issue] = await t.sql<{ id: string }>(
      `INSERT INTO issues (workspace_id, project_id, name, priority, sequence_id, sort_order, deleted_at)
       VALUES ($1, $2, 'gone', 'none', 9001, 65535, $3) RETURNING id`,
      [ws.id, p.id, ago(90)],
    );
    const run = await runner.runNow('hard-delete');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.ok((run.result?.deleted ?? 0) >= 6, JSON.stringify(run.result));
    const left = await t.sql<{ name: string }>(`SELECT name FROM labels WHERE id = ANY($1::uuid[]) ORDER BY name`, [
      labels.map((l) => l.id),
    ]);
    assert.deepEqual(
      left.map((l) => l.name),
      ['l6', 'l7'],
      'five past retention purged (batches of 2); the recent and the live one kept',
    );
    assert.equal((await t.sql(`SELECT 1 FROM issues WHERE id = $1`, [issue.id])).length, 0);
    assert.equal((await t.sql(`SELECT 1 FROM projects WHERE id = $1`, [p.id])).length, 1);
    const row = await jobRow(t, 'hard-delete');
    assert.equal(row.outcome, 'success');
    assert.equal(row.runs, 1);
  });

  it('delete-expired-exports removes the files and links of exports past EXPORT_EXPIRY_DAYS', async () => {
    const make = async (days: number) => {
      const key = `${ws.id}/export-${randomBytes(4).toString('hex')}.zip`;
      await storage.put(key, Buffer.from('zip'), 'application/zip');
      const [row] = await t.sql<{ id: string }>(
        `INSERT INTO exporters (workspace_id, project, provider, status, key, url, token, initiated_by_id, created_at)
         VALUES ($1, ARRAY[$2::uuid], 'csv', 'completed', $3, '/x/', $4, $5, $6) RETURNING id`,
        [ws.id, p.id, key, randomBytes(16).toString('hex'), ada.userId, ago(days)],
      );
      return { id: row.id, key };
    };
    const old = [await make(9), await make(10), await make(30)];
    const recent = await make(7);
    const run = await runner.runNow('delete-expired-exports');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { expired: 3 });
    for (const e of old) {
      const [row] = await t.sql<{ url: string | null; key: string }>(`SELECT url, key FROM exporters WHERE id = $1`, [
        e.id,
      ]);
      assert.deepEqual(row, { url: null, key: '' }, 'the row stays, without its file');
      assert.equal(await storage.get(e.key), null, 'the file is deleted');
    }
    const [kept] = await t.sql<{ url: string | null }>(`SELECT url FROM exporters WHERE id = $1`, [recent.id]);
    assert.equal(kept.url, '/x/');
    assert.ok(await storage.get(recent.key));
  });

  it('delete-unuploaded-assets deletes assets whose upload never completed, past UNUPLOADED_ASSET_DELETE_DAYS', async () => {
    const make = async (days: number, uploaded: boolean) => {
      const key = `${ws.id}/${randomBytes(8).toString('hex')}-a.png`;
      await storage.put(key, Buffer.from('png'), 'image/png');
      const [row] = await t.sql<{ id: string }>(
        `INSERT INTO file_assets (workspace_id, project_id, attributes, asset, entity_type, is_uploaded, created_at)
         VALUES ($1, $2, '{"name":"a.png","type":"image/png","size":3}', $3, 'ISSUE_DESCRIPTION', $4, $5) RETURNING id`,
        [ws.id, p.id, key, uploaded, ago(days)],
      );
      return { id: row.id, key };
    };
    const stale = [await make(8, false), await make(20, false), await make(9, false)];
    const fresh = await make(6, false);
    const done = await make(30, true);
    const run = await runner.runNow('delete-unuploaded-assets');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { deleted: 3 });
    const state = async (id: string) =>
      (
        await t.sql<{ deleted: boolean }>(
          `SELECT (deleted_at IS NOT NULL AND is_deleted) AS deleted FROM file_assets WHERE id = $1`,
          [id],
        )
      )[0].deleted;
    for (const a of stale) {
      assert.equal(await state(a.id), true, 'soft-deleted, as Plane does');
      assert.equal(await storage.get(a.key), null);
    }
    assert.equal(await state(fresh.id), false);
    assert.equal(await state(done.id), false);
    assert.ok(await storage.get(done.key));
  });

  it('delete-api-logs deletes webhook logs past API_LOG_RETENTION_DAYS', async () => {
    const [hook] = await t.sql<{ id: string }>(
      `INSERT INTO webhooks (workspace_id, url, secret_sealed) VALUES ($1, 'https://example.com/h', 'x') RETURNING id`,
      [ws.id],
    );
    const ids = await t.sql<{ id: string; created_at: Date }>(
      `INSERT INTO webhook_logs (workspace_id, webhook_id, event_type, created_at)
       SELECT $1, $2, 'issue', d FROM unnest($3::timestamptz[]) AS d RETURNING id, created_at`,
      [ws.id, hook.id, [ago(31), ago(45), ago(400), ago(29), ago(0)]],
    );
    const run = await runner.runNow('delete-api-logs');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { webhook_logs: 3 });
    const left = await t.sql<{ id: string }>(`SELECT id FROM webhook_logs WHERE id = ANY($1::uuid[])`, [
      ids.map((r) => r.id),
    ]);
    assert.deepEqual(
      left.map((r) => r.id).sort(),
      ids
        .filter((r) => new Date(r.created_at).getTime() > Date.now() - 30 * DAY)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('an unknown job name is refused', async () => {
    await assert.rejects(() => runner.runNow('no-such-job'), /no job is named "no-such-job"/);
  });

  it('a due schedule slot runs once, by the loop, and is recorded', async () => {
    const before = await jobRow(t, 'delete-api-logs');
    // the slot before the current one was the last run: the current one is due
    await t.sql(`UPDATE scheduled_jobs SET last_slot = last_slot - interval '1 day' WHERE name = 'delete-api-logs'`);
    const after = await until('the scheduled run', async () => {
      const r = await jobRow(t, 'delete-api-logs');
      return r.runs > before.runs && r;
    });
    await sleep(1000); // five more schedule checks of the loop: the slot is not run again
    const later = await jobRow(t, 'delete-api-logs');
    assert.equal(later.runs, before.runs + 1);
    assert.equal(later.outcome, 'success');
    assert.equal(new Date(later.last_slot!).getTime(), new Date(before.last_slot!).getTime(), 'the current slot');
    assert.equal(after.runs, later.runs);
  });

  it('a run whose process died is run again once its lease ends; a live lease is respected', async () => {
    // delete-expired-exports: its process claimed the current slot and died (the lease ran out)
    const dead = await jobRow(t, 'delete-expired-exports');
    await t.sql(
      `UPDATE scheduled_jobs SET running_until = now() - interval '1 second', run_by = 'gone:1:x' WHERE name = 'delete-expired-exports'`,
    );
    // delete-unuploaded-assets: its slot is due, but another process holds it (lease for an hour)
    const held = await jobRow(t, 'delete-unuploaded-assets');
    await t.sql(
      `UPDATE scheduled_jobs SET last_slot = last_slot - interval '1 day', running_until = now() + interval '1 hour'
       WHERE name = 'delete-unuploaded-assets'`,
    );
    await until('the abandoned run to be run again', async () => {
      const r = await jobRow(t, 'delete-expired-exports');
      return r.runs > dead.runs && r;
    });
    const [rerun] = await t.sql<{ running_until: Date | null; run_by: string }>(
      `SELECT running_until, run_by FROM scheduled_jobs WHERE name = 'delete-expired-exports'`,
    );
    assert.equal(rerun.running_until, null);
    assert.notEqual(rerun.run_by, 'gone:1:x');
    assert.equal((await jobRow(t, 'delete-unuploaded-assets')).runs, held.runs, 'not run while another holds it');
    await assert.rejects(() => runner.runNow('delete-unuploaded-assets'), /running in another process/);
    await t.sql(
      `UPDATE scheduled_jobs SET running_until = NULL, last_slot = $1 WHERE name = 'delete-unuploaded-assets'`,
      [held.last_slot],
    );
  });

  it('an export whose runner died is taken over when its lease ends; a live one is left alone', async () => {
    await t.sql(
      `INSERT INTO issues (workspace_id, project_id, name, priority, sequence_id, sort_order, created_by_id)
       VALUES ($1, $2, 'to export', 'none', 1, 65535, $3)`,
      [ws.id, p.id, ada.userId],
    );
    const insert = async (createdAgo: number, updatedAt: string) =>
      (
        await t.sql<{ id: string }>(
          `INSERT INTO exporters (workspace_id, project, provider, status, token, initiated_by_id, created_at, updated_at, filters)
           VALUES ($1, ARRAY[$2::uuid], 'csv', 'processing', $3, $4, now() - $5::int * interval '1 second', $6, '{"multiple":false}')
           RETURNING id`,
          [ws.id, p.id, randomBytes(16).toString('hex'), ada.userId, createdAgo, updatedAt],
        )
      )[0].id;
    // older, and still renewed by its (live) runner: its lease lasts another hour
    const live = await insert(120, new Date(Date.now() + 3600_000).toISOString());
    // its runner was killed mid-export: no sign of life for a minute
    const dead = await insert(60, ago(1 / 1440));
    const done = await until('the abandoned export to complete', async () => {
      const [row] = await t.sql<{ status: string; url: string | null }>(
        `SELECT status, url FROM exporters WHERE id = $1`,
        [dead],
      );
      return row.status !== 'processing' && row;
    });
    assert.equal(done.status, 'completed');
    assert.ok(done.url);
    const [other] = await t.sql<{ status: string }>(`SELECT status FROM exporters WHERE id = $1`, [live]);
    assert.equal(other.status, 'processing', 'an export whose lease lasts is not taken');
    await t.sql(`DELETE FROM exporters WHERE id = $1`, [live]);
  });

  it('/metrics shows each job’s last run, duration, outcome and runs', async () => {
    const res = await t.api.get('/metrics');
    assert.equal(res.status, 200);
    const text = res.text;
    assert.match(text, /^meridian_job_last_run_timestamp_seconds\{job="hard-delete"\} \d+(\.\d+)?$/m);
    assert.match(text, /^meridian_job_last_duration_seconds\{job="hard-delete"\} [\d.e-]+$/m);
    assert.match(text, /^meridian_job_last_success\{job="hard-delete"\} 1$/m);
    assert.match(text, /^meridian_job_runs\{job="hard-delete",outcome="success"\} 1$/m);
    assert.match(text, /^meridian_job_runs\{job="hard-delete",outcome="failure"\} 0$/m);
    assert.match(text, /^meridian_job_runs\{job="delete-api-logs",outcome="success"\} 2$/m);
    assert.match(text, /^meridian_job_runs\{job="delete-expired-exports",outcome="success"\} 2$/m);
    assert.match(text, /^meridian_job_running\{job="delete-expired-exports"\} 0$/m);
    // a job that never ran has no last run yet
    assert.doesNotMatch(text, /^meridian_job_last_success\{job="nope"\}/m);
  });
});

describe('scheduled jobs: two processes on one PostgreSQL database', { skip: ENGINE !== 'postgres' }, () => {
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    a = await startTestApp(FAST);
    b = await startTestApp({ ...FAST, DATABASE_URL: a.config.database.url! }, { setup: false });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('run each due slot exactly once between them', async () => {
    const names = ['hard-delete', 'delete-expired-exports', 'delete-unuploaded-assets', 'delete-api-logs'];
    const runs = async () =>
      new Map(
        (await a.sql<{ name: string; runs: number }>(`SELECT name, runs FROM scheduled_jobs`)).map((r) => [
          r.name,
          r.runs,
        ]),
      );
    const start = await runs();
    await a.sql(`UPDATE scheduled_jobs SET last_slot = last_slot - interval '1 day' WHERE name = ANY($1)`, [names]);
    await until('every job to run', async () => {
      const now = await runs();
      return names.every((n) => (now.get(n) ?? 0) > (start.get(n) ?? 0));
    });
    await sleep(1000); // both loops check the schedule five more times
    const end = await runs();
    for (const n of names) assert.equal(end.get(n), (start.get(n) ?? 0) + 1, `${n} ran once`);
    const owners = await a.sql<{ run_by: string }>(`SELECT DISTINCT run_by FROM scheduled_jobs WHERE name = ANY($1)`, [
      names,
    ]);
    assert.ok(owners.length >= 1);
  });
});

describe('exports: a server killed mid-export', { skip: ENGINE !== 'postgres' }, () => {
  let b: TestApp;
  let a: ChildProcess | undefined;
  let lock: Client | undefined;

  before(async () => {
    // B polls for abandoned exports every second; an export without a sign of life for 1 s is abandoned
    b = await startTestApp({ JOBS_POLL_INTERVAL_MS: '1000', EXPORT_LEASE_MS: '1000' });
  });
  after(async () => {
    a?.kill('SIGKILL');
    await lock?.end().catch(() => undefined);
    await b?.close();
  });

  it('is finished by another server that is running, once its lease ends', async () => {
    const ada = await signUp(b);
    const ws = await createWorkspace(b, ada.token);
    const p = await createAppProject(b, ada.token, ws.slug);
    await b.sql(
      `INSERT INTO issues (workspace_id, project_id, name, priority, sequence_id, sort_order, created_by_id)
       VALUES ($1, $2, 'exported', 'none', 1, 65535, $3)`,
      [ws.id, p.id, ada.userId],
    );
    // server A on the same database; its export will hang on the work items until it is killed
    const server = await startServer({
      DATABASE_URL: b.config.database.url!,
      EXPORT_LEASE_MS: '1000',
      PASSWORD_HASH_COST: 'test',
    });
    a = server.child;
    const onA = request(listeningUrl(server.output()));
    lock = new Client({ connectionString: b.config.database.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE issues IN ACCESS EXCLUSIVE MODE');
    const asked = await onA
      .post(`/api/workspaces/${ws.slug}/export-issues/`)
      .set('Authorization', `Bearer ${ada.token}`)
      .send({ provider: 'csv', project: [p.id], multiple: false });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const [row] = await until('the export to be processing', async () => {
      const rows = await b.sql<{ id: string; status: string }>(
        `SELECT id, status FROM exporters WHERE workspace_id = $1`,
        [ws.id],
      );
      return rows[0]?.status === 'processing' && rows;
    });
    a.kill('SIGKILL');
    await waitExit(a);
    a = undefined;
    const [killed] = await b.sql<{ status: string }>(`SELECT status FROM exporters WHERE id = $1`, [row.id]);
    assert.equal(killed.status, 'processing', 'A died mid-export (it waited on the locked work items)');
    await lock.query('ROLLBACK');
    const done = await until('the export to be completed by B', async () => {
      const [r] = await b.sql<{ status: string; reason: string }>(
        `SELECT status, reason FROM exporters WHERE id = $1`,
        [row.id],
      );
      return r.status !== 'processing' && r;
    });
    assert.equal(done.status, 'completed', done.reason);
    const list = await b.api
      .get(`/api/workspaces/${ws.slug}/export-issues/?per_page=10&cursor=10:0:0`)
      .set('Authorization', `Bearer ${ada.token}`);
    assert.equal(list.status, 200);
    assert.ok((list.body.results as Array<{ id: string; url: string | null }>).find((e) => e.id === row.id)?.url);
  });
});

describe('ops CLI: jobs list, jobs run', () => {
  let db: { env: Record<string, string>; drop(): Promise<void> };
  before(async () => {
    db = await migratedDatabaseEnv();
  });
  after(() => db?.drop());

  it('lists the jobs, runs one by name (exit 0), and refuses an unknown name (exit 2)', async () => {
    const list = await runNode([CLI, 'jobs', 'list'], db.env);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.match(lines[0], /^NAME\s+SCHEDULE\s+LAST RUN\s+NEXT RUN$/);
    for (const [name, schedule] of [
      ['hard-delete', 'daily at 00:00 UTC'],
      ['archive-and-close', 'daily at 01:00 UTC'],
      ['send-email-notifications', 'every 5 minutes'],
      ['delete-expired-exports', 'daily at 01:30 UTC'],
      ['delete-unuploaded-assets', 'daily at 02:00 UTC'],
      ['delete-api-logs', 'daily at 02:30 UTC'],
    ])
      assert.ok(
        lines.some((l) => new RegExp(`^${name}\\s+${schedule}\\s+never\\s+\\d{4}-\\d\\d-\\d\\dT`).test(l)),
        `${name} listed: ${list.stdout}`,
      );

    const run = await runNode([CLI, 'jobs', 'run', 'delete-api-logs'], db.env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^delete-api-logs: success in \d+ ms \{"webhook_logs":0\}$/m);

    const again = await runNode([CLI, 'jobs', 'list'], db.env);
    assert.match(again.stdout, /^delete-api-logs\s+daily at 02:30 UTC\s+\S+ success in \d+ ms \{"webhook_logs":0\}/m);

    const unknown = await runNode([CLI, 'jobs', 'run', 'no-such-job'], db.env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no job is named "no-such-job" \(known: .*hard-delete/);

    const usage = await runNode([CLI, 'jobs'], db.env);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /jobs run NAME/);
  });
});
