// The entry points of the server, `dist/server/main.js`, and of the ops CLI, `dist/server/cli.js`
// (`npm run build` writes both from this file, with the bundle's file name and SHA-256 in place of the
// markers below): each runs its bundle beside it (`server.js`, `cli-bundle.js`) with a V8 code cache.
//
// Why: a start spends about a quarter of its CPU compiling the 10 MiB bundle, once for the whole file
// and again for each function the start runs (BENCHMARKS.md "Start-up", docs/decisions.md "A code
// cache for the bundle"); a CLI command that opens the embedded database about a third of its CPU
// before the cache (BENCHMARKS.md "Test suite"). The code cache holds that work: the first start
// after a build writes it (the server once it listens, the CLI when a command succeeds), later starts
// read it and skip the compiling. Node's own compile cache (22.1+) writes a file's cache as soon as
// it is compiled, before any of its functions have run, which for one bundle holds next to nothing;
// and Node 20 has none.
//
// Where: `<this directory>/.code-cache/`, or CODE_CACHE_DIR (read from the environment, not `.env`:
// this file runs before the bundle reads it); CODE_CACHE_DIR=off turns it off. One file per bundle,
// Node version and set of Node options (V8 refuses a cache made under other flags; a new build
// empties dist/server). A cache V8 refuses, or one that cannot be read or written, costs nothing but
// the compiling it would have saved. Only the installation's owner should be able to write the
// directory: the cache is code.
//
// The server reports the outcome in its "listening" line (`code_cache`: hit, miss, rejected, off)
// and calls `save` through the global symbol below once it listens; the CLI calls it, silently, when
// a command ends with exit code 0. With `--enable-source-maps` the bundle is loaded by Node's own
// loader, which alone maps stack traces, and the cache is off.
'use strict';

const { Buffer, isAscii } = require('node:buffer');
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const BUNDLE = path.join(__dirname, '__BUNDLE_FILE__');
const BUNDLE_SHA256 = '__BUNDLE_SHA256__';

function cacheFile() {
  const dir = process.env.CODE_CACHE_DIR || path.join(__dirname, '.code-cache');
  if (dir === 'off') return null;
  // Node maps stack traces only through its own loader (`--enable-source-maps`, a debugging session)
  if (process.sourceMapsEnabled) return null;
  const key = crypto
    .createHash('sha256')
    .update(
      [BUNDLE_SHA256, process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0'),
    )
    .digest('hex')
    .slice(0, 24);
  return path.join(dir, `${path.basename(BUNDLE, '.js')}-${key}.cache`);
}

function readCache(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined; // none yet
  }
}

/**
 * The bundle's text as V8 compiles it (wrapped as Node's loader wraps a module), kept outside V8's heap.
 * V8 holds a script's text for the life of the process (it compiles each function from it on its
 * first call): 11 MiB for the server's bundle, which as an ordinary string sat in the old generation,
 * from whose size after each full collection V8 sets how far the heap may grow before the next one
 * (about 1.5 times it with the image's heap limit), so it cost about 1.5 times its size under load.
 * Decoded from bytes as Latin-1, a string this long is made by Node as an external string, its
 * characters in memory of its own (counted in `external`), which V8 reads in place. The bundle is
 * ASCII (scripts/bundle.js escapes anything else), so Latin-1 reads it as UTF-8 would; a bundle
 * that is not is read as UTF-8 into the heap, as before. (BENCHMARKS.md "Memory over a 10-minute
 * mixed soak at 1M work items".)
 */
function bundleSource() {
  const bytes = fs.readFileSync(BUNDLE);
  if (!isAscii(bytes)) return Module.wrap(bytes.toString('utf8'));
  const [head, tail] = Module.wrap('\u0000').split('\u0000');
  const wrapped = Buffer.concat([Buffer.from(head, 'latin1'), bytes, Buffer.from(tail, 'latin1')]);
  const source = wrapped.toString('latin1');
  // the two copies of the bytes are given back now, not at the first collection (which an idle server
  // may not have for a long time)
  for (const b of [bytes, wrapped])
    if (b.byteOffset === 0 && b.buffer.byteLength === b.length && typeof b.buffer.transfer === 'function')
      b.buffer.transfer(0);
  return source;
}

/** Compiles the bundle with `cachedData` (a Buffer, or undefined: none yet), publishes the outcome, runs it. */
function runBundle(cachedData) {
  const script = new vm.Script(bundleSource(), { filename: BUNDLE, cachedData });
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = Module._nodeModulePaths(__dirname);
  require.cache[BUNDLE] = bundle;
  const state = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  publish(state, script);
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  bundle.loaded = true;
}

/**
 * What the server and the CLI read through `Symbol.for('meridian.codeCache')`: `state()` (hit: V8 took
 * the cache; rejected: it refused it, another V8 or other flags; miss: there was none; off) and
 * `save()`, which writes the cache when this start had none (or V8 refused it), with the functions
 * the start has compiled so far, at most once: hit, written, unwritable or off.
 */
function publish(initial, script) {
  let state = initial;
  const save = () => {
    if (state !== 'miss' && state !== 'rejected') return state;
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temporary, file);
      state = 'written';
    } catch {
      fs.rmSync(temporary, { force: true });
      state = 'unwritable';
    }
    return state;
  };
  Object.defineProperty(globalThis, Symbol.for('meridian.codeCache'), {
    value: Object.freeze({ save, state: () => state }),
  });
}

const file = cacheFile();
if (file) runBundle(readCache(file));
else {
  publish('off', null);
  require(BUNDLE);
}
