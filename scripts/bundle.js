#!/usr/bin/env node
// The second step of `npm run build`, after tsc: bundles the compiled server (dist/apps/server/src/
// main.js and what it imports, tsc's output with its decorator metadata) into one file,
// dist/server/server.js, with esbuild, and the ops CLI (dist/apps/cli/src/main.js) into
// dist/server/cli-bundle.js. A start then reads one file instead of resolving and compiling about
// 1,600 (BENCHMARKS.md "Start-up"; docs/decisions.md "The server runs as one bundled file").
// Their entry points, dist/server/main.js and dist/server/cli.js, are written from
// scripts/server-entry.js: each runs its bundle with a V8 code cache (docs/decisions.md "A code cache
// for the bundle").
// `npm run start:prod`, `npm start`, `npm run cli` and the container image run the bundles; the
// tests' in-process applications keep using tsc's output.
//
// `node scripts/bundle.js --from-sources` (what `npm start` runs when the sources changed) bundles
// the TypeScript sources directly instead, each file transpiled by swc with its decorator metadata
// and no type-check (docs/decisions.md "npm start transpiles without type-checking"): a fresh
// clone serves in seconds instead of waiting for tsc. The type-check stays in `npm run build`,
// `npm test`, lint and CI; both ways write the same files into dist/server.
//
// Beside server.js and cli-bundle.js, what both find next to their own code at run time:
// - embedded-worker-thread.js: the embedded database's worker thread (`new Worker(<dir>/…)`);
// - embedded-initdb-child.js: the process that runs PGlite's initdb for a new data directory;
// - migrations/*.js: the migrations, which the data source loads by a glob beside its own file.
// Not bundled (required from node_modules at run time): native addons and WebAssembly (argon2,
// PGlite), what is loaded only on first use anyway (S3, mail, Redis, metrics, OAuth providers,
// exports), and the optional packages Nest, TypeORM and pg try to require that are not installed.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
/** `--out DIR`: where the bundle goes (default dist/server; the tests bundle the sources into a directory of their own) */
const OUT_ARG = process.argv.indexOf('--out');
const OUT = OUT_ARG > 0 ? path.resolve(process.argv[OUT_ARG + 1]) : path.join(DIST, 'server');
const ENTRY_TEMPLATE = path.join(__dirname, 'server-entry.js');
/** --from-sources: bundle apps/ and libs/ (TypeScript, through swc) rather than tsc's output in dist/ */
const FROM_SOURCES = process.argv.includes('--from-sources');

/** Required lazily by Meridian (on first use, or only when configured), or not bundleable. */
const EXTERNAL = [
  'argon2', // native addon
  '@electric-sql/pglite', // WebAssembly and data files beside its modules; the embedded engine only
  '@aws-sdk/*', // S3 storage, when configured
  'nodemailer', // on the first mail
  'ioredis', // with REDIS_URL only
  'prom-client', // with metrics on
  'passport-github2', // OAuth providers, when configured
  'passport-google-oauth20',
  'passport-gitlab2',
  'exceljs', // exports
  '@node-saml/node-saml', // SAML sign-in, when a connection is configured (with its XML stack)
  'ldapts', // LDAP sign-in, when a connection is configured
  'archiver',
  'swagger-ui-dist', // served from its own directory (the OpenAPI routes resolve it)
];

/**
 * Bare imports that do not resolve here stay `require` calls: the optional packages Nest
 * (@nestjs/microservices, @nestjs/websockets, …), TypeORM (the other databases' drivers) and pg
 * (pg-native) try inside a try/catch. Run time then behaves as without the bundle.
 */
const optionalPackages = {
  name: 'optional-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.pluginData === 'optional-packages' || args.path.startsWith('node:')) return undefined;
      return build
        .resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'optional-packages',
        })
        .then((result) => (result.errors.length ? { path: args.path, external: true } : result));
    });
  },
};

/**
 * TypeORM's driver factory requires every database's driver when it loads (about 1.1 MB of code:
 * MySQL, SQL Server, Oracle, SAP, CockroachDB, Spanner, the SQLite family, MongoDB, the mobile
 * ones), and Meridian runs on PostgreSQL only (PGlite through the same driver): each of those is
 * bundled as a class that refuses to be made, so neither its code nor its module's objects take
 * memory in every process (docs/decisions.md "The server runs as one bundled file").
 */
const UNUSED_TYPEORM_DRIVERS =
  /^\.\/(aurora-mysql|better-sqlite3|capacitor|cockroachdb|cordova|expo|mongodb|mysql|nativescript|oracle|react-native|sap|spanner|sqljs|sqlserver)\/(\w+Driver)$/;
const postgresOnlyTypeorm = {
  name: 'postgres-only-typeorm',
  setup(build) {
    build.onResolve({ filter: UNUSED_TYPEORM_DRIVERS }, (args) =>
      /[\\/]typeorm[\\/]driver[\\/]DriverFactory\.js$/.test(args.importer)
        ? { path: args.path, namespace: 'unused-typeorm-driver' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'unused-typeorm-driver' }, (args) => {
      const name = UNUSED_TYPEORM_DRIVERS.exec(args.path)[2];
      return {
        contents:
          `exports.${name} = class ${name} { constructor() { throw new Error(` +
          `${JSON.stringify(`Meridian runs on PostgreSQL: TypeORM's ${name} is not in the bundle`)}); } };`,
        loader: 'js',
      };
    });
  },
};

/**
 * Nest's packages are ES modules that reach their optional and peer packages through
 * `createRequire(import.meta.url)` and check them with `import.meta.resolve`, both of which a
 * CommonJS bundle has no value for (esbuild leaves `import.meta` empty). Rewritten to plain
 * `require` / `require.resolve`, so that the bundle holds the one copy of each (the
 * `typeorm` that @nestjs/typeorm reads, the class-transformer storage that @nestjs/mapped-types
 * fills) instead of loading a second one from node_modules at run time. Any other `import.meta`
 * fails the build (logOverride below).
 */
const esModuleRequires = {
  name: 'es-module-requires',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
        .replace(/createRequire\(import\.meta\.url\)/g, 'require')
        .replace(/import\.meta\.resolve\(/g, 'require.resolve(')
        // (terminus's gRPC check, unused: its .proto file's directory where the bundle was built)
        .replace(/import\.meta\.dirname/g, JSON.stringify(path.dirname(args.path)));
      return { contents, loader: 'js' };
    });
  },
};

/**
 * pg picks its socket by asking whether it runs in Cloudflare Workers (`pg/lib/stream.js`,
 * `isCloudflareRuntime`): where there is no `navigator` (Node 20) it builds a fetch `Response` to
 * find out, and that loads Node's fetch implementation (undici) during the server's start, about
 * 40–100 ms that nothing else spends (BENCHMARKS.md "Round 6"). The bundle runs on Node.js only: the
 * check is `false` in it. The build fails if the check is not where it was, so that an upgrade of pg
 * is looked at again.
 */
const pgNodeStreams = {
  name: 'pg-node-streams',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const check = 'if (isCloudflareRuntime()) {';
      if (source.split(check).length !== 2) throw new Error(`${args.path}: pg's Cloudflare check has changed`);
      return { contents: source.replace(check, 'if (false) {'), loader: 'js' };
    });
  },
};

/**
 * swc's options for one source file: what tsconfig.json asks of tsc that changes the emitted code
 * (legacy decorators with their `design:*` metadata, which Nest's injection and TypeORM's columns
 * read; class fields defined as ES2022 does, tsc's default for its target; CommonJS modules).
 */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', strictMode: true },
  sourceMaps: 'inline',
  inlineSourcesContent: false,
  swcrc: false,
  configFile: false,
};

/**
 * --from-sources: `#common`, `#domain` and `#database` are the libraries' TypeScript index files, and
 * every `.ts` file of the project goes through swc (esbuild's own TypeScript loader does not emit
 * decorator metadata). Imports of `./x.js` that mean `./x.ts` are resolved by esbuild itself.
 */
const typeScriptSources = {
  name: 'typescript-sources',
  setup(build) {
    const swc = require('@swc/core');
    build.onResolve({ filter: /^#(common|domain|database)$/ }, (args) => ({
      path: path.join(ROOT, 'libs', args.path.slice(1), 'src', 'index.ts'),
    }));
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      const { code } = await swc.transform(source, { ...SWC_OPTIONS, filename: args.path });
      return { contents: code, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

function entryPoints() {
  const ext = FROM_SOURCES ? '.ts' : '.js';
  const base = FROM_SOURCES ? ROOT : DIST;
  const database = path.join(base, 'libs', 'database', 'src');
  const entries = {
    server: path.join(base, 'apps', 'server', 'src', `main${ext}`),
    'cli-bundle': path.join(base, 'apps', 'cli', 'src', `main${ext}`),
    'embedded-worker-thread': path.join(database, `embedded-worker-thread${ext}`),
    'embedded-initdb-child': path.join(database, `embedded-initdb-child${ext}`),
  };
  for (const file of fs.readdirSync(path.join(database, 'migrations'))) {
    if (file.endsWith(ext) && !file.endsWith('.d.ts'))
      entries[`migrations/${file.slice(0, -ext.length)}`] = path.join(database, 'migrations', file);
  }
  for (const [name, file] of Object.entries(entries)) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run tsc first (npm run build)`);
    entries[name] = file;
  }
  return entries;
}

/**
 * esbuild writes ASCII except in regular expression literals and comments (validator.js's
 * alphabets, a few `≥`): one such character and V8 holds the whole 10 MiB source as a two-byte
 * string, for the life of the process (about 10 MiB more resident). Escaped (`\\uXXXX` means the
 * same character in a regular expression, and a comment is only text), the source stays one byte per
 * character. The columns after an escape shift on those few lines of the source map.
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (/\\[\u0080-\uffff]/.test(text)) throw new Error(`${file}: a non-ASCII character after a backslash`);
  const escaped = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== text) fs.writeFileSync(file, escaped);
}

/** esbuild's `keepNames` helper, as it writes it at the top of a bundle. */
const NAME_HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';

/**
 * `keepNames` wraps every named function and class of the bundle in `__name(fn, "name")`, the
 * closures made per request included (routers' `next`, pg-pool's callbacks, Nest's `switchToHttp`,
 * cors's and helmet's middleware): each call redefined the function's `name` (`Object.defineProperty`,
 * a new hidden class), a few per cent of a single read's CPU (BENCHMARKS.md "Per-request costs").
 * The helper now leaves a function whose `name` is already the one asked alone (same property, same
 * value: only a renamed or anonymous function is written). Same line, so the source map still holds.
 */
function cheaperNameHelper(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes('__name(')) return;
  if (text.split(NAME_HELPER).length !== 2) throw new Error(`${file}: esbuild's __name helper is not there once`);
  fs.writeFileSync(
    file,
    text.replace(
      NAME_HELPER,
      'var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });',
    ),
  );
}

/**
 * Takes esbuild's `__name(fn, "x")` off the anonymous functions and arrows whose name the language
 * already gives them: `const x = …`, `x = …`, `{ x: … }` and a class field `x = …` name an anonymous
 * function `x` (ECMAScript's NamedEvaluation), and that is what `__name` would set. `__name` had
 * them start without a name and then redefined it (`Object.defineProperty` on a fresh closure, which
 * V8 answers by turning the closure into a dictionary object): about ten closures per GET one
 * (the middleware chain's `next`, Nest's `switchToHttp` accessors, pg-pool's callbacks, cors's
 * `originCallback`, pg-types' `parse`; BENCHMARKS.md "GET one: closures named by the language").
 * Left as they are: a function esbuild renamed (`x2 = __name(…, "x")`), a named function expression,
 * classes, and any other place. The call's text becomes spaces (its line breaks kept), so every
 * line and column stays where it was and the source map still holds.
 */
function namesByTheLanguage(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes('__name(')) return;
  const acorn = require('acorn');
  const walk = require('acorn-walk');
  const ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  /** `fn` when `node` is `__name(fn, "<name>")` of an anonymous function or arrow, else undefined. */
  const namedAs = (node, name) => {
    if (node?.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== '__name') return;
    const [fn, value] = node.arguments;
    if (node.arguments.length !== 2 || value.type !== 'Literal' || value.value !== name) return;
    if (fn.type === 'ArrowFunctionExpression' || (fn.type === 'FunctionExpression' && !fn.id)) return fn;
  };
  const keyName = (key) =>
    key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : undefined;
  const spans = [];
  walk.full(ast, (node) => {
    let value, name;
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier') [value, name] = [node.init, node.id.name];
    else if (node.type === 'AssignmentExpression' && node.operator === '=' && node.left.type === 'Identifier')
      [value, name] = [node.right, node.left.name];
    else if (node.type === 'Property' && node.kind === 'init' && !node.computed && !node.method && !node.shorthand)
      // `__proto__: …` sets the prototype and names nothing
      [value, name] = [node.value, keyName(node.key) === '__proto__' ? undefined : keyName(node.key)];
    else if (node.type === 'PropertyDefinition' && !node.computed) [value, name] = [node.value, keyName(node.key)];
    const fn = name === undefined ? undefined : namedAs(value, name);
    if (fn) spans.push([value.start, fn.start], [fn.end, value.end]);
  });
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) throw new Error(`${file}: overlapping __name calls at ${start}`);
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\n]/g, ' ');
    at = end;
  }
  out += text.slice(at);
  if (out.length !== text.length) throw new Error(`${file}: __name removal changed the text's length`);
  fs.writeFileSync(file, out);
}

/**
 * An entry point (`entry`: main.js, cli.js) in dist/server: scripts/server-entry.js with the name
 * and the SHA-256 of the bundle it runs (`bundle`: server.js, cli-bundle.js; its code cache's key).
 */
function writeEntry(entry, bundle) {
  const sha256 = require('node:crypto')
    .createHash('sha256')
    .update(fs.readFileSync(path.join(OUT, bundle)))
    .digest('hex');
  const template = fs.readFileSync(ENTRY_TEMPLATE, 'utf8');
  for (const marker of ["'__BUNDLE_FILE__'", "'__BUNDLE_SHA256__'"])
    if (template.split(marker).length !== 2)
      throw new Error(`${ENTRY_TEMPLATE}: the marker ${marker} is not there once`);
  const text = template.replace("'__BUNDLE_FILE__'", `'${bundle}'`).replace("'__BUNDLE_SHA256__'", `'${sha256}'`);
  fs.writeFileSync(
    path.join(OUT, entry),
    `// Written by scripts/bundle.js from scripts/server-entry.js: edit that file, not this one.\n${text}`,
  );
}

async function main() {
  let esbuild;
  try {
    esbuild = require('esbuild');
  } catch {
    throw new Error('esbuild is not installed (a development dependency): run `npm ci`, then `npm run build`');
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entryPoints(),
    outdir: OUT,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // `import()` of what stays in node_modules (PGlite) becomes `require`: the entry point compiles
    // the bundle with node:vm for its code cache, and a dynamic import there needs an experimental
    // flag on Node 20 (every such package has a CommonJS build; Node 20.19+ and 22.12+ require ES ones)
    supported: { 'dynamic-import': false },
    // Nest's tokens, TypeORM's entity and migration names and the error catalog read class names
    keepNames: true,
    minify: false,
    // stack traces name the compiled files (dist/apps/…, dist/libs/…) and their lines
    sourcemap: 'linked',
    sourcesContent: false,
    external: EXTERNAL,
    // tslib's `import` entry for Node is an ES wrapper around its CommonJS file that esbuild cannot
    // see the exports of: its ES build for every importer
    alias: { tslib: 'tslib/tslib.es6.mjs' },
    plugins: [
      ...(FROM_SOURCES ? [typeScriptSources] : []),
      postgresOnlyTypeorm,
      optionalPackages,
      esModuleRequires,
      pgNodeStreams,
    ],
    // the package.json `imports` (#common, #domain, #database) point at tsc's output
    conditions: ['default'],
    logLevel: 'warning',
    // dynamic requires of a computed path (TypeORM's glob loading, Nest's loadPackage) stay requires
    // and `require.resolve` stays Node's (the OpenAPI routes find swagger-ui-dist's directory by it)
    logOverride: {
      'unsupported-require-call': 'silent',
      'unsupported-dynamic-import': 'silent',
      'require-resolve-not-external': 'silent',
      'empty-import-meta': 'error',
    },
    metafile: true,
  });
  for (const file of Object.keys(result.metafile.outputs))
    if (file.endsWith('.js')) {
      asciiOnly(path.join(ROOT, file));
      cheaperNameHelper(path.join(ROOT, file));
      namesByTheLanguage(path.join(ROOT, file));
    }
  writeEntry('main.js', 'server.js');
  writeEntry('cli.js', 'cli-bundle.js');
  if (process.env.BUNDLE_ANALYZE) process.stdout.write(await esbuild.analyzeMetafile(result.metafile));
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  const inputs = Object.keys(result.metafile.inputs).length;
  process.stdout.write(
    `bundle: ${path.relative(ROOT, OUT)}/main.js, server.js, cli.js, cli-bundle.js and ${Object.keys(result.metafile.outputs).length - 2} more files ` +
      `(${(bytes / 1048576).toFixed(1)} MiB with source maps) from ${inputs} modules\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bundle: ${(err && err.message) || err}\n`);
  process.exit(1);
});
