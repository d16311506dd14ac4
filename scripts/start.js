#!/usr/bin/env node
// `npm start`: bundles the server from the TypeScript sources (`node scripts/bundle.js
// --from-sources`: swc transpiles each file with its decorator metadata, esbuild bundles, no
// type-check: a few seconds instead of tsc's minutes) when dist/server is missing or older than the
// sources or the build scripts, then runs the server's bundle (dist/server/main.js) in this very
// process. The type-check stays in `npm run build`, `npm test`, lint and CI (docs/decisions.md
// "npm start transpiles without type-checking"). The package.json script `exec`s this file, so npm's
// child is the server itself: a SIGTERM or SIGINT sent to `npm start` reaches the server (npm
// forwards it), which stops cleanly. In production, build once (`npm run build`) and run `npm run
// start:prod`, or `node dist/server/main.js` (what the container image does).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** the server's bundle's entry point (scripts/bundle.js writes it last) */
const MAIN = path.join(ROOT, 'dist', 'server', 'main.js');
const BUNDLE = path.join(ROOT, 'scripts', 'bundle.js');
/**
 * What the bundle is made of: the server's and the libraries' sources, and the scripts that write
 * the bundle and its entry point (not test/ or bench/, which the bundle does not hold).
 */
const SOURCES = [
  'apps',
  'libs',
  'tsconfig.json',
  'package.json',
  path.join('scripts', 'bundle.js'),
  path.join('scripts', 'server-entry.js'),
];

function fail(message) {
  process.stderr.write(`meridian: ${message}\n`);
  process.exit(1);
}

/** As the server logs (LOG_FORMAT, docs/operations.md "Logs"): a readable line on a terminal, else pino's JSON shape. */
function log(level, msg) {
  const format =
    process.env.LOG_FORMAT || (process.stdout.isTTY && process.env.NODE_ENV !== 'production' ? 'pretty' : 'json');
  if (format === 'pretty') {
    const t = new Date();
    const clock = [t.getHours(), t.getMinutes(), t.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    const ms = String(t.getMilliseconds()).padStart(3, '0');
    process.stdout.write(`${clock}.${ms} ${level >= 40 ? 'WARN ' : 'INFO '} ${msg}\n`);
    return;
  }
  const line = {
    level,
    time: Date.now(),
    pid: process.pid,
    hostname: require('node:os').hostname(),
    context: 'Meridian',
    msg,
  };
  process.stdout.write(JSON.stringify(line) + '\n');
}

/** Newest modification time (ms) of the TypeScript sources and build inputs; 0 when there are none. */
function newestSource(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.ts$|\.json$|\.js$/.test(entry) ? stat.mtimeMs : 0;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestSource(path.join(entry, name)));
  return newest;
}

/** The bundle's entry point is at least as new as every source and build script. */
function isFresh() {
  if (!fs.existsSync(MAIN)) return false;
  const built = fs.statSync(MAIN).mtimeMs;
  return SOURCES.every((s) => newestSource(path.join(ROOT, s)) <= built);
}

/** Runs `node <args>` in ROOT, its output on stderr (stdout stays log lines only); resolves its exit. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('exit', (code, signal) => {
      process.removeListener('SIGTERM', forward);
      process.removeListener('SIGINT', forward);
      if (signal) process.exit(1);
      resolve(code);
    });
  });
}

async function build() {
  const installed = ['esbuild', '@swc/core'].every((name) => {
    try {
      require.resolve(name, { paths: [ROOT] });
      return true;
    } catch {
      return false;
    }
  });
  if (!installed) {
    if (!fs.existsSync(MAIN)) {
      fail(
        'dist/ is missing and the build tools are not installed (production dependencies only): build with the ' +
          'development dependencies (`npm ci && npm run build`), then start with `npm run start:prod`.',
      );
    }
    log(
      40,
      'dist/ is older than the sources and the build tools are not installed: starting the existing build (run `npm run build` to update it)',
    );
    return;
  }
  const started = Date.now();
  log(30, 'bundling the server from the sources (no type-check: `npm run build` or `npm test` does that)');
  // esbuild's and swc's diagnostics are plain text: they go to stderr, keeping stdout log lines only.
  // A failed bundle leaves no dist/server/main.js: the next start bundles (and reports) again
  if ((await run([BUNDLE, '--from-sources'])) !== 0)
    fail('bundling the server failed (see the errors above); the server was not started.');
  log(30, `bundled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  if (!isFresh()) await build();
  require(MAIN);
}

main().catch((err) => fail((err && err.stack) || String(err)));
