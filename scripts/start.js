#!/usr/bin/env node
// `npm start`: builds (`npm run build`: tsc, then the server's bundle) when dist/ is missing or older
// than the sources, then runs the server's bundle (dist/server/main.js) in this very process. The package.json script `exec`s this file, so npm's child is the
// server itself: a SIGTERM or SIGINT sent to `npm start` reaches the server (npm forwards it), which
// stops cleanly. In production, build once (`npm run build`) and run `npm run start:prod`, or
// `node dist/server/main.js` (what the container image does).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** the server's bundle (scripts/bundle.js, the second step of the build) */
const MAIN = path.join(ROOT, 'dist', 'server', 'main.js');
/** tsc (incremental) rewrites it on every build that changes anything */
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');
const BUNDLE = path.join(ROOT, 'scripts', 'bundle.js');
/** what tsconfig.json compiles, and the files that change the compiled output (not node_modules) */
const SOURCES = ['apps', 'libs', 'test', 'bench', 'ormconfig.ts', 'tsconfig.json', 'package.json'];

function fail(message) {
  process.stderr.write(`meridian: ${message}\n`);
  process.exit(1);
}

/** A JSON line like the server's (pino's shape), so stdout stays JSON lines only. */
function log(level, msg) {
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
  if (!stat.isDirectory()) return /\.ts$|\.json$/.test(entry) ? stat.mtimeMs : 0;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestSource(path.join(entry, name)));
  return newest;
}

/** tsc's output is at least as new as the sources and the bundle at least as new as tsc's output. */
function isFresh() {
  if (!fs.existsSync(MAIN) || !fs.existsSync(BUILD_INFO)) return false;
  const built = fs.statSync(BUILD_INFO).mtimeMs;
  const bundler = fs.existsSync(BUNDLE) ? fs.statSync(BUNDLE).mtimeMs : 0;
  if (fs.statSync(MAIN).mtimeMs < Math.max(built, bundler)) return false;
  return SOURCES.every((s) => newestSource(path.join(ROOT, s)) <= built);
}

/** Runs `node <args>` in ROOT, its output on stderr (stdout stays JSON lines only); resolves its exit. */
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
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  } catch {
    if (!fs.existsSync(MAIN)) {
      fail(
        'dist/ is missing and TypeScript is not installed (production dependencies only): build with the ' +
          'development dependencies (`npm ci && npm run build`), then start with `npm run start:prod`.',
      );
    }
    log(
      40,
      'dist/ is older than the sources and TypeScript is not installed: starting the existing build (run `npm run build` to update it)',
    );
    return;
  }
  log(30, 'compiling the sources (npm run build)');
  // tsc's and esbuild's diagnostics are plain text: they go to stderr, keeping stdout JSON lines only
  if ((await run([tsc, '-p', path.join(ROOT, 'tsconfig.json')])) !== 0) {
    fs.rmSync(BUILD_INFO, { force: true }); // so that the next start compiles (and reports) again
    fail('the build failed (see the errors above); the server was not started.');
  }
  // tsc leaves it alone when no file's content changed (a checkout that only touched files)
  const now = new Date();
  fs.utimesSync(BUILD_INFO, now, now);
  // a failed bundle leaves no dist/server/main.js: the next start bundles (and reports) again
  if ((await run([BUNDLE])) !== 0)
    fail('bundling the server failed (see the errors above); the server was not started.');
}

async function main() {
  if (!isFresh()) await build();
  require(MAIN);
}

main().catch((err) => fail((err && err.stack) || String(err)));
