import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '#common';
import {
  BuiltStage,
  dockerignore,
  parseDockerfile,
  parseEnv,
  replayDockerfile,
  RunningImage,
  startImage,
} from '../support/dockerfile';
import { ROOT, waitExit } from '../support/processes';
import { ENGINE } from '../support/test-app';

/**
 * The container image and compose.yaml, by what they do. No container engine runs on the CI
 * machine, so the image is built by replaying the Dockerfile (test/support/dockerfile.ts: each
 * stage in a scratch directory, with exactly the files its COPY lines name, its RUN commands carried
 * out, `npm run build` for real), then started as `docker run` starts it, on the embedded database
 * in its /data volume. About 70 CPU-seconds, most of them the build's tsc and bundle, so it runs on
 * the embedded pass of `npm test` only: nothing in the build or the image depends on the engine the
 * tests run on (the bundle on PostgreSQL: processes.test.ts). `npm ci` installs the lock's
 * tree from the repository's node_modules when that is an install of the same lock
 * (`installLockedTree`); CONTAINER_NPM_CI=npm runs npm instead (about a minute more per stage).
 */

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(running: RunningImage, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!running.output().includes(text)) {
    if (running.child.exitCode !== null || running.child.signalCode !== null)
      throw new Error(
        `the container exited (${running.child.exitCode ?? running.child.signalCode}):\n${running.output()}`,
      );
    if (Date.now() > deadline) throw new Error(`no "${text}" after ${timeoutMs} ms:\n${running.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const imageSkip = ENGINE === 'postgres' && 'the image is built and started on the embedded pass of `npm test`';

describe('the container image (the Dockerfile replayed without a container engine)', { skip: imageSkip }, () => {
  let scratch = '';
  let image: BuiltStage | undefined;
  const built = () => {
    assert.ok(image, 'the image did not build');
    return image;
  };
  before(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-image-'))));
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it(
    'builds: each stage finds the files it copies, and `npm run build` succeeds on them',
    { timeout: 600_000 },
    async () => {
      const npmCi = process.env.CONTAINER_NPM_CI === 'npm' ? 'npm' : 'linked';
      image = await replayDockerfile({ context: ROOT, dockerfile: read('Dockerfile'), scratch, npmCi });
      assert.ok(image.cmd, 'the image has a CMD');
    },
  );

  it('holds the bundled server and the production dependencies only: no sources, no development packages', () => {
    const img = built();
    const app = (p: string) => path.join(img.root, path.posix.resolve(img.workdir, p));
    // the CMD's script and the bundle it runs
    const script = img.cmd!.find((a) => a.endsWith('.js'));
    assert.ok(script && fs.existsSync(app(script)), `${script} is in the image`);
    for (const dir of ['apps', 'libs', 'test', 'bench', 'scripts'])
      assert.ok(!fs.existsSync(app(dir)), `${dir}/ is not in the image`);
    const pkg = JSON.parse(read('package.json')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    for (const name of Object.keys(pkg.dependencies))
      assert.ok(fs.existsSync(app(`node_modules/${name}/package.json`)), `${name} is installed`);
    const devOnly = Object.keys(pkg.devDependencies).filter((name) => lock.packages[`node_modules/${name}`]?.dev);
    assert.ok(devOnly.includes('esbuild') && devOnly.includes('eslint'), devOnly.join(', '));
    for (const name of devOnly) assert.ok(!fs.existsSync(app(`node_modules/${name}`)), `${name} is not installed`);
  });

  it(
    'starts as `docker run` does (its CMD, ENV and USER, on an empty /data volume), answers GET /health, passes its HEALTHCHECK and stops on SIGTERM',
    { timeout: 300_000 },
    async (t) => {
      const img = built();
      const port = await freePort();
      // `docker run -e SECRET_KEY=… -p …:8000 -v meridian-data:/data meridian` (README, Containers)
      const runEnv = { PORT: String(port), SECRET_KEY: randomBytes(32).toString('hex') };
      const server = startImage(img, runEnv);
      t.after(() => server.child.kill('SIGKILL'));
      if (server.uid === null) t.diagnostic('not root: the container runs as this user, not as `node`');
      if (process.versions.node.split('.')[0] !== /^node:(\d+)/.exec(img.image.replace(/^.*\//, ''))?.[1])
        t.diagnostic(`replayed on Node ${process.version}; the image's is ${img.image}`);

      await waitFor(server, 'listening on', 240_000);
      // the image's NODE_OPTIONS reach V8: the heap limit `npm start` runs with too (ops-lifecycle.test.ts),
      // plus the young generation
      const starting = server
        .output()
        .split('\n')
        .find((l) => l.includes('"heap_limit_mib"'));
      const heap = (JSON.parse(starting ?? '{}') as { heap_limit_mib?: number }).heap_limit_mib ?? 0;
      assert.ok(heap >= 768 && heap < 868, `heap limit ${heap} MiB:\n${server.output()}`);
      // HOST from the image's ENV: the server listens on every interface, so a published port reaches it
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      assert.equal(res.status, 200, await res.text());

      const check = startImage(img, runEnv, img.healthcheck);
      const { code } = await waitExit(check.child);
      assert.equal(code, 0, `HEALTHCHECK: ${check.output()}`);

      // what a first start writes, as the image's user: the database in the volume, the code cache
      // beside the bundle
      assert.ok(fs.existsSync(path.join(server.env.DATA_DIR, 'pg', 'PG_VERSION')), 'the database is in /data');
      server.child.kill('SIGTERM');
      const stopped = await Promise.race([
        waitExit(server.child),
        new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
      ]);
      assert.deepEqual(stopped, { code: 0, signal: null }, server.output());
      const cache = path.join(img.root, img.workdir, 'dist/server/.code-cache');
      assert.ok(fs.readdirSync(cache).length > 0, `the code cache was written:\n${server.output()}`);
    },
  );
});

describe('compose.yaml', () => {
  interface Service {
    environment?: Record<string, string>;
    ports?: string[];
  }
  const compose = parse(read('compose.yaml')) as { services: Record<string, Service> };

  /** compose's `${VAR:-default}` and `${VAR:?message}`, as with an empty environment plus `given`. */
  function interpolate(value: string, given: Record<string, string>): string {
    return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) => {
      if (given[name] !== undefined) return given[name];
      if (op === '-') return arg;
      throw new Error(`compose needs ${name}: ${arg}`);
    });
  }
  const environment = (service: Service, given: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), given)]));

  it('the server accepts the environment compose gives it, with the image’s ENV under it', () => {
    const { meridian } = compose.services;
    assert.throws(() => environment(meridian), /SECRET_KEY/, 'compose refuses to start without SECRET_KEY');
    const image = parseDockerfile(read('Dockerfile')).at(-1)!;
    const imageEnv = image.instructions
      .filter((i) => i.keyword === 'ENV')
      .reduce((env, i) => ({ ...env, ...parseEnv(i.args, env) }), {});
    const env = { ...imageEnv, ...environment(meridian, { SECRET_KEY: 'f'.repeat(64) }) };
    const config = loadConfig(env);
    assert.equal(config.env, 'production');
    assert.equal(config.secret.problem, null);
    // the port compose publishes is the one the server listens on
    assert.ok(
      meridian.ports?.some((p) => interpolate(p, {}).split(':').at(-1) === String(config.http.port)),
      `${meridian.ports?.join(', ')} vs ${config.http.port}`,
    );
  });

  it('the server’s DATABASE_URL and REDIS_URL reach the postgres and redis services with their credentials', () => {
    const { meridian, postgres, redis } = compose.services;
    assert.ok(redis);
    const env = environment(meridian, { SECRET_KEY: 'f'.repeat(64) });
    const db = new URL(env.DATABASE_URL);
    const pg = environment(postgres);
    assert.equal(db.hostname, 'postgres');
    assert.equal(decodeURIComponent(db.username), pg.POSTGRES_USER);
    assert.equal(decodeURIComponent(db.password), pg.POSTGRES_PASSWORD);
    assert.equal(db.pathname, `/${pg.POSTGRES_DB}`);
    // and with a POSTGRES_PASSWORD given (compose.yaml: URL-safe characters only)
    const given = { SECRET_KEY: 'f'.repeat(64), POSTGRES_PASSWORD: randomBytes(16).toString('hex') };
    assert.equal(
      decodeURIComponent(new URL(environment(meridian, given).DATABASE_URL).password),
      environment(postgres, given).POSTGRES_PASSWORD,
    );
    assert.equal(new URL(env.REDIS_URL).hostname, 'redis');
  });
});

describe('.dockerignore', () => {
  const excluded = dockerignore(read('.dockerignore'));

  it('keeps local state and secrets out of the build context', () => {
    for (const file of [
      '.env',
      '.env.production',
      'data/pg/PG_VERSION',
      'node_modules/pg/package.json',
      'dist/server/main.js',
      '.git/config',
    ])
      assert.ok(excluded(file), file);
  });

  it('matches as Docker does: from the context’s root, `*` within one segment, `**` across, `!` re-includes', () => {
    const rules = dockerignore('*.md\ndocs\n**/*.log\n!keep.log\n/tmp/*\n');
    assert.ok(rules('README.md'));
    assert.ok(!rules('apps/README.md'));
    assert.ok(rules('docs/a/b.txt'));
    assert.ok(rules('a/b/c.log') && rules('c.log'));
    assert.ok(!rules('keep.log'));
    assert.ok(rules('tmp/x') && !rules('tmp'));
  });
});
