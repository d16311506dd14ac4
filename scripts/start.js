#!/usr/bin/env node
// `npm start`: compiles the TypeScript sources when dist/ is missing or older than them, then runs the
// server in this very process. The package.json script `exec`s this file, so npm's child is the
// server itself: a SIGTERM or SIGINT sent to `npm start` reaches the server (npm forwards it), which
// stops cleanly. In production, build once (`npm run build`) and run `npm run start:prod`, or
// `node dist/apps/server/src/main.js` (what the container image does).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MAIN = path.join(ROOT, 'dist', 'apps', 'server', 'src', 'main.js');
/** tsc (incremental) rewrites it on every build that changes anything */
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');
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

function isFresh() {
  if (!fs.existsSync(MAIN) || !fs.existsSync(BUILD_INFO)) return false;
  const built = fs.statSync(BUILD_INFO).mtimeMs;
  return SOURCES.every((s) => newestSource(path.join(ROOT, s)) <= built);
}

function build() {
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
    return Promise.resolve();
  }
  log(30, 'compiling the sources (npm run build)');
  return new Promise((resolve) => {
    // tsc's diagnostics are plain text: they go to stderr, keeping stdout JSON lines only
    const child = spawn(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')], {
      cwd: ROOT,
      stdio: ['ignore', 2, 2],
    });
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('exit', (code, signal) => {
      process.removeListener('SIGTERM', forward);
      process.removeListener('SIGINT', forward);
      if (signal) process.exit(1);
      if (code !== 0) {
        fs.rmSync(BUILD_INFO, { force: true }); // so that the next start compiles (and reports) again
        fail('the build failed (see the errors above); the server was not started.');
      }
      // tsc leaves it alone when no file's content changed (a checkout that only touched files)
      const now = new Date();
      fs.utimesSync(BUILD_INFO, now, now);
      resolve();
    });
  });
}

async function main() {
  if (!isFresh()) await build();
  require(MAIN);
}

main().catch((err) => fail((err && err.stack) || String(err)));
