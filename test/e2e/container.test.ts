import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '#common';
import { ROOT } from '../support/processes';

/**
 * No container engine runs here, so this checks that the Dockerfile, compose.yaml, .env.example,
 * package.json and the README agree with each other: the start command, the port, the variables.
 */

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const dockerfile = read('Dockerfile');
const compose = parse(read('compose.yaml')) as {
  services: Record<
    string,
    {
      build?: string;
      image?: string;
      command?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      volumes?: string[];
      depends_on?: Record<string, { condition: string }>;
      healthcheck?: { test: string[] };
    }
  >;
};
const pkg = JSON.parse(read('package.json')) as {
  version: string;
  engines: { node: string };
  scripts: Record<string, string>;
};
const readme = read('README.md');
/** `NAME=` lines of .env.example */
const envExampleKeys = read('.env.example')
  .split('\n')
  .filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))
  .map((l) => l.split('=')[0]);

/** Dockerfile instructions with continuation lines joined; comments dropped. */
const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((l) => l.trim() && !l.trim().startsWith('#'));
const stages = instructions.reduce<string[][]>(
  (acc, l) =>
    l.startsWith('FROM ') ? [...acc, [l]] : acc.length ? [...acc.slice(0, -1), [...acc[acc.length - 1], l]] : acc,
  [],
);
const runtime = stages[stages.length - 1];
const dockerCmd = JSON.parse(runtime.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];

/** compose's `${VAR:-default}` and `${VAR:?message}`, resolved as with an empty environment plus `given`. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) => {
    if (given[name] !== undefined) return given[name];
    if (op === '-') return arg;
    throw new Error(`compose needs ${name}: ${arg}`);
  });
}

describe('container image and compose file', () => {
  it('the Dockerfile is multi-stage, installs production dependencies only, runs as non-root, with a health check', () => {
    assert.ok(stages.length >= 2, 'multi-stage');
    assert.match(stages[0][0], /^FROM node:\$\{NODE_VERSION\}-\S+ AS build$/);
    assert.ok(
      stages[0].some((l) => /^RUN npm ci\b/.test(l) && !l.includes('--omit=dev')),
      'build stage has the dev dependencies',
    );
    assert.ok(stages[0].some((l) => l === 'RUN npm run build'));
    assert.ok(
      runtime.some((l) => /^RUN npm ci --omit=dev\b/.test(l)),
      'runtime stage: production dependencies only',
    );
    assert.ok(runtime.some((l) => l === 'COPY --from=build /app/dist ./dist'));
    assert.ok(!runtime.some((l) => /^COPY (apps|libs|test)\b/.test(l)), 'no sources in the runtime image');
    const user = runtime.filter((l) => l.startsWith('USER ')).pop();
    assert.ok(user && user !== 'USER root' && user !== 'USER 0', 'runs as a non-root user');
    const health = runtime.find((l) => l.startsWith('HEALTHCHECK '));
    assert.ok(health && health.includes('/health') && health.includes('process.env.PORT'), health);
    assert.ok(runtime.includes('EXPOSE 8000'));
    assert.ok(runtime.some((l) => l.startsWith('VOLUME ') && l.includes('/data')));
    assert.match(
      runtime.find((l) => l.startsWith('ENV '))!,
      /DATA_DIR=\/data/,
    );
  });

  it('the image’s Node.js satisfies package.json engines', () => {
    const major = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(dockerfile)?.[1]);
    const minimum = Number(/^>=(\d+)\./.exec(pkg.engines.node)?.[1]);
    assert.ok(major >= minimum, `node:${major} vs engines ${pkg.engines.node}`);
  });

  it('the image, compose and `npm run start:prod` run the same command, the one the README gives', () => {
    // the server's bundle, which `npm run build` writes (scripts/bundle.js, copied into the build stage)
    assert.deepEqual(dockerCmd, ['node', 'dist/server/main.js']);
    assert.match(pkg.scripts.build, /&& node scripts\/bundle\.js$/);
    assert.ok(
      stages[0].some((l) => l === 'COPY scripts/bundle.js ./scripts/'),
      'the build stage has the bundler',
    );
    assert.deepEqual(compose.services.meridian.command, dockerCmd);
    // the scripts put the image's NODE_OPTIONS first, so that the caller's NODE_OPTIONS can override them
    const nodeOptions = /NODE_OPTIONS="([^"]*)"/.exec(runtime.find((l) => l.startsWith('ENV '))!)?.[1];
    assert.match(
      nodeOptions ?? '',
      /^--max-old-space-size=\d+ --max-semi-space-size=\d+$/,
      'the image sets the heap limit and the young generation size',
    );
    // and the same malloc arena count, which the caller's MALLOC_ARENA_MAX overrides
    const arenas = /MALLOC_ARENA_MAX=(\d+)/.exec(runtime.find((l) => l.startsWith('ENV '))!)?.[1];
    assert.ok(arenas, 'the image sets MALLOC_ARENA_MAX');
    const env = `NODE_OPTIONS="${nodeOptions} $NODE_OPTIONS" MALLOC_ARENA_MAX=\${MALLOC_ARENA_MAX:-${arenas}}`;
    assert.equal(pkg.scripts['start:prod'], `${env} exec ${dockerCmd.join(' ')}`);
    assert.equal(
      pkg.scripts.start,
      `${env} exec node scripts/start.js`,
      'npm start execs node, so signals reach the server',
    );
    assert.ok(readme.includes('npm run build') && readme.includes('npm run start:prod'), 'README: the production path');
    assert.ok(readme.includes('docker compose up'), 'README: how to use compose.yaml');
    assert.ok(readme.includes('docker build'), 'README: how to build the image');
  });

  it('compose runs meridian on PostgreSQL and Redis, healthy first, with documented variables', () => {
    const { meridian, postgres, redis } = compose.services;
    assert.ok(meridian && postgres && redis);
    assert.equal(meridian.build, '.');
    assert.deepEqual(meridian.depends_on, {
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    assert.ok(postgres.healthcheck?.test.join(' ').includes('pg_isready'));
    assert.ok(redis.healthcheck?.test.join(' ').includes('ping'));
    assert.ok(meridian.volumes?.some((v) => v.endsWith(':/data')));

    const env = Object.fromEntries(
      Object.entries(meridian.environment!).map(([k, v]) => [
        k,
        interpolate(String(v), { SECRET_KEY: 'f'.repeat(64) }),
      ]),
    );
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'SECRET_KEY']) assert.ok(name in env, name);
    for (const name of Object.keys(env))
      assert.ok(envExampleKeys.includes(name), `${name} is documented in .env.example`);
    assert.throws(
      () => interpolate(meridian.environment!.SECRET_KEY, {}),
      /SECRET_KEY/,
      'compose refuses to start without SECRET_KEY',
    );

    const db = new URL(env.DATABASE_URL);
    assert.equal(db.hostname, 'postgres');
    const pgEnv = Object.fromEntries(
      Object.entries(postgres.environment!).map(([k, v]) => [k, interpolate(String(v), {})]),
    );
    assert.equal(db.username, pgEnv.POSTGRES_USER);
    assert.equal(decodeURIComponent(db.password), pgEnv.POSTGRES_PASSWORD);
    assert.equal(db.pathname, `/${pgEnv.POSTGRES_DB}`);
    assert.equal(new URL(env.REDIS_URL).hostname, 'redis');

    // the container port is the one the image exposes and the server listens on
    assert.ok(meridian.ports?.some((p) => p.endsWith(`:${env.PORT ?? 8000}`)));
    assert.equal(env.PORT ?? '8000', '8000');
    // the server accepts this environment (production, with a real key)
    const config = loadConfig({ ...env, DATA_DIR: '/data' });
    assert.equal(config.env, 'production');
    assert.equal(config.http.port, 8000);
    assert.equal(config.secret.problem, null);
  });

  it('.env.example lists each variable once, MERIDIAN_ADMIN_PASSWORD included', () => {
    const seen = new Set<string>();
    const duplicates = envExampleKeys.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
    assert.deepEqual(duplicates, []);
    assert.ok(envExampleKeys.includes('MERIDIAN_ADMIN_PASSWORD'));
  });

  it('.dockerignore keeps local state and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'data', '.env', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});
