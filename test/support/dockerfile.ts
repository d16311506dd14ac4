import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The Dockerfile's build replayed without a container engine (none runs on the CI machine: no Docker
 * daemon, and podman or buildah cannot pull the `node` base image there), for
 * `test/e2e/container.test.ts`. Each stage gets a scratch directory that stands for its root file
 * system, always at the same path while the stage runs (as `/` in the image), and its instructions
 * are carried out on it:
 *
 * - `FROM node:<tag>`: an empty root with this process's `node` at `/usr/local/bin/node` (a hard
 *   link), the Node.js the image gets when the test runs on the tag's version (CI does: .ci/run);
 * - `WORKDIR`, `ENV`, `ARG`, `USER`, `EXPOSE`, `VOLUME`, `HEALTHCHECK`, `CMD`: as Docker reads them;
 * - `COPY <src>… <dest>`: exactly the named files of the build context (the repository less what
 *   `.dockerignore` excludes, matched as Docker matches it) or, with `--from=<stage>`, of that
 *   stage's root; a source that is missing or excluded fails the build, as in Docker;
 * - `RUN`: the commands joined by `&&`, one by one, in the stage's working directory:
 *   `npm run <script>` runs for real (the build's tsc and bundle read the copied files only, so a
 *   file the build needs and the stage lacks fails it); `npm ci [--omit=dev]` installs the lock's
 *   tree (`installLockedTree`); `mkdir` and `chown` act on the stage's root (`chown` records the
 *   owner that `startImage` gives the path); `npm cache clean` leaves nothing in the image to
 *   replay. Any other command or shell syntax fails the replay: it cannot vouch for what it does
 *   not carry out.
 *
 * Not replayed: the base image's own files other than `node` (the server needs none), and layers.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface ParsedStage {
  /** the image (`FROM`, with the global `ARG`s substituted) */
  image: string;
  name: string | null;
  instructions: Instruction[];
}

/**
 * A Dockerfile's instructions by stage: continuation lines (a trailing `\`) joined, comments and
 * blank lines dropped (parser directives are comments), `ARG`s before the first `FROM` applied to
 * the `FROM` lines.
 */
export function parseDockerfile(text: string): ParsedStage[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (/^\s*#/.test(line) || (pending === '' && line.trim() === '')) continue;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, '') + ' ';
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    if (whole === '') continue;
    const [, keyword, args = ''] = /^(\S+)\s*([\s\S]*)$/.exec(whole)!;
    instructions.push({ keyword: keyword.toUpperCase(), args: args.trim() });
  }
  if (pending.trim()) throw new Error('the Dockerfile ends in a continuation line');
  const globalArgs: Record<string, string> = {};
  const stages: ParsedStage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`FROM ${ins.args}: not understood`);
      stages.push({ image: expand(m[1], globalArgs), name: m[2] ?? null, instructions: [] });
    } else if (stages.length === 0) {
      if (ins.keyword !== 'ARG') throw new Error(`${ins.keyword} before the first FROM`);
      const [name, value = ''] = splitWords(ins.args)[0].split(/=(.*)/s);
      globalArgs[name] = value;
    } else stages[stages.length - 1].instructions.push(ins);
  }
  if (stages.length === 0) throw new Error('the Dockerfile has no FROM');
  return stages;
}

/** `$NAME`, `${NAME}` and `${NAME:-default}` as Docker substitutes them in FROM, ENV, COPY, WORKDIR… */
export function expand(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\\\$|\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g,
    (all, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
      if (all === '\\$') return '$';
      const value = vars[braced ?? bare!];
      return value !== undefined && value !== '' ? value : (fallback ?? '');
    },
  );
}

/** An `ENV` instruction's variables: `NAME=value …` (values quoted as in a shell), or `NAME value`. */
export function parseEnv(args: string, vars: Record<string, string> = {}): Record<string, string> {
  const words = splitWords(expand(args, vars));
  if (words.length > 0 && !words[0].includes('=')) return { [words[0]]: words.slice(1).join(' ') };
  return Object.fromEntries(words.map((word) => [word.split('=')[0], word.slice(word.indexOf('=') + 1)]));
}

/** Shell-like words: whitespace-separated, with '…' and "…" quoting and backslash escapes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++)
        word += text[i] === '\\' && /["\\$`]/.test(text[i + 1] ?? '') ? text[++i] : text[i];
      if (i >= text.length) throw new Error(`unclosed quote: ${text}`);
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * `.dockerignore` as Docker applies it to the build context (moby's patternmatcher): a path is
 * excluded when the last pattern that matches it or one of its parent directories is not a `!`
 * exception. Patterns are relative to the context's root; `*` and `?` stay within one path
 * segment, `**` spans any number of them.
 */
export function dockerignore(text: string): (relative: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const exception = l.startsWith('!');
      const pattern = path.posix.normalize((exception ? l.slice(1) : l).trim()).replace(/^\/+|\/+$/g, '');
      return { exception, regexp: globRegExp(pattern) };
    });
  return (relative) => {
    const segments = relative.split('/');
    const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (candidates.some((p) => rule.regexp.test(p))) excluded = !rule.exception;
    return excluded;
  };
}

function globRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        source += '(?:.*/)?';
      } else source += '.*';
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]);
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error(`.dockerignore: unclosed [ in ${pattern}`);
      source += `[${pattern.slice(i + 1, end).replace(/^!/, '^')}]`;
      i = end;
    } else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One stage as the replay left it. */
export interface BuiltStage {
  name: string | null;
  image: string;
  /** the directory that stands for the stage's `/` */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | null;
  /** image paths `chown`ed (or `COPY --chown`ed) to a user, and that user */
  owners: Map<string, string>;
  cmd: string[] | null;
  healthcheck: string[] | null;
  expose: string[];
  volumes: string[];
}

export interface ReplayOptions {
  /** the build context (the directory `docker build` is given) */
  context: string;
  /** the Dockerfile's text */
  dockerfile: string;
  /** a new, empty directory for the stages */
  scratch: string;
  /** what the RUN commands print, as they run */
  log?: (text: string) => void;
  /**
   * `npm ci` how: `linked` (the default) installs the lock's tree from the context's own
   * `node_modules` when that is what `npm ci` of the same lock installed (`installLockedTree`), and
   * runs npm otherwise; `npm` always runs npm (about a minute per install).
   */
  npmCi?: 'linked' | 'npm';
}

/**
 * Replays every stage of the Dockerfile (module comment above) and returns the last one, the image.
 * The earlier stages' directories are removed once the last stage is built: the image holds only
 * what it copied from them. Throws on the first instruction or command that fails, as `docker
 * build` stops.
 */
export async function replayDockerfile(options: ReplayOptions): Promise<BuiltStage> {
  const stages = parseDockerfile(options.dockerfile);
  const excluded = fs.existsSync(path.join(options.context, '.dockerignore'))
    ? dockerignore(fs.readFileSync(path.join(options.context, '.dockerignore'), 'utf8'))
    : () => false;
  // the stage being built is always here, so that the paths it sees are those the image's stages see
  const active = path.join(options.scratch, 'root');
  fs.chmodSync(options.scratch, 0o755);
  const built: BuiltStage[] = [];
  for (const [index, parsed] of stages.entries()) {
    const stage: BuiltStage = {
      name: parsed.name,
      image: parsed.image,
      root: active,
      workdir: '/',
      env: {},
      user: null,
      owners: new Map(),
      cmd: null,
      healthcheck: null,
      expose: [],
      volumes: [],
    };
    fromNodeImage(stage);
    const args: Record<string, string> = {};
    for (const ins of parsed.instructions) {
      const where = `stage ${parsed.name ?? index} (${parsed.image}): ${ins.keyword} ${ins.args}`;
      try {
        await apply(stage, ins, { ...options, built, excluded, vars: () => ({ ...args, ...stage.env }), args });
      } catch (err) {
        throw new Error(`${where}\n${(err as Error).message}`);
      }
    }
    if (index < stages.length - 1) {
      const kept = path.join(options.scratch, `stage-${index}`);
      fs.renameSync(active, kept);
      stage.root = kept;
    }
    built.push(stage);
  }
  for (const stage of built.slice(0, -1)) fs.rmSync(stage.root, { recursive: true, force: true });
  return built[built.length - 1];
}

/** The base image: `node:<tag>` only, whose `node` is the one running this replay. */
function fromNodeImage(stage: BuiltStage): void {
  if (!/^(docker\.io\/)?(library\/)?node:/.test(stage.image))
    throw new Error(`FROM ${stage.image}: the replay stands in for node images only`);
  fs.mkdirSync(path.join(stage.root, 'usr/local/bin'), { recursive: true, mode: 0o755 });
  fs.mkdirSync(path.join(stage.root, 'tmp'), { mode: 0o1777 });
  fs.chmodSync(path.join(stage.root, 'tmp'), 0o1777);
  linkOrCopy(process.execPath, path.join(stage.root, 'usr/local/bin/node'));
  // the node image's `node` user (uid 1000), whose home exists
  fs.mkdirSync(path.join(stage.root, 'home/node'), { recursive: true });
  stage.owners.set('/home/node', 'node');
}

interface ApplyContext extends ReplayOptions {
  built: BuiltStage[];
  excluded: (relative: string) => boolean;
  vars: () => Record<string, string>;
  args: Record<string, string>;
}

async function apply(stage: BuiltStage, ins: Instruction, ctx: ApplyContext): Promise<void> {
  const host = (imagePath: string) => path.join(stage.root, path.posix.resolve(stage.workdir, imagePath));
  switch (ins.keyword) {
    case 'ARG': {
      const [name, value] = splitWords(ins.args)[0].split(/=(.*)/s);
      ctx.args[name] = value ?? ctx.args[name] ?? '';
      return;
    }
    case 'ENV':
      Object.assign(stage.env, parseEnv(ins.args, ctx.vars()));
      return;
    case 'WORKDIR':
      stage.workdir = path.posix.resolve(stage.workdir, expand(ins.args, ctx.vars()));
      fs.mkdirSync(host(stage.workdir), { recursive: true });
      return;
    case 'USER':
      stage.user = expand(ins.args, ctx.vars()).split(':')[0];
      return;
    case 'EXPOSE':
      stage.expose.push(...splitWords(expand(ins.args, ctx.vars())));
      return;
    case 'VOLUME': {
      const text = expand(ins.args, ctx.vars());
      stage.volumes.push(...(text.startsWith('[') ? (JSON.parse(text) as string[]) : splitWords(text)));
      return;
    }
    case 'CMD':
      stage.cmd = execForm(ins.args);
      return;
    case 'HEALTHCHECK': {
      const m = /^((?:--\S+\s+)*)CMD\s+([\s\S]+)$/.exec(ins.args);
      if (!m) throw new Error('HEALTHCHECK: only HEALTHCHECK [options] CMD [...] is replayed');
      stage.healthcheck = execForm(m[2]);
      return;
    }
    case 'LABEL':
      return;
    case 'COPY':
      return copy(stage, ins.args, ctx, host);
    case 'RUN':
      return run(stage, ins.args, ctx, host);
    default:
      throw new Error(`the replay does not know ${ins.keyword}`);
  }
}

function execForm(text: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new Error('only the exec form (a JSON array of strings) is replayed');
  return value as string[];
}

function copy(stage: BuiltStage, text: string, ctx: ApplyContext, host: (p: string) => string): void {
  const words = splitWords(expand(text, ctx.vars()));
  let from: BuiltStage | null = null;
  let owner: string | null = null;
  while (words[0]?.startsWith('--')) {
    const [flag, value] = words.shift()!.split(/=(.*)/s);
    if (flag === '--from') {
      from = ctx.built.find((s) => s.name === value) ?? ctx.built[Number(value)] ?? null;
      if (!from) throw new Error(`--from=${value}: no such earlier stage`);
    } else if (flag === '--chown') owner = value.split(':')[0];
    else throw new Error(`COPY ${flag}: not replayed`);
  }
  if (words.length < 2) throw new Error('COPY needs a source and a destination');
  const dest = words.pop()!;
  const intoDirectory = dest.endsWith('/') || words.length > 1;
  for (const source of words) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not replayed`);
    let sourcePath: string;
    let keep: (relative: string) => boolean;
    if (from) {
      sourcePath = path.join(from.root, path.posix.resolve('/', source));
      keep = () => true;
    } else {
      const relative = path.posix.normalize(source).replace(/^\/+|\/+$/g, '');
      if (relative.startsWith('..')) throw new Error(`COPY ${source}: outside the build context`);
      sourcePath = path.join(ctx.context, relative);
      if (relative !== '.' && relative !== '' && ctx.excluded(relative))
        throw new Error(`COPY ${source}: not found (excluded from the build context by .dockerignore)`);
      keep = (sub) => !ctx.excluded(path.posix.join(relative === '.' ? '' : relative, sub));
    }
    const stat = fs.statSync(sourcePath, { throwIfNoEntry: false });
    if (!stat) throw new Error(`COPY ${source}: not found in ${from ? `stage ${from.name}` : 'the build context'}`);
    const target = stat.isDirectory()
      ? host(dest)
      : intoDirectory
        ? path.join(host(dest), path.basename(sourcePath))
        : host(dest);
    if (stat.isDirectory()) copyTree(sourcePath, target, keep);
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(sourcePath, target);
    }
    if (owner) stage.owners.set(path.posix.resolve(stage.workdir, dest), owner);
  }
}

/** Copies the tree under `from` into `to` (merged with what is there), keeping what `keep` accepts. */
function copyTree(from: string, to: string, keep: (relative: string) => boolean, relative = ''): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const sub = relative ? `${relative}/${entry.name}` : entry.name;
    if (!keep(sub)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target, keep, sub);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else fs.copyFileSync(source, target);
  }
}

async function run(stage: BuiltStage, text: string, ctx: ApplyContext, host: (p: string) => string): Promise<void> {
  if (text.startsWith('[')) throw new Error('RUN: only the shell form is replayed');
  const commands = text.split(/\s+&&\s+/);
  for (const command of commands) {
    if (/[;|<>`\n]|\$\(|&/.test(command))
      throw new Error(`RUN: "${command}": only simple commands joined by && are replayed`);
    const argv = splitWords(command);
    const cwd = host(stage.workdir);
    if (argv[0] === 'npm' && argv[1] === 'ci') {
      const flags = argv.slice(2);
      const unknown = flags.filter((f) => !['--no-audit', '--no-fund', '--omit=dev'].includes(f));
      if (unknown.length) throw new Error(`npm ci ${unknown.join(' ')}: not replayed`);
      const omitDev = flags.includes('--omit=dev');
      const node = path.join(stage.root, 'usr/local/bin/node');
      const linked =
        (ctx.npmCi ?? 'linked') === 'linked' && installLockedTree(ctx.context, cwd, { omitDev, node, log: ctx.log });
      if (!linked) await runProcess(argv, cwd, stageEnv(stage, { npm_config_cache: npmCache() }), ctx.log);
    } else if (argv[0] === 'npm' && argv[1] === 'run') {
      await runProcess(argv, cwd, stageEnv(stage), ctx.log);
    } else if (argv[0] === 'npm' && argv[1] === 'cache' && argv[2] === 'clean') {
      // npm's cache is outside the image's /app: nothing of it is in the replayed image
    } else if (argv[0] === 'mkdir') {
      const recursive = argv.includes('-p');
      for (const dir of argv.slice(1).filter((a) => !a.startsWith('-'))) fs.mkdirSync(host(dir), { recursive });
    } else if (argv[0] === 'chown') {
      const [owner, ...paths] = argv.slice(1).filter((a) => !a.startsWith('-'));
      if (argv.slice(1).some((a) => a.startsWith('-'))) throw new Error('chown: options are not replayed');
      for (const p of paths) {
        if (!fs.existsSync(host(p))) throw new Error(`chown: cannot access '${p}': No such file or directory`);
        stage.owners.set(path.posix.resolve(stage.workdir, p), owner.split(':')[0]);
      }
    } else throw new Error(`RUN: "${command}": the replay does not know this command`);
  }
}

/** The environment a stage's processes see: its ENV over a PATH that finds the base image's `node` first. */
function stageEnv(stage: BuiltStage, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${path.join(stage.root, 'usr/local/bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: path.join(stage.root, 'root'),
    ...extra,
    ...stage.env,
  };
}

/** npm's cache directory on this machine (what a real `npm ci` of the replay reads from). */
function npmCache(): string {
  return process.env.npm_config_cache || path.join(os.homedir(), '.npm');
}

function runProcess(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  log?: (text: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (d: Buffer) => {
      output += d;
      log?.(String(d));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} ended with ${code ?? signal}:\n${output}`)),
    );
  });
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  hasInstallScript?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * `npm ci [--omit=dev]` in `dir` (which holds the context's package.json and package-lock.json)
 * without npm, when that gives the same tree: `npm ci` installs exactly the lock's packages (less
 * those flagged `dev` with `--omit=dev`, less optional ones for another platform), and the
 * context's own node_modules is such an install of the same lock when npm's record of it
 * (`node_modules/.package-lock.json`, which npm rewrites on every install) lists the lock's packages
 * at the same versions and integrity. Each package directory is then hard-linked file by file
 * (copied where links cannot be made), never symlinked: Node resolves a symlinked package's own
 * imports from where it really lies, which would find the context's development packages. The
 * `.bin` links of the installed packages and npm's record follow.
 *
 * Install scripts are not run, with one exception that decides whether the image builds: a native
 * addon installed by `node-gyp-build` (argon2) gets no `build/` (what node-gyp compiled on this
 * machine), and its prebuilt addon must load on the image's `node` (`options.node`), as the
 * script checks in the image; otherwise `npm ci` there would compile it, which needs python3, make
 * and a C++ compiler that the slim base image lacks, and this throws. (argon2 0.45's prebuilt
 * addon needs Node-API 10, Node 22.14+: Node 20 crashes loading it, and an install on Node 20
 * compiles it.)
 *
 * Returns false (and installs nothing) when the context's node_modules is not such an install, or
 * package.json and the lock disagree (where `npm ci` itself stops): the caller then runs npm.
 */
export function installLockedTree(
  context: string,
  dir: string,
  options: { omitDev: boolean; node: string; log?: (text: string) => void },
): boolean {
  const say = (why: string) => (options.log?.(`npm ci: running npm (${why})\n`), false);
  for (const file of ['package.json', 'package-lock.json'])
    if (!fs.readFileSync(path.join(dir, file)).equals(fs.readFileSync(path.join(context, file))))
      return say(`${file} is not the context's`);
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as LockEntry;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const)
    if (JSON.stringify(pkg[field] ?? {}) !== JSON.stringify(lock.packages[''][field] ?? {}))
      return say(`package.json's ${field} and the lock disagree`);
  const recordFile = path.join(context, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(recordFile)) return say('the context has no node_modules installed by npm');
  const record = (JSON.parse(fs.readFileSync(recordFile, 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const wanted: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '') continue;
    if (entry.link) return say(`${key} is a link`);
    const installed = record[key];
    if (!installed) {
      // an optional package for another platform, which npm ci skips too
      if (entry.optional || entry.devOptional) continue;
      return say(`${key} is not installed in the context`);
    }
    if (installed.version !== entry.version || installed.integrity !== entry.integrity)
      return say(`${key} is installed at another version`);
    if (!fs.existsSync(path.join(context, key, 'package.json'))) return say(`${key} is missing from node_modules`);
    if (options.omitDev && entry.dev) continue;
    wanted.push(key);
  }
  const extra = Object.keys(record).filter((key) => !lock.packages[key]);
  if (extra.length) return say(`the context's node_modules has packages the lock has not: ${extra.join(', ')}`);

  fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
  const addons: string[] = [];
  for (const key of wanted) {
    const scripts = lock.packages[key].hasInstallScript
      ? (
          JSON.parse(fs.readFileSync(path.join(context, key, 'package.json'), 'utf8')) as {
            scripts?: Record<string, string>;
          }
        ).scripts
      : undefined;
    const addon = /\bnode-gyp-build\b/.test(scripts?.install ?? '');
    if (addon) addons.push(key);
    linkTree(path.join(context, key), path.join(dir, key), addon ? ['node_modules', 'build'] : ['node_modules']);
  }
  for (const key of addons) {
    const loaded = spawnSync(options.node, ['-e', "require('node-gyp-build')(process.cwd())"], {
      cwd: path.join(dir, key),
      encoding: 'utf8',
    });
    if (loaded.status !== 0)
      throw new Error(
        `npm ci: ${key}: no prebuilt addon loads on the image's node ` +
          `(${loaded.signal ?? `exit ${loaded.status}`}: ${loaded.stderr.trim().split('\n').pop()}); ` +
          `npm ci would compile it, with python3, make and a C++ compiler the base image does not have`,
      );
  }
  // the `.bin` links npm makes, for the packages installed
  for (const key of ['', ...wanted]) {
    const bin = path.join(context, key, 'node_modules/.bin');
    if (!fs.existsSync(bin) || !fs.existsSync(path.join(dir, key, 'node_modules'))) continue;
    for (const name of fs.readdirSync(bin)) {
      const target = fs.readlinkSync(path.join(bin, name));
      const linkPath = path.join(dir, key, 'node_modules/.bin', name);
      if (!fs.existsSync(path.resolve(path.dirname(linkPath), target))) continue;
      fs.mkdirSync(path.dirname(linkPath), { recursive: true });
      fs.symlinkSync(target, linkPath);
    }
  }
  const installed = new Set(wanted);
  fs.writeFileSync(
    path.join(dir, 'node_modules', '.package-lock.json'),
    JSON.stringify(
      {
        ...JSON.parse(fs.readFileSync(recordFile, 'utf8')),
        packages: Object.fromEntries(Object.entries(record).filter(([key]) => installed.has(key))),
      },
      null,
      2,
    ) + '\n',
  );
  options.log?.(`npm ci: ${wanted.length} packages of the lock linked from the context's node_modules\n`);
  return true;
}

/**
 * A package directory, without the top-level entries `skip` names: its own node_modules (the lock
 * lists those packages separately), and what an install script made.
 */
function linkTree(from: string, to: string, skip: string[] = []): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip.includes(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else linkOrCopy(source, target);
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    fs.linkSync(source, target);
  } catch {
    fs.copyFileSync(source, target);
  }
}

export interface RunningImage {
  child: import('node:child_process').ChildProcess;
  /** stdout and stderr so far */
  output(): string;
  /** the container's environment, as its processes see it (image paths mapped into the replay) */
  env: Record<string, string>;
  /** the uid the container runs as (null: this process's own, when it is not root) */
  uid: number | null;
}

/** The uid of the node image's `node` user, and its group. */
const NODE_USER = 1000;

/**
 * Starts `argv` (the image's CMD unless given) in the replayed image as `docker run` would: in its
 * WORKDIR, with only its ENV (values that are paths of the image mapped into the replay) and
 * `env` (`docker run -e`), and as its USER: when this process is root, as the node image's `node`
 * user (uid 1000), owner of the paths the Dockerfile `chown`s to it and of nothing else, so that
 * a write anywhere else fails as in the container; otherwise as this process's own user (a write
 * the image forbids then goes unnoticed).
 */
export function startImage(
  image: BuiltStage,
  env: Record<string, string> = {},
  argv: string[] | null = image.cmd,
): RunningImage {
  if (!argv) throw new Error('the image has no CMD');
  const host = (imagePath: string) => path.join(image.root, imagePath);
  const mapped = Object.fromEntries(
    Object.entries({ ...image.env, ...env }).map(([k, v]) => [
      k,
      v.startsWith('/') && fs.existsSync(host(v)) ? host(v) : v,
    ]),
  );
  const containerEnv = {
    PATH: `${host('/usr/local/bin')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: host(image.user && image.user !== 'root' ? `/home/${image.user}` : '/root'),
    TMPDIR: host('/tmp'),
    ...mapped,
  };
  let uid: number | null = null;
  if (process.getuid?.() === 0 && image.user && !['root', '0'].includes(image.user)) {
    if (image.user !== 'node') throw new Error(`USER ${image.user}: the replay knows the node image's users only`);
    uid = NODE_USER;
    for (const [imagePath, owner] of image.owners) {
      if (owner !== image.user) continue;
      const target = host(imagePath);
      // a hard-linked file is shared with the build context: give the image its own copy first
      const stat = fs.statSync(target);
      if (!stat.isDirectory() && stat.nlink > 1) {
        fs.copyFileSync(target, `${target}.own`);
        fs.renameSync(`${target}.own`, target);
      }
      fs.chownSync(target, NODE_USER, NODE_USER);
    }
  }
  const child = spawn(argv[0], argv.slice(1), {
    cwd: host(image.workdir),
    env: containerEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid !== null ? { uid, gid: uid } : {}),
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output, env: containerEnv, uid };
}
