// Every command in the docs runs as written (docs/testing.md "The docs' commands are tested"): the
// fenced `sh`/`bash` blocks of README.md and docs/*.md run, in order, against a fresh server bundled
// from the sources as `npm start` bundles them, on the engine under test. Blocks marked
// `<!-- snippet: skip (reason) -->` are not run; `<!-- snippet: offline -->` ones run with the server
// stopped (`embedded`: on the embedded database only).
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { childEnv, ROOT, TEST_NODE_FLAGS, waitExit } from '../support/processes';
import { ENGINE, migratedDatabaseEnv } from '../support/test-app';

interface Snippet {
  file: string;
  line: number;
  code: string;
  /** the marker's words: `skip (…)`, `offline`, `offline embedded`, or '' (none) */
  marker: string;
}

const MARKER = /^<!-- snippet: (.+) -->$/;
const FENCE = /^(\s*)```(sh|bash)\s*$/;

/** The `sh`/`bash` blocks of one Markdown file, with the marker on the line before each (if any). */
function snippetsOf(file: string): Snippet[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const indent = open[1];
    let end = i + 1;
    while (end < lines.length && lines[end] !== `${indent}\`\`\``) end++;
    assert.ok(end < lines.length, `${file}:${i + 1}: a block that is not closed`);
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? (MARKER.exec(lines[before].trim())?.[1] ?? '') : '';
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    out.push({ file: path.relative(ROOT, file), line: i + 1, code, marker });
    i = end;
  }
  return out;
}

function allSnippets(): Snippet[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join(ROOT, 'docs', f));
  return [path.join(ROOT, 'README.md'), ...docs].flatMap(snippetsOf);
}

/** Runs `command` in bash; resolves its exit code and output (bounded by `timeoutMs`). */
function bash(script: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out:\n${script}\n${output}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('every command in the README and docs runs as written, on a server bundled as `npm start` bundles it', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-docs-'));
  // inside the repository: the bundle finds node_modules and package.json above it, as dist/server does
  const bundle = path.join(ROOT, 'dist', `docs-snippets-${process.pid}`);
  const state = path.join(work, 'state.sh');
  let database: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
  let server: ChildProcess | null = null;
  let port = '0';
  let url = '';
  let serverOutput = '';

  /** The server's environment, and the snippets' (so that `npm run cli` reaches the same database). */
  const env = () =>
    childEnv({
      ...database.env,
      HOST: '127.0.0.1',
      PASSWORD_HASH_COST: 'test',
      MERIDIAN: url,
      // every curl in the docs must get an answer below 400: curl exits 22 otherwise
      PATH: `${path.join(work, 'bin')}:${process.env.PATH}`,
    });

  async function startServer(): Promise<void> {
    serverOutput = '';
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, path.join(bundle, 'main.js')], {
      cwd: ROOT,
      env: { ...env(), PORT: port, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    });
    server = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${serverOutput}`)), 90_000);
      const onData = (d: Buffer) => {
        serverOutput += d;
        const listening = /"url":"(http:\/\/[^"]+)"/.exec(serverOutput);
        if (listening) {
          clearTimeout(timer);
          url = listening[1];
          port = new URL(url).port;
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${serverOutput}`));
      });
    });
  }

  async function stopServer(): Promise<void> {
    if (!server) return;
    const child = server;
    server = null;
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
    await waitExit(child);
  }

  before(async () => {
    fs.mkdirSync(path.join(work, 'bin'));
    fs.writeFileSync(
      path.join(work, 'bin', 'curl'),
      `#!/bin/sh\nexec ${JSON.stringify(fs.existsSync('/usr/bin/curl') ? '/usr/bin/curl' : 'curl')} --fail-with-body "$@"\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(state, '');
    const bundled = await bash(
      `${JSON.stringify(process.execPath)} scripts/bundle.js --from-sources --out ${JSON.stringify(bundle)}`,
      process.env,
      300_000,
    );
    assert.equal(bundled.code, 0, bundled.output);
    database = await migratedDatabaseEnv();
    await startServer();
  });

  after(async () => {
    await stopServer();
    await database?.drop();
    fs.rmSync(bundle, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  const snippets = allSnippets();

  it('finds the blocks, and every marker is one the test knows (a skip says why)', () => {
    // the walk-through, the API example, the backups, the ops CLI and the upgrade's migration steps
    assert.ok(snippets.filter((s) => !s.marker.startsWith('skip')).length >= 5, 'too few blocks run');
    assert.ok(
      snippets.some((s) => s.file === 'README.md' && s.marker === ''),
      "the README's walk-through runs",
    );
    for (const s of snippets) {
      if (s.marker === '') continue;
      assert.match(
        s.marker,
        /^(skip \(.+\)|offline|offline embedded)$/,
        `${s.file}:${s.line}: unknown marker "${s.marker}"`,
      );
    }
  });

  for (const snippet of snippets) {
    const where = `${snippet.file}:${snippet.line}`;
    if (snippet.marker.startsWith('skip')) {
      it(`${where}: not run, ${snippet.marker.slice(5)}`, { skip: snippet.marker.slice(5) }, () => undefined);
      continue;
    }
    const offline = snippet.marker.startsWith('offline');
    const embeddedOnly = snippet.marker === 'offline embedded';
    it(
      `${where}: runs${offline ? ' with the server stopped' : ''}`,
      { skip: embeddedOnly && ENGINE !== 'embedded' ? 'the embedded database only' : false },
      async () => {
        if (offline) await stopServer();
        // the names the block assigns are kept for the next blocks (the walk-through's $B, $TOKEN, …)
        const assigned = [...new Set([...snippet.code.matchAll(/^\s*([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]))];
        const script = [
          'set -euo pipefail',
          `source ${JSON.stringify(state)}`,
          snippet.code,
          assigned.length ? `declare -p ${assigned.join(' ')} >> ${JSON.stringify(state)}` : '',
        ].join('\n');
        const run = await bash(script, env());
        if (offline) await startServer();
        assert.equal(run.code, 0, `${where} failed:\n${snippet.code}\n--- output:\n${run.output}`);
        assert.doesNotMatch(run.output, /"error_code"/, `${where}: an API error:\n${run.output}`);
      },
    );
  }
});
