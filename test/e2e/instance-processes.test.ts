import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, describe, it } from 'node:test';
import { CLI, runNode, SERVER, startServer, waitExit } from '../support/processes';
import { embeddedDataDir } from '../support/test-app';

/** A port that was free a moment ago (the server prints its configured port, so PORT=0 will not do here). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const GOOD_KEY = 'a'.repeat(16) + '0123456789abcdef0123456789abcdef';

describe('server process: SECRET_KEY at start-up', () => {
  // migrated: the starts below are about the key, not a first start
  const { dir, drop } = embeddedDataDir('migrated', 'meridian-secret-');
  after(drop);

  for (const [label, env, pattern] of [
    ['missing', {}, /^meridian: SECRET_KEY is not set: set SECRET_KEY to a random string of at least 32 characters/],
    [
      'a placeholder',
      { SECRET_KEY: 'change-me-to-something-secret-please-now' },
      /^meridian: SECRET_KEY is a placeholder value: set SECRET_KEY/,
    ],
    [
      'Plane’s published sample key',
      { SECRET_KEY: '60gp0byfz2dvffa45cxl20p1scy9xbpf6d8c5y0geejgkyp1b5' },
      /^meridian: SECRET_KEY is a placeholder value/,
    ],
    ['too short', { SECRET_KEY: 'short-key' }, /^meridian: SECRET_KEY is too short: set SECRET_KEY/],
  ] as const) {
    it(`refuses to start in production when it is ${label}, with one clear line`, async () => {
      const res = await runNode([SERVER], { NODE_ENV: 'production', DATA_DIR: dir, ...env });
      assert.equal(res.code, 1, res.stdout + res.stderr);
      const lines = res.stderr.trim().split('\n');
      assert.equal(lines.length, 1, res.stderr);
      assert.match(lines[0], pattern);
      assert.match(lines[0], /openssl rand -hex 32/);
    });
  }

  it('starts in production with a proper key, and in test/development without one (with a warning)', async () => {
    const prod = await startServer({ NODE_ENV: 'production', DATA_DIR: dir, SECRET_KEY: GOOD_KEY });
    assert.doesNotMatch(prod.output(), /SECRET_KEY/);
    // links are built on API_BASE_URL only (issue 36): production without one says so
    assert.match(prod.output(), /API_BASE_URL is not set: .*point at http:\/\/localhost:\d+\./);
    prod.child.kill('SIGTERM');
    await waitExit(prod.child);

    const dev = await startServer({ NODE_ENV: 'development', DATA_DIR: dir });
    const warning = dev
      .output()
      .split('\n')
      .find((l) => l.includes('SECRET_KEY is not set'));
    assert.ok(warning, dev.output());
    const parsed = JSON.parse(warning) as { level: number; msg: string };
    assert.equal(parsed.level, 40, 'a JSON warning line');
    assert.match(parsed.msg, /^SECRET_KEY is not set: .* Using the fixed development key\./);
    dev.child.kill('SIGTERM');
    await waitExit(dev.child);
  });
});

describe('CLI: admin create', () => {
  const { dir, drop } = embeddedDataDir('empty', 'meridian-admin-');
  after(drop);

  it('rejects bad arguments with usage and exit code 2', async () => {
    const none = await runNode([CLI, 'admin', 'create'], { DATA_DIR: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--email .*MERIDIAN_ADMIN_PASSWORD/);
    const bad = await runNode(
      [CLI, 'admin', 'create', '--email', 'ops@example.com', '--password', 'long enough', '--colour', 'red'],
      { DATA_DIR: dir },
    );
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown option --colour/);
  });

  it('sets up a fresh instance without HTTP (migrating first), once; the server then knows its admin', async () => {
    const res = await runNode(
      [CLI, 'admin', 'create', '--email', 'Ops@Example.com', '--first-name', 'Ops', '--company-name', 'CLI Corp'],
      { DATA_DIR: dir, MERIDIAN_ADMIN_PASSWORD: 'cli admin password' },
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.equal(res.stderr, '', 'no warning with MERIDIAN_ADMIN_PASSWORD');
    assert.match(res.stdout, /Instance set up: ops@example\.com \(new user\) is the first instance admin\./);

    const again = await runNode(
      [CLI, 'admin', 'create', '--email', 'other@example.com', '--password', 'another password'],
      { DATA_DIR: dir },
    );
    assert.equal(again.code, 1);
    const [warning, error] = again.stderr.trim().split('\n');
    assert.match(warning, /^meridian: warning: --password is visible in the process list/);
    assert.match(error, /^meridian: ADMIN_ALREADY_EXIST: /);

    const port = await freePort();
    const server = await startServer({ DATA_DIR: dir, PORT: String(port) });
    try {
      const base = `http://127.0.0.1:${port}`;
      const info = (await (await fetch(`${base}/api/instances/`)).json()) as {
        instance: { is_setup_done: boolean; instance_name: string };
      };
      assert.equal(info.instance.is_setup_done, true);
      assert.equal(info.instance.instance_name, 'CLI Corp');
      const signIn = await fetch(`${base}/api/instances/admins/sign-in/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'cli admin password' }),
      });
      assert.equal(signIn.status, 200);
      const signUp = await fetch(`${base}/auth/sign-up/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'first-user@example.com', password: 'a long passphrase' }),
      });
      assert.equal(signUp.status, 201);
    } finally {
      server.child.kill('SIGTERM');
      await waitExit(server.child);
    }
  });
});
