#!/usr/bin/env node
// `npm test` (after `npm run build`): the tests under node:test, on the embedded database, or on
// PostgreSQL when TEST_DATABASE_URL is set. Three tiers, the fastest first; each is skipped when
// one before it fails:
//
//   0. the specs: `*.spec.ts` beside the pure modules of apps/ and libs/ (the cursor codec, filters,
//      slug rules, …), compiled to dist/{apps,libs}/**/*.spec.js: no database, seconds;
//   1. dist/test/domain/: the domain's services over a real database, without HTTP (seconds);
//   2. dist/test/e2e/: the end-to-end tests over HTTP (minutes).
//
//   node scripts/test.js [node --test options] [dist/test/{domain,e2e}/NAME.test.js | dist/…/NAME.spec.js ...]
//   node scripts/test.js --specs            # tier 0 alone (or `node --test dist/…/NAME.spec.js`)
//
// Before the tests, it migrates one template database for the run (dist/test/support/database-template.js,
// in a process of its own); every test app then starts on a copy of it instead of running all the
// migrations again. The template's name is unique to this run, handed to the test processes in
// TEST_DATABASE_TEMPLATE, and dropped when the tests end (also on Ctrl-C or SIGTERM).
//
// Lanes: the files of a tier are dealt, longest first (test/support/test-weights.json: seconds per
// file in a measured run), into TEST_CONCURRENCY lanes (default 2) of about equal length, and each lane
// runs its files one after another in ONE process: every file still starts its own apps on its own
// databases and ports, but the ~2 CPU-seconds of loading Nest, TypeORM and PGlite's WebAssembly are
// paid once per lane, not once per file. TEST_ISOLATION=file runs a process per file instead (the
// node --test default; slower, for a file suspected of leaking state into the next one).
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DOMAIN = path.join(ROOT, 'dist', 'test', 'domain');
const E2E = path.join(ROOT, 'dist', 'test', 'e2e');
const WEIGHTS = path.join(ROOT, 'test', 'support', 'test-weights.json');
const TEMPLATE_SCRIPT = path.join(ROOT, 'dist', 'test', 'support', 'database-template.js');

function fail(message) {
  process.stderr.write(`test: ${message}\n`);
  process.exit(1);
}

if (!fs.existsSync(TEMPLATE_SCRIPT))
  fail(`${path.relative(ROOT, TEMPLATE_SCRIPT)} is missing: run \`npm run build\` first (\`npm test\` does).`);

const args = process.argv.slice(2);
const specsOnly = args.includes('--specs');
const options = args.filter((a) => a.startsWith('-') && a !== '--specs');
const listTests = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
/** The specs (tier 0): every `*.spec.js` under dist/apps and dist/libs. */
function listSpecs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listSpecs(path.join(dir, e.name)) : e.name.endsWith('.spec.js') ? [path.join(dir, e.name)] : [],
    )
    .sort();
}
let files = args.filter((a) => !a.startsWith('-')).map((f) => path.resolve(f));
let specs = files.filter((f) => f.endsWith('.spec.js'));
files = files.filter((f) => !f.endsWith('.spec.js'));
if (files.length === 0 && specs.length === 0) {
  specs = [...listSpecs(path.join(ROOT, 'dist', 'apps')), ...listSpecs(path.join(ROOT, 'dist', 'libs'))];
  files = specsOnly ? [] : [...listTests(DOMAIN), ...listTests(E2E)];
}
const inDomainTier = (f) => path.dirname(f) === DOMAIN;
const tiers = [files.filter(inDomainTier), files.filter((f) => !inDomainTier(f))].filter((t) => t.length > 0);
const concurrency = process.env.TEST_CONCURRENCY || '2';
if (!/^[1-9]\d*$/.test(concurrency)) fail(`TEST_CONCURRENCY must be a positive integer, not "${concurrency}"`);
const isolation = process.env.TEST_ISOLATION || 'lane';
if (!['lane', 'file'].includes(isolation)) fail(`TEST_ISOLATION must be lane or file, not "${isolation}"`);

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
  template = {
    engine: 'embedded',
    dir: path.join(scratch, 'template'),
    empty: path.join(scratch, 'empty'),
    copies: scratch,
  };
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

/**
 * V8's flags for the short processes of a run (the template's, the domain tier's lanes; the tests
 * give the server and CLI processes they start the same, test/support/processes.ts): WebAssembly
 * compiled by the baseline compiler only. Optimizing PGlite's hottest functions costs a process
 * about a CPU-second that a process of a few seconds never earns back; the end-to-end lanes, minutes
 * long, keep V8's default (the same CPU either way, measured). BENCHMARKS.md "Test suite".
 */
const SHORT_PROCESS_FLAGS = ['--liftoff-only'];

const templateCommand = (command) =>
  run(process.execPath, [...SHORT_PROCESS_FLAGS, TEMPLATE_SCRIPT, command, JSON.stringify(template)]);

/** Seconds per test file (its path under dist/test/) in a measured run; a file not listed counts as the median. */
function readWeights() {
  try {
    return JSON.parse(fs.readFileSync(WEIGHTS, 'utf8')).files ?? {};
  } catch {
    return {};
  }
}

/**
 * Deals `tierFiles` into at most `count` lanes: longest first, each to the lane with the least work
 * so far (so the lanes end together), and writes one entry file per lane that loads its files in
 * that order. Returns the entry files.
 */
function writeLanes(tierFiles, count, dir, tag) {
  const weights = readWeights();
  const known = Object.values(weights).sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weightOf = (f) => weights[path.relative(path.join(ROOT, 'dist', 'test'), f)] ?? median;
  const lanes = Array.from({ length: Math.min(count, tierFiles.length) }, () => ({ files: [], total: 0 }));
  const longestFirst = [...tierFiles].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b));
  for (const f of longestFirst) {
    const lane = lanes.reduce((least, l) => (l.total < least.total ? l : least));
    lane.files.push(f);
    lane.total += weightOf(f);
  }
  return lanes.map((lane, i) => {
    const entry = path.join(dir, `${tag}-lane-${i + 1}.test.js`);
    const lines = lane.files.map((f) => `require(${JSON.stringify(f)});`);
    fs.writeFileSync(
      entry,
      `'use strict';\n// scripts/test.js: lane ${i + 1} of ${tag}, about ${Math.round(lane.total)} s by test-weights.json\n${lines.join('\n')}\n`,
    );
    return entry;
  });
}

const lanesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-test-lanes-'));

async function main() {
  if (specs.length) {
    process.stdout.write(`test: specs tier, ${specs.length} file(s)\n`);
    // no database: node --test runs each file in a process of its own, two at a time
    const result = await run(process.execPath, [
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${concurrency}`,
      ...options,
      ...specs,
    ]);
    if (result.code !== 0 || result.signal || stopping) {
      if (tiers.length && !stopping) process.stderr.write('test: the specs failed; the next tiers are skipped\n');
      return result;
    }
  }
  if (tiers.length === 0) return { code: 0 };
  const made = await templateCommand('create');
  if (made.code !== 0 || stopping) return { code: made.code || 1, signal: stopping };
  let result = { code: 0 };
  for (const [i, tierFiles] of tiers.entries()) {
    const tag = inDomainTier(tierFiles[0]) ? 'domain' : 'e2e';
    const entries = isolation === 'file' ? tierFiles : writeLanes(tierFiles, Number(concurrency), lanesDir, tag);
    process.stdout.write(`test: ${tag} tier, ${tierFiles.length} file(s) in ${entries.length} process(es)\n`);
    result = await run(
      process.execPath,
      [
        // node --test hands its own V8 flags on to the test processes
        ...(tag === 'domain' ? SHORT_PROCESS_FLAGS : []),
        '--test',
        '--test-reporter=spec',
        `--test-concurrency=${concurrency}`,
        ...options,
        ...entries,
      ],
      {
        env: { ...process.env, TEST_DATABASE_TEMPLATE: JSON.stringify(template) },
      },
    );
    if (result.code !== 0 || result.signal || stopping) {
      if (i < tiers.length - 1 && !stopping)
        process.stderr.write(`test: the ${tag} tier failed; the next tier is skipped\n`);
      return result;
    }
  }
  return result;
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
    fs.rmSync(lanesDir, { recursive: true, force: true });
    const dropped =
      template.engine === 'embedded'
        ? (fs.rmSync(template.copies, { recursive: true, force: true }), { code: 0 })
        : await templateCommand('drop');
    if (dropped.code !== 0) process.stderr.write(`test: could not drop the template ${JSON.stringify(template)}\n`);
    if (result.signal || stopping) process.exit(128 + os.constants.signals[result.signal || stopping]);
    process.exit(result.code ?? 1);
  });
