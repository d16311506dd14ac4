import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { childEnv, CLI, ROOT, runNode, TEST_NODE_FLAGS } from '../support/processes';
import { freshDatabaseEnv } from '../support/test-app';

/** The most recent migration's class name, e.g. `AddInstance1795267277879`. */
const LATEST = fs
  .readdirSync(path.join(ROOT, 'libs', 'database', 'src', 'migrations'))
  .filter((f) => /^\d+-\w+\.ts$/.test(f))
  .sort()
  .map((f) => {
    const [, ts, name] = /^(\d+)-(\w+)\.ts$/.exec(f)!;
    return `${name}${ts}`;
  })
  .pop()!;

describe('ops CLI: usage', () => {
  for (const arg of ['--help', '-h', 'help']) {
    it(`${arg} prints the usage and exits 0`, async () => {
      const res = await runNode([CLI, arg], {});
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^Usage: meridian <command>/);
      assert.match(res.stdout, /MERIDIAN_ADMIN_PASSWORD/);
    });
  }

  it('an unknown command says so, with the usage, and exits 2', async () => {
    const res = await runNode([CLI, 'migration:frobnicate'], {});
    assert.equal(res.code, 2);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /^meridian: unknown command "migration:frobnicate"\n\nUsage: meridian/);
    const admin = await runNode([CLI, 'admin', 'delete'], {});
    assert.equal(admin.code, 2);
    assert.match(admin.stderr, /^meridian: unknown command "admin delete"/);
  });
});

describe('ops CLI: the code cache of its bundle (scripts/server-entry.js)', () => {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-cli-code-cache-'));
  after(() => fs.rmSync(cacheDir, { recursive: true, force: true }));
  const cli = (arg: string) => runNode([CLI, arg], { CODE_CACHE_DIR: cacheDir });
  const files = () => fs.readdirSync(cacheDir);

  it('is written by the first command that succeeds, read by the next, and replaced when damaged', async () => {
    const failed = await cli('migration:frobnicate');
    assert.equal(failed.code, 2);
    assert.deepEqual(files(), [], 'a failed command writes no cache');

    const first = await cli('help');
    assert.equal(first.code, 0, first.stderr);
    const [file] = files();
    assert.match(file ?? '', /^cli-bundle-[0-9a-f]{24}\.cache$/);
    const cached = path.join(cacheDir, file);
    assert.equal(fs.statSync(cached).mode & 0o777, 0o600, 'only the owner reads it');
    const written = { ino: fs.statSync(cached).ino, bytes: fs.readFileSync(cached) };

    const second = await cli('help');
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(files(), [file]);
    assert.equal(fs.statSync(cached).ino, written.ino, 'read, not written again');
    assert.ok(fs.readFileSync(cached).equals(written.bytes));

    const damaged = Buffer.alloc(written.bytes.length, 7);
    fs.writeFileSync(cached, damaged);
    const third = await cli('help');
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, first.stdout, 'V8 refuses a damaged cache and the command runs anyway');
    assert.deepEqual(files(), [file], 'rewritten in place, no temporary file left');
    assert.ok(!fs.readFileSync(cached).equals(damaged), 'the damaged cache was replaced');
  });
});

describe('ops CLI: migration:revert (engine under test)', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  before(async () => (db = await freshDatabaseEnv()));
  after(() => db.drop());

  it('with nothing applied, says so and exits 1', async () => {
    const res = await runNode([CLI, 'migration:revert'], db.env);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.doesNotMatch(res.stdout, /Reverted/);
    assert.match(res.stderr, /^meridian: nothing to revert: no migration is applied\.$/m);
  });

  it('names the migration it reverted', async () => {
    const run = await runNode([CLI, 'migration:run'], db.env);
    assert.equal(run.code, 0, run.stderr);
    const res = await runNode([CLI, 'migration:revert'], db.env);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, new RegExp(`^Reverted ${LATEST}\\.$`, 'm'));
    const show = await runNode([CLI, 'migration:show'], db.env);
    assert.match(show.stdout, new RegExp(`^\\[ \\] ${LATEST}$`, 'm'));
    // one list, oldest first, applied or not: every applied one above the pending latest
    const listed = show.stdout
      .split('\n')
      .filter((l) => /^\[[X ]\] /.test(l))
      .map((l) => ({ applied: l.startsWith('[X]'), name: l.slice(4), at: Number(/(\d{13})$/.exec(l)![1]) }));
    assert.ok(listed.length > 2, show.stdout);
    assert.deepEqual(
      listed.map((m) => m.at),
      listed.map((m) => m.at).sort((a, b) => a - b),
      `not oldest first:\n${show.stdout}`,
    );
    assert.equal(listed[listed.length - 1].name, LATEST);
    assert.ok(
      listed.slice(0, -1).every((m) => m.applied),
      show.stdout,
    );
  });
});

describe('ops CLI: admin create password sources', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  before(async () => (db = await freshDatabaseEnv()));
  after(() => db.drop());

  it('without --password, MERIDIAN_ADMIN_PASSWORD or a terminal, asks for MERIDIAN_ADMIN_PASSWORD', async () => {
    const res = await runNode([CLI, 'admin', 'create', '--email', 'ops@example.com'], db.env);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /set MERIDIAN_ADMIN_PASSWORD/);
    const short = await runNode([CLI, 'admin', 'create', '--email', 'ops@example.com'], {
      ...db.env,
      MERIDIAN_ADMIN_PASSWORD: 'short',
    });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /8 to 128 characters/);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it(
    'in a terminal, prompts twice without echoing the password',
    { skip: !hasScript && 'needs script(1) for a pseudo-terminal' },
    async () => {
      const secret = 'typed at the prompt';
      const command = [process.execPath, ...TEST_NODE_FLAGS, CLI, 'admin', 'create', '--email', 'tty@example.com']
        .map((a) => `'${a}'`)
        .join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: childEnv(db.env) });
      let out = '';
      let prompts = 0;
      child.stdout.on('data', (d) => {
        out += d;
        const seen = (out.match(/Password for the instance admin: |The same password again: /g) ?? []).length;
        while (prompts < seen) {
          prompts++;
          child.stdin.write(`${secret}\r`);
        }
      });
      child.stderr.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(prompts, 2, out);
      assert.equal(code, 0, out);
      assert.match(out, /Instance set up: tty@example\.com \(new user\) is the first instance admin\./);
      assert.ok(!out.includes(secret), `the password was echoed:\n${out}`);
    },
  );
});
