import assert from 'node:assert/strict';
import { ChildProcess, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import request from 'supertest';
import { databaseUrl } from '../support/database-template';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { CLI, listeningUrl, runNode, startServer, waitExit } from '../support/processes';
import { ENGINE, migratedDatabaseEnv, TEST_ADMIN, TestApp } from '../support/test-app';

/** What the servers below share: cheap hashes, sign-ups from one address. */
const SERVER_ENV = { PASSWORD_HASH_COST: 'test', AUTH_SIGN_UP_RATE_LIMIT: '10000/minute', LOG_LEVEL: 'info' };

/** The fixtures' `TestApp` over a server process (they only use `api`). */
function over(url: string): TestApp {
  return { api: request(url) } as unknown as TestApp;
}

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; t: TestApp }> {
  const server = await startServer({ ...SERVER_ENV, ...env });
  return { child: server.child, t: over(listeningUrl(server.output())) };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  const { code } = await waitExit(child);
  assert.equal(code, 0);
}

/** A workspace with a project and three work items (one a child of another), and how to read them back. */
async function seed(t: TestApp) {
  const u = await signUp(t);
  const ws = await createWorkspace(t, u.token);
  const key = await createApiKey(t, u.token, ws.slug);
  const project = await createProject(t, key, ws.slug);
  const base = `/api/v1/workspaces/${ws.slug}/projects/${project.id}/issues/`;
  const parent = await t.api.post(base).set('X-API-Key', key).send({ name: 'Parent item', priority: 'high' });
  assert.equal(parent.status, 201, JSON.stringify(parent.body));
  for (const name of ['Child item', 'Third item']) {
    const res = await t.api
      .post(base)
      .set('X-API-Key', key)
      .send({ name, ...(name === 'Child item' ? { parent: parent.body.id } : {}) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  return { key, base };
}

/** The work items as the External API lists them, in a stable order, without volatile fields. */
async function readItems(t: TestApp, key: string, base: string) {
  const res = await t.api.get(`${base}?order_by=sequence_id`).set('X-API-Key', key);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body.results as Record<string, unknown>[]).map((i) => ({
    id: i.id,
    name: i.name,
    sequence_id: i.sequence_id,
    priority: i.priority,
    parent: i.parent,
    state: i.state,
  }));
}

describe(`backup and restore (${ENGINE})`, () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-backup-'));
  const drops: (() => Promise<void>)[] = [];
  let source: Record<string, string>;
  let seeded: { key: string; base: string };
  let items: Awaited<ReturnType<typeof readItems>>;
  let running: ChildProcess | null = null;

  before(async () => {
    const db = await migratedDatabaseEnv();
    drops.push(db.drop);
    source = db.env;
    const admin = await runNode([CLI, 'admin', 'create', '--email', TEST_ADMIN.email], {
      ...source,
      MERIDIAN_ADMIN_PASSWORD: TEST_ADMIN.password,
      PASSWORD_HASH_COST: 'test',
    });
    assert.equal(admin.code, 0, admin.stderr);
    const { child, t } = await start(source);
    running = child;
    seeded = await seed(t);
    items = await readItems(t, seeded.key, seeded.base);
    assert.equal(items.length, 3);
  });
  after(async () => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    for (const drop of drops) await drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  if (ENGINE === 'embedded') {
    it('refuses a backup while a server runs on the data directory', async () => {
      const file = path.join(tmp, 'live.tar.gz');
      const res = await runNode([CLI, 'backup', file], source);
      assert.equal(res.code, 1, res.stdout + res.stderr);
      assert.match(res.stderr, /in use by process \d+/);
      assert.equal(fs.existsSync(file), false);
    });

    it('backs up, restores into a fresh data directory, and the server reads the same work items back', async () => {
      await stop(running!);
      const file = path.join(tmp, 'meridian.tar.gz');
      const backup = await runNode([CLI, 'backup', file], source);
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /Backed up the embedded database/);
      assert.ok(fs.statSync(file).size > 0);
      assert.deepEqual(
        fs.readdirSync(tmp).filter((f) => f.includes('.partial-')),
        [],
      );
      // the archive's members are relative (tar unpacks it anywhere, without "Removing leading `/'")
      const listing = spawnSync('tar', ['-tzvf', file], { encoding: 'utf8' });
      assert.equal(listing.status, 0, listing.stderr);
      assert.equal(listing.stderr, '');
      const members = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout.trim().split('\n');
      assert.ok(members.includes('PG_VERSION'), members.slice(0, 5).join(' '));
      assert.ok(members.length > 100 && members.every((m) => !m.startsWith('/')), members.slice(0, 5).join(' '));
      // and unpack as they list (checksums right): PG_VERSION holds the major version
      const unpacked = fs.mkdtempSync(path.join(tmp, 'unpacked-'));
      const extract = spawnSync('tar', ['-xzf', file, '-C', unpacked], { encoding: 'utf8' });
      assert.equal(extract.status, 0, extract.stderr);
      assert.match(fs.readFileSync(path.join(unpacked, 'PG_VERSION'), 'utf8'), /^\d+\s*$/);

      const fresh = path.join(tmp, 'restored');
      const restore = await runNode([CLI, 'restore', file], { DATA_DIR: fresh });
      assert.equal(restore.code, 0, restore.stderr);
      // a second restore into a directory that holds a database is refused; --replace keeps the old one aside
      const again = await runNode([CLI, 'restore', file], { DATA_DIR: fresh });
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already holds a database/);
      // a file that is no backup leaves the directory as it was
      const junk = path.join(tmp, 'junk.tar.gz');
      fs.writeFileSync(junk, 'not a backup');
      const bad = await runNode([CLI, 'restore', junk, '--replace'], { DATA_DIR: fresh });
      assert.equal(bad.code, 1, bad.stdout + bad.stderr);
      assert.match(bad.stderr, /is not a backup/);

      const { child, t } = await start({ DATA_DIR: fresh });
      running = child;
      assert.deepEqual(await readItems(t, seeded.key, seeded.base), items);
      await stop(child);

      const replaced = await runNode([CLI, 'restore', file, '--replace'], { DATA_DIR: fresh });
      assert.equal(replaced.code, 0, replaced.stderr);
      assert.match(replaced.stdout, /is kept in .*pg\.before-restore-/);
      assert.equal(fs.readdirSync(fresh).filter((f) => f.startsWith('pg.before-restore-')).length, 1);
    });
  } else {
    it('points backup and restore at pg_dump and pg_restore', async () => {
      const res = await runNode([CLI, 'backup', path.join(tmp, 'x')], source);
      assert.equal(res.code, 2);
      assert.match(res.stderr, /pg_dump --format=custom/);
      const restore = await runNode([CLI, 'restore', path.join(tmp, 'x')], source);
      assert.equal(restore.code, 2);
      assert.match(restore.stderr, /pg_restore --no-owner/);
    });

    it('pg_dump of the live database, pg_restore into a new one: the server reads the same work items back', async () => {
      // as README "Backups" says: pg_dump is consistent while the server runs (one snapshot)
      const file = path.join(tmp, 'meridian.dump');
      const dump = spawnSync('pg_dump', ['--format=custom', `--file=${file}`, source.DATABASE_URL], {
        encoding: 'utf8',
      });
      assert.equal(dump.status, 0, dump.stderr);
      await stop(running!);

      const name = `meridian_restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      const base = process.env.TEST_DATABASE_URL!;
      const admin = new Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      drops.push(async () => {
        const c = new Client({ connectionString: base });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      });
      const target = databaseUrl(base, name);
      const restore = spawnSync('pg_restore', ['--no-owner', `--dbname=${target}`, file], { encoding: 'utf8' });
      assert.equal(restore.status, 0, restore.stderr);

      const { child, t } = await start({ DATABASE_URL: target });
      running = child;
      assert.deepEqual(await readItems(t, seeded.key, seeded.base), items);
      await stop(child);
    });
  }
});
