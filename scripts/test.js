#!/usr/bin/env node
// `npm test` (after `npm run build`): the end-to-end tests under node:test, on the embedded database,
// or on PostgreSQL when TEST_DATABASE_URL is set.
//
//   node scripts/test.js [node --test options] [dist/test/e2e/NAME.test.js ...]
//
// Before the tests, it migrates one template database for the run (dist/test/support/database-template.js,
// in a process of its own); every test app then starts on a copy of it instead of running all the
// migrations again. The template's name is unique to this run, handed to the test processes in
// TEST_DATABASE_TEMPLATE, and dropped when the tests end (also on Ctrl-C or SIGTERM).
// Test files run TEST_CONCURRENCY at a time (default 2: every file has its own databases and ports).
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const E2E = path.join(ROOT, 'dist', 'test', 'e2e');
const TEMPLATE_SCRIPT = path.join(ROOT, 'dist', 'test', 'support', 'database-template.js');

function fail(message) {
  process.stderr.write(`test: ${message}\n`);
  process.exit(1);
}

if (!fs.existsSync(TEMPLATE_SCRIPT)) fail(`${path.relative(ROOT, TEMPLATE_SCRIPT)} is missing: run \`npm run build\` first (\`npm test\` does).`);

const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith('-'));
let files = args.filter((a) => !a.startsWith('-'));
if (files.length === 0) {
  files = fs
    .readdirSync(E2E)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(E2E, f));
}
const concurrency = process.env.TEST_CONCURRENCY || '2';
if (!/^[1-9]\d*$/.test(concurrency)) fail(`TEST_CONCURRENCY must be a positive integer, not "${concurrency}"`);

const suffix = `${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
/**
 * Where the embedded databases of this run live: in memory (/dev/shm) when it has room, which
 * spares every test app's copy the disk's write-back (a copy costs about a quarter of the CPU there);
 * the system's temporary directory otherwise. Removed at the end, with whatever a crashed test left.
 */
function scratchDirectory() {
  try {
    const shm = fs.statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize >= 4 * 2 ** 30) return fs.mkdtempSync('/dev/shm/meridian-test-');
  } catch {
    // no /dev/shm (not Linux) or not writable
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-test-'));
}

let template;
if (process.env.TEST_DATABASE_URL) template = { engine: 'postgres', name: `meridian_template_${suffix}` };
else {
  const scratch = scratchDirectory();
  template = { engine: 'embedded', dir: path.join(scratch, 'template'), copies: scratch };
}

let child = null;
let stopping = null;

function run(command, commandArgs, extra = {}) {
  return new Promise((resolve, reject) => {
    child = spawn(command, commandArgs, { cwd: ROOT, stdio: 'inherit', ...extra });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      child = null;
      resolve({ code, signal });
    });
  });
}

const templateCommand = (command) => run(process.execPath, [TEMPLATE_SCRIPT, command, JSON.stringify(template)]);

async function main() {
  const made = await templateCommand('create');
  if (made.code !== 0 || stopping) return { code: made.code || 1, signal: stopping };
  return run(process.execPath, ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...options, ...files], {
    env: { ...process.env, TEST_DATABASE_TEMPLATE: JSON.stringify(template) },
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = signal;
    child?.kill(signal); // a terminal's Ctrl-C reaches the child too; a SIGTERM to this process does not
  });
}

main()
  .catch((err) => {
    process.stderr.write(`test: ${err.stack || err}\n`);
    return { code: 1 };
  })
  .then(async (result) => {
    const dropped = template.engine === 'embedded' ? (fs.rmSync(template.copies, { recursive: true, force: true }), { code: 0 }) : await templateCommand('drop');
    if (dropped.code !== 0) process.stderr.write(`test: could not drop the template ${JSON.stringify(template)}\n`);
    if (result.signal || stopping) process.exit(128 + os.constants.signals[result.signal || stopping]);
    process.exit(result.code ?? 1);
  });
