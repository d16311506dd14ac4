import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { jsonLines, runNode, SERVER, startServer, waitExit } from '../support/processes';
import { embeddedDataDir } from '../support/test-app';

describe('server process: the embedded database lock and start-up failures', () => {
  // migrated already: what is tested is the lock and the refusals, not a first start
  const { dir, drop } = embeddedDataDir('migrated', 'meridian-lock-');
  after(drop);

  it('refuses a second process on the same DATA_DIR, and a crash leaves no lock that blocks a restart', async () => {
    const first = await startServer({ DATA_DIR: dir });
    try {
      const second = await runNode([SERVER], { DATA_DIR: dir, PORT: '0' }, 60_000);
      assert.equal(second.code, 1);
      assert.match(second.stderr, /is in use by process \d+/);
      assert.equal(second.stderr.trim().split('\n').length, 1, 'one clear line');
    } finally {
      first.child.kill('SIGKILL');
      await waitExit(first.child);
    }
    assert.ok(fs.existsSync(path.join(dir, 'meridian.lock')), 'the crashed process left its lock behind');

    const restarted = await startServer({ DATA_DIR: dir });
    restarted.child.kill('SIGTERM');
    const stopped = await waitExit(restarted.child);
    // Nest closes the application, then re-raises the signal
    assert.ok(stopped.code === 0 || stopped.signal === 'SIGTERM', JSON.stringify(stopped));
    assert.ok(!fs.existsSync(path.join(dir, 'meridian.lock')), 'a clean stop releases the lock');
  });

  it('exits non-zero with one clear line when PostgreSQL cannot be reached', async () => {
    const res = await runNode([SERVER], {
      DATABASE_URL: 'postgres://meridian@127.0.0.1:1/none',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
    });
    assert.equal(res.code, 1);
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(lines[0], /^meridian: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none/);
  });

  it('exits non-zero with one clear line on invalid configuration', async () => {
    const res = await runNode([SERVER], { DATA_DIR: dir, PORT: 'eighty' });
    assert.equal(res.code, 1);
    assert.match(res.stderr.trim(), /^meridian: Invalid configuration: .*PORT/);
  });

  it('refuses TRUST_PROXY=true with one line that tells what to set instead', async () => {
    const res = await runNode([SERVER], { DATA_DIR: dir, PORT: '0', TRUST_PROXY: 'true' });
    assert.equal(res.code, 1);
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(lines[0], /^meridian: Invalid configuration: TRUST_PROXY=true .*TRUST_PROXY=1/);
  });

  it('refuses a TRUST_PROXY list entry that is not an address or CIDR', async () => {
    const res = await runNode([SERVER], { DATA_DIR: dir, PORT: '0', TRUST_PROXY: '10.0.0.1, proxy.example' });
    assert.equal(res.code, 1);
    assert.match(res.stderr.trim(), /^meridian: Invalid configuration: TRUST_PROXY must be .*not proxy\.example$/);
  });
});

describe('server process: the code cache of the bundle (scripts/server-entry.js)', () => {
  const { dir, drop } = embeddedDataDir('migrated', 'meridian-code-cache-');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-code-cache-test-'));
  after(() => {
    drop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  /** Starts the server on `dir`, waits for its cache file when it had to write one, stops it: the `code_cache` it logged. */
  async function start(): Promise<string> {
    const server = await startServer({ DATA_DIR: dir, CODE_CACHE_DIR: cacheDir });
    try {
      const listening = jsonLines(server.output()).find((l) => l.msg.startsWith('listening on'));
      const state = String(listening?.code_cache);
      if (state === 'miss' || state === 'rejected') {
        // written on the turn after "listening"
        for (let i = 0; i < 200 && cacheFiles().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      }
      return state;
    } finally {
      server.child.kill('SIGTERM');
      await waitExit(server.child);
    }
  }
  const cacheFiles = () => fs.readdirSync(cacheDir).filter((f) => f.endsWith('.cache'));

  it('is written by a first start, read by the next, and refused (then rewritten) when damaged', async () => {
    assert.equal(await start(), 'miss');
    const [file] = cacheFiles();
    assert.ok(file, 'the first start wrote its cache');
    assert.equal(fs.statSync(path.join(cacheDir, file)).mode & 0o777, 0o600, 'only the owner reads it');
    assert.equal(await start(), 'hit');

    const damaged = Buffer.alloc(fs.statSync(path.join(cacheDir, file)).size, 7);
    fs.writeFileSync(path.join(cacheDir, file), damaged);
    assert.equal(await start(), 'rejected', 'V8 refuses a damaged cache and the server starts anyway');
    assert.deepEqual(cacheFiles(), [file], 'rewritten in place, no temporary file left');
    assert.ok(!fs.readFileSync(path.join(cacheDir, file)).equals(damaged), 'the damaged cache was replaced');
  });
});
