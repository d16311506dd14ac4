/**
 * Memory per request: the largest work item history read by many clients at once. One work item
 * gets `--comments` comments of the largest size a comment may have (`comment_html` of 262,144
 * characters of `é`: docs/errors.md "Field size limits"), then `--clients` clients read its App API
 * `history/` (every comment, a bare array of hundreds of MB) at the same moment, `--rounds` times.
 * The server's peak RSS is read from /proc (VmHWM, reset before each reading) and compared with
 * the same reading for one client in the same run: with the answer read and written in chunks from
 * one budget (`ANSWER_MEMORY_BUDGET`), ten clients need about what one needs, not ten times it.
 * Every client must receive the whole answer (its length checked, one of them parsed).
 *
 *   npm run build
 *   node dist/bench/history-memory.bench.js [--embedded] [--comments 200] [--clients 10] [--rounds 3]
 *        [--main ../other/dist/server/main.js]   (another build's server, started as the image starts it)
 *
 * PostgreSQL: a scratch database on `BENCH_DATABASE_URL` (default the local server), dropped after.
 * The server starts as `npm run start:prod` does. A benchmark, not a test.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Agent, request } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchHeader, http, opt, scratchDatabase, setUp, startServer, statusKiB } from './harness';

const COMMENTS = Number(opt('comments', '200'));
const CLIENTS = Number(opt('clients', '10'));
const ROUNDS = Number(opt('rounds', '3'));
const EMBEDDED = process.argv.includes('--embedded');
/** The documented ceiling (BENCHMARKS.md "Memory per request"), MiB of peak RSS with `--clients` readers. */
const CEILING_MIB = Number(opt('ceiling', EMBEDDED ? '650' : '400'));
/** another build's bundle (e.g. before a change), started with the image's environment */
const MAIN = opt('main', '');
const COMMENT_HTML = `<p>${'é'.repeat(262_144 - 7)}</p>`;

/** One GET read to the end; its status and length in bytes. */
function read(base: string, p: string, token: string, agent: Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    const req = request(`${base}${p}`, { headers: { authorization: `Bearer ${token}` }, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', () => resolve({ status: -1, bytes }));
    });
    // a server that died mid-answer: reported in the table, not thrown
    req.on('error', () => resolve({ status: -1, bytes: 0 }));
    req.end();
  });
}

/** Peak RSS (MiB) of `pid` while `fn` runs: VmHWM reset first (`clear_refs` 5), read after. */
async function peakOf<T>(pid: number, fn: () => Promise<T>): Promise<[T, number]> {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const result = await fn();
  return [result, statusKiB(pid, 'VmHWM') / 1024];
}

async function main() {
  console.log(benchHeader('history-memory'));
  const db = EMBEDDED ? null : await scratchDatabase('meridian_history_mem');
  const dataDir = EMBEDDED ? fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-history-')) : undefined;
  const server = await startServer({
    mode: MAIN ? 'image' : 'start:prod',
    ...(MAIN ? { main: path.resolve(MAIN) } : {}),
    node: process.execPath,
    env: db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir! },
    health: true,
  });
  try {
    const t = await setUp(server.base);
    const auth = { authorization: `Bearer ${t.token}` };
    const project = `/api/workspaces/${t.slug}/projects/${t.projectId}`;
    const issue = await http(server.base, 'POST', `${project}/issues/`, { name: 'The longest history' }, auth);
    assert.equal(issue.status, 201, issue.body);
    const issuePath = `${project}/issues/${issue.json().id as string}`;
    const tooLong = await http(
      server.base,
      'POST',
      `${issuePath}/comments/`,
      { comment_html: `${COMMENT_HTML}x` },
      auth,
    );
    console.log(`a comment one character over the limit: ${tooLong.status}`);
    const started = Date.now();
    for (let i = 0; i < COMMENTS; i++) {
      const made = await http(server.base, 'POST', `${issuePath}/comments/`, { comment_html: COMMENT_HTML }, auth);
      assert.equal(made.status, 201, made.body);
    }
    console.log(`seeded ${COMMENTS} comments of ${COMMENT_HTML.length} characters in ${Date.now() - started} ms`);
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const history = `${issuePath}/history/`;
    // the answer's size, and that it is one whole JSON array holding every comment
    const whole = await fetch(`${server.base}${history}`, { headers: auth });
    const text = await whole.text();
    const items = JSON.parse(text) as Array<{ comment_html?: string }>;
    assert.equal(items.filter((x) => x.comment_html === COMMENT_HTML).length, COMMENTS);
    const bytes = Buffer.byteLength(text);
    console.log(`history/: ${items.length} entries, ${(bytes / 1024 / 1024).toFixed(0)} MiB`);
    const idle = statusKiB(server.pid, 'VmRSS') / 1024;
    console.log(
      `engine: ${EMBEDDED ? 'embedded' : 'PostgreSQL'}; node ${server.node}, heap limit ${server.heapLimitMiB} MiB`,
    );
    console.log(`idle RSS after the first read: ${idle.toFixed(0)} MiB`);
    console.log('| round | clients | peak RSS (MiB) | wall (s) | answers whole |');
    console.log('|---|---|---|---|---|');
    const peaks: Record<number, number[]> = { 1: [], [CLIENTS]: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const clients of [1, CLIENTS]) {
        const t0 = Date.now();
        const [answers, peak] = await peakOf(server.pid, () =>
          Promise.all(Array.from({ length: clients }, () => read(server.base, history, t.token!, agent))),
        );
        const whole = answers.every((a) => a.status === 200 && a.bytes === bytes);
        peaks[clients].push(peak);
        console.log(
          `| ${round} | ${clients} | ${peak.toFixed(0)} | ${((Date.now() - t0) / 1000).toFixed(1)} | ${whole} |`,
        );
        assert.ok(whole, `every answer whole: ${JSON.stringify(answers)}`);
      }
    }
    const one = Math.max(...peaks[1]);
    const many = Math.max(...peaks[CLIENTS]);
    console.log(
      `peak RSS: 1 client ${one.toFixed(0)} MiB, ${CLIENTS} clients ${many.toFixed(0)} MiB ` +
        `(ratio ${(many / one).toFixed(2)}; ${CLIENTS} answers of ${(bytes / 1024 / 1024).toFixed(0)} MiB each); ` +
        `ceiling ${CEILING_MIB} MiB: ${many <= CEILING_MIB ? 'met' : 'NOT met'}`,
    );
    agent.destroy();
  } finally {
    await server.stop();
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
