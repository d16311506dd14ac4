import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  childEnv,
  CLI,
  jsonLines,
  listeningUrl,
  ROOT,
  runNode,
  SERVER,
  startServer,
  TEST_NODE_FLAGS,
  waitExit,
} from '../support/processes';
import { embeddedDataDir, freshDatabaseEnv } from '../support/test-app';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `npm <args>` in the repository (as the README says) and resolves once the server listens. */
function startWithNpm(
  args: string[],
  env: Record<string, string>,
): Promise<{ npm: ChildProcess; stdout: () => string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const npm = spawn('npm', args, {
      cwd: ROOT,
      env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      npm.kill('SIGKILL');
      reject(new Error(`npm ${args.join(' ')} did not start:\n${stdout}\n${stderr}`));
    }, 120_000);
    npm.stderr!.on('data', (d) => (stderr += d));
    npm.stdout!.on('data', (d) => {
      stdout += d;
      if (stdout.includes('listening on')) {
        clearTimeout(timer);
        resolve({ npm, stdout: () => stdout, stderr: () => stderr });
      }
    });
    npm.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
}

/** Resolves when `child` exits, or rejects after `ms` (the point of the test: it must stop promptly). */
function exitWithin(child: ChildProcess, ms: number) {
  return Promise.race([
    waitExit(child),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms).unref(),
    ),
  ]);
}

describe('start and stop with the README commands (embedded database)', () => {
  const { dir, drop } = embeddedDataDir('empty', 'meridian-ops-');
  after(drop);

  // heap: the limit the server runs with (MiB, `--max-old-space-size`): the scripts' default, or the
  // caller's NODE_OPTIONS, which overrides it
  for (const [label, args, logLevel, nodeOptions, heap] of [
    ['npm start', ['start'], 'info', '', 768],
    ['npm run start:prod', ['run', 'start:prod'], 'debug', '--max-old-space-size=700', 700],
  ] as const) {
    it(`SIGTERM to \`${label}\` stops the server: port and data-directory lock freed, JSON logs throughout; heap limit ${heap} MiB`, async () => {
      const run = await startWithNpm([...args], { DATA_DIR: dir, LOG_LEVEL: logLevel, NODE_OPTIONS: nodeOptions });
      const url = listeningUrl(run.stdout());
      const serverPid = jsonLines(run.stdout()).find((l) => l.msg.startsWith('listening on'))!.pid;
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { version: string }).version, VERSION);
      assert.ok(fs.existsSync(path.join(dir, 'meridian.lock')));
      // the scripts' malloc arena count reaches the server process (glibc reads it at start)
      const environ = fs.readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
      assert.ok(environ.includes('MALLOC_ARENA_MAX=2'), environ.filter((e) => e.startsWith('MALLOC')).join(' '));

      run.npm.kill('SIGTERM');
      await exitWithin(run.npm, 20_000);
      // npm exits when its child does; the server must not be left behind (re-parented)
      for (let i = 0; i < 50 && alive(serverPid); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(alive(serverPid), false, `server ${serverPid} still running`);
      assert.equal(fs.existsSync(path.join(dir, 'meridian.lock')), false, 'lock released');
      await assert.rejects(fetch(`${url}/health`), 'port closed');

      const lines = jsonLines(run.stdout()); // throws on any plain-text line
      const messages = lines.map((l) => l.msg);
      const starting = lines.find((l) => l.msg.startsWith(`starting Meridian ${VERSION}`));
      assert.ok(starting, messages.join('\n'));
      // V8 adds the young generation (16–64 MiB) to the old generation's limit
      const limit = starting.heap_limit_mib as number;
      assert.ok(
        limit >= heap && limit < heap + 100,
        `heap limit ${limit} MiB, expected ${heap} MiB plus the young generation`,
      );
      assert.ok(messages.indexOf('stopped') > messages.indexOf('stopping (SIGTERM)'), messages.join('\n'));
      assert.ok(messages.indexOf('stopping (SIGTERM)') > messages.findIndex((m) => m.startsWith('listening on')));
      const mapped = lines.filter((l) => l.msg.startsWith('Mapped {'));
      if (logLevel === 'info') assert.equal(mapped.length, 0, 'route mapping is not logged at info');
      else {
        assert.ok(mapped.length > 100, 'route mapping is logged at debug');
        assert.ok(
          mapped.every((l) => l.level === 20),
          'at level debug (20)',
        );
      }
    });
  }

  it('sums up the migrations it applies in one line, says how to claim the unclaimed instance; once claimed, neither', async () => {
    const { dir: fresh, drop } = embeddedDataDir('empty', 'meridian-ops-migrate-');
    try {
      const first = await startServer({ DATA_DIR: fresh, LOG_LEVEL: 'info', WEB_URL: 'http://plane.test' });
      first.child.kill('SIGTERM');
      await waitExit(first.child);
      const lines = jsonLines(first.output());
      const applied = lines.filter((l) => /^applied \d+ migrations?:/.test(l.msg));
      assert.equal(applied.length, 1, first.output());
      const names = applied[0].migrations as string[];
      assert.ok(names.length > 2 && /^Initial\d+$/.test(names[0]), first.output());
      // one short line: the count, the first and the last; the whole list is in its field
      assert.equal(applied[0].msg, `applied ${names.length} migrations: ${names[0]} … ${names[names.length - 1]}`);
      const claim = lines.find((l) => l.msg.startsWith('this instance is not claimed yet'));
      assert.ok(claim, first.output());
      assert.equal(claim.level, 40);
      assert.match(claim.msg, /http:\/\/plane\.test\/god-mode\//);
      assert.match(claim.msg, /npm run cli -- admin create --email/);

      // claimed with the command the line names
      const created = await runNode([CLI, 'admin', 'create', '--email', 'ops@example.com'], {
        DATA_DIR: fresh,
        MERIDIAN_ADMIN_PASSWORD: 'an admin passphrase',
      });
      assert.equal(created.code, 0, created.stderr);

      const second = await startServer({ DATA_DIR: fresh, LOG_LEVEL: 'info' });
      second.child.kill('SIGTERM');
      await waitExit(second.child);
      const again = jsonLines(second.output());
      assert.ok(again.some((l) => l.msg === 'database schema is up to date: no pending migrations'));
      assert.ok(!again.some((l) => l.msg.startsWith('this instance is not claimed')), second.output());
    } finally {
      drop();
    }
  });

  it('LOG_FORMAT=pretty: one readable line per entry (time, level, message), the same content as the JSON', async () => {
    const { dir: fresh, drop } = embeddedDataDir('empty', 'meridian-ops-pretty-');
    try {
      const server = await startServer({ DATA_DIR: fresh, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
      const url = /listening on (http:\/\/[^ ]+)/.exec(server.output())![1];
      assert.equal((await fetch(`${url}/health?token=very-secret`)).status, 200);
      server.child.kill('SIGTERM');
      await waitExit(server.child);
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '');
      assert.ok(lines.length >= 4, server.output());
      for (const line of lines) {
        assert.ok(!line.startsWith('{'), `a JSON line in the pretty log: ${line}`);
        // no colours when stdout is not a terminal
        assert.ok(!line.includes('\u001b['), line);
      }
      assert.ok(
        lines.some((l) => /^\d\d:\d\d:\d\d\.\d{3} INFO {2}starting Meridian /.test(l)),
        server.output(),
      );
      assert.ok(lines.some((l) => /^\d\d:\d\d:\d\d\.\d{3} WARN {2}this instance is not claimed yet/.test(l)));
      // a request's line: method, URL (secrets still redacted), status and time
      assert.ok(
        lines.some((l) => /INFO {2}request completed GET \/health\?token=\[redacted\] 200 \d+ ms/.test(l)),
        server.output(),
      );
      assert.ok(!server.output().includes('very-secret'));
      assert.ok(lines.some((l) => /INFO {2}stopped$/.test(l)));
    } finally {
      drop();
    }
  });

  it('on a terminal the log is pretty by default; with NODE_ENV=production it stays JSON', async () => {
    // a port in use: the server logs that it starts, then refuses to (exit 1) before touching the database
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as net.AddressInfo).port);
    try {
      for (const [nodeEnv, pretty] of [
        ['development', true],
        ['production', false],
      ] as const) {
        // util-linux's `script` runs the server with a pseudo-terminal as its stdout
        const command = [process.execPath, ...TEST_NODE_FLAGS, SERVER].join(' ');
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          cwd: ROOT,
          env: childEnv({
            PORT: port,
            HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            NODE_ENV: nodeEnv,
            SECRET_KEY: 'k'.repeat(64),
            NO_COLOR: '',
          }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout!.on('data', (d) => (out += d));
        child.stderr!.on('data', (d) => (out += d));
        const { code } = await waitExit(child);
        assert.equal(code, 1, out);
        assert.match(out, /Port \d+ on 127\.0\.0\.1 is already in use/);
        const starting = out.split(/\r?\n/).find((l) => l.includes('starting Meridian'));
        assert.ok(starting, out);
        if (pretty)
          // ANSI colours: the time dimmed (90), the level green (32)
          assert.match(
            starting,
            new RegExp(String.raw`^\x1b\[90m\d\d:\d\d:\d\d\.\d{3}\x1b\[0m \x1b\[32mINFO \x1b\[0m starting`),
          );
        else assert.equal((JSON.parse(starting.trim()) as { level: number }).level, 30, starting);
      }
    } finally {
      holder.close();
    }
  });
});

describe('SIGTERM during start-up (embedded database)', () => {
  it('is honoured once the current step ends: the database is closed, the lock released, exit 0', async () => {
    // a cluster out of initdb with no migration applied: the start's database step (opening it and
    // applying every migration) takes seconds, and the signal comes before it
    const { dir, drop } = embeddedDataDir('empty', 'meridian-early-');
    try {
      const child = spawn(process.execPath, [...TEST_NODE_FLAGS, SERVER], {
        cwd: ROOT,
        env: childEnv({
          DATA_DIR: dir,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          SHUTDOWN_TIMEOUT_MS: '120000',
        }),
      });
      let out = '';
      let sent = false;
      child.stdout.on('data', (d) => {
        out += d;
        // the first line is written before the database is opened and migrated
        if (out.includes('starting Meridian') && !sent) {
          sent = true;
          child.kill('SIGTERM');
        }
      });
      child.stderr.on('data', (d) => (out += d));
      const exit = await exitWithin(child, 120_000);
      assert.deepEqual(exit, { code: 0, signal: null }, out);
      const messages = jsonLines(out).map((l) => l.msg);
      assert.ok(messages.includes('stopping (SIGTERM)'), out);
      assert.equal(messages[messages.length - 1], 'stopped');
      assert.ok(!messages.some((m) => m.startsWith('listening on')), 'it never started serving');
      assert.equal(fs.existsSync(path.join(dir, 'meridian.lock')), false, 'lock released');
    } finally {
      drop();
    }
  });
});

describe('start-up refusals: one clear line, before the database is touched', () => {
  it('a port already in use', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-port-'));
    try {
      const res = await runNode([SERVER], { DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' });
      assert.equal(res.code, 1, res.stdout + res.stderr);
      const errLines = res.stderr.trim().split('\n');
      assert.equal(errLines.length, 1, res.stderr);
      assert.equal(
        errLines[0],
        `meridian: Port ${port} on 127.0.0.1 is already in use: stop the process that holds it, or set PORT to another port.`,
      );
      jsonLines(res.stdout);
      assert.equal(fs.existsSync(path.join(dir, 'pg')), false, 'the database was not opened');
      assert.equal(fs.existsSync(path.join(dir, 'meridian.lock')), false);
    } finally {
      holder.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('MIGRATIONS_RUN (and every boolean setting) must be a boolean', async () => {
    const res = await runNode([SERVER], { MIGRATIONS_RUN: 'nope', DATABASE_URL: 'postgres://unused@127.0.0.1:1/none' });
    assert.equal(res.code, 1);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    assert.match(
      res.stderr,
      /^meridian: Invalid configuration: MIGRATIONS_RUN must be true or false \(also accepted: 1\/0, yes\/no, on\/off\), not "nope"/,
    );
    const cli = await runNode([CLI, 'migration:show'], {
      EMAIL_USE_TLS: 'maybe',
      DATABASE_URL: 'postgres://unused@127.0.0.1:1/none',
    });
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /EMAIL_USE_TLS must be true or false/);
  });
});

describe('MIGRATIONS_RUN=false with pending migrations (engine under test)', () => {
  it('warns at start, GET /health answers 503 naming them; once applied, 200', async () => {
    const db = await freshDatabaseEnv();
    try {
      const server = await startServer({ ...db.env, MIGRATIONS_RUN: 'false', LOG_LEVEL: 'info' });
      let body: {
        error_code: string;
        version: string;
        pending_migrations: string[];
        checks: { error: { migrations: { pending: string[] } } };
      };
      try {
        const warning = jsonLines(server.output()).find(
          (l) => l.level === 40 && l.msg.startsWith('MIGRATIONS_RUN=false and'),
        );
        assert.ok(warning, server.output());
        assert.match(warning.msg, /migration\(s\) are pending: Initial\d+/);
        assert.match(warning.msg, /npm run cli -- migration:run/);

        const res = await fetch(`${listeningUrl(server.output())}/health`);
        assert.equal(res.status, 503);
        body = (await res.json()) as typeof body;
      } finally {
        server.child.kill('SIGTERM');
        await waitExit(server.child);
      }
      assert.equal(body.error_code, 'SERVICE_UNAVAILABLE');
      assert.equal(body.version, VERSION);
      assert.ok(
        body.pending_migrations.some((m) => /^Initial\d+$/.test(m)),
        JSON.stringify(body),
      );
      assert.deepEqual(body.checks.error.migrations.pending, body.pending_migrations);

      const migrate = await runNode([CLI, 'migration:run'], db.env);
      assert.equal(migrate.code, 0, migrate.stderr);

      const again = await startServer({ ...db.env, MIGRATIONS_RUN: 'false', LOG_LEVEL: 'info' });
      try {
        assert.ok(!jsonLines(again.output()).some((l) => /pending/.test(l.msg)), again.output());
        const res = await fetch(`${listeningUrl(again.output())}/health`);
        assert.equal(res.status, 200);
        const ok = (await res.json()) as { info: { migrations: { status: string; pending: string[] } } };
        assert.deepEqual(ok.info.migrations, { status: 'up', pending: [] });
      } finally {
        again.child.kill('SIGTERM');
        await waitExit(again.child);
      }
    } finally {
      await db.drop();
    }
  });
});
