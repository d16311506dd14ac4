/**
 * Webhook delivery throughput from one process, and a slow receiver against the others.
 *
 * `--webhooks` webhooks point at a fast local receiver (it answers 200 at once) and one more at a
 * slow receiver (it answers 200 after `--slow-ms`, 10 s). An event made through the App API (a
 * work item created, the server's worker off) queues one outbox row per webhook; those rows are
 * the templates the bench copies in SQL (`webhook_deliveries`: the same workspace, webhook, event,
 * action and body; a copy is checked equal to its template but for id and times) to queue
 * `--deliveries` deliveries to the fast webhooks per phase. Then, per round, two phases, each on a
 * freshly started server with its worker on (the order alternating per round):
 *
 * - `fast only`: the fast webhooks' deliveries alone;
 * - `with a slow receiver`: the same, after `--slow` deliveries to the slow webhook queued first
 *   (older, so at the head of the outbox).
 *
 * Measured at the fast receiver: deliveries per second from the first to the last received, and
 * the server's CPU per delivery; the ratio of the two phases (≈ 1: the slow receiver does not
 * lower the others' rate). Every fast delivery must arrive, and be `delivered` in the outbox.
 *
 *   npm run build
 *   node dist/bench/webhooks.bench.js                      # PostgreSQL (scratch database)
 *   node dist/bench/webhooks.bench.js --embedded
 *   node dist/bench/webhooks.bench.js --main ../before/dist/server/main.js --deliveries 1000
 *
 * Options: `--webhooks 10`, `--deliveries 6000` (per phase, spread over the fast webhooks), `--slow
 * 200`, `--slow-ms 10000`, `--rounds 2`, `--main FILE` (another build's server, started as the
 * image starts it, for every step), `--node-options '…'` (added to the server's NODE_OPTIONS). The server runs with `WEBHOOK_TIMEOUT_MS=15000` (the slow
 * receiver's answers succeed) and its other webhook settings at their defaults. A benchmark, not a test.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchHeader, cpuMs, http as call, median, opt, scratchDatabase, setUp, startServer, Server } from './harness';
import { embeddedSeedConnection, postgresSeedConnection, SeedConnection } from './seed';

const WEBHOOKS = Number(opt('webhooks', '10'));
const DELIVERIES = Number(opt('deliveries', '6000'));
const SLOW = Number(opt('slow', '200'));
const SLOW_MS = Number(opt('slow-ms', '10000'));
const ROUNDS = Number(opt('rounds', '2'));
const EMBEDDED = process.argv.includes('--embedded');
const MAIN = opt('main', '');
/** extra NODE_OPTIONS for the server (e.g. `--cpu-prof --cpu-prof-dir=DIR`) */
const NODE_OPTIONS = opt('node-options', '');

/** The receivers: per path, the times (ms) requests arrived; the slow one answers after `SLOW_MS`. */
async function receiver(delayMs: number) {
  const got = new Map<string, number[]>();
  let open = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const at = performance.now();
      const list = got.get(req.url ?? '') ?? [];
      list.push(at);
      got.set(req.url ?? '', list);
      open++;
      const answer = () => {
        open--;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      };
      if (delayMs) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    got,
    open: () => open,
    total: () => [...got.values()].reduce((n, l) => n + l.length, 0),
    reset: () => got.clear(),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main() {
  console.log(benchHeader('webhooks'));
  const db = EMBEDDED ? null : await scratchDatabase('meridian_webhooks');
  const dataDir = EMBEDDED ? fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-webhooks-')) : undefined;
  const fast = await receiver(0);
  const slow = await receiver(SLOW_MS);
  const env = {
    ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir! }),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '15000',
  };
  const start = (worker: boolean): Promise<Server> =>
    startServer({
      mode: MAIN ? 'image' : 'start:prod',
      ...(MAIN ? { main: path.resolve(MAIN) } : {}),
      node: process.execPath,
      env: { ...env, WEBHOOK_WORKER: String(worker) },
      ...(NODE_OPTIONS ? { nodeOptions: NODE_OPTIONS } : {}),
      health: true,
    });
  const open = (): Promise<SeedConnection> => (db ? postgresSeedConnection(db.url) : embeddedSeedConnection(dataDir!));
  try {
    // 1. set-up through the API, worker off: the webhooks, and one event's outbox rows (the templates)
    let server = await start(false);
    const t = await setUp(server.base);
    const auth = { authorization: `Bearer ${t.token}` };
    const hook = async (url: string) => {
      const res = await call(server.base, 'POST', `/api/workspaces/${t.slug}/webhooks/`, { url, issue: true }, auth);
      assert.equal(res.status, 201, res.body);
      return res.json().id as string;
    };
    const fastIds: string[] = [];
    for (let i = 0; i < WEBHOOKS; i++) fastIds.push(await hook(fast.url(`/fast/${i}`)));
    const slowId = await hook(slow.url('/slow'));
    const made = await call(
      server.base,
      'POST',
      `/api/workspaces/${t.slug}/projects/${t.projectId}/issues/`,
      { name: 'A webhook event' },
      auth,
    );
    assert.equal(made.status, 201, made.body);
    await server.stop();

    let conn = await open();
    const templates = await conn.sql(
      `SELECT id, webhook_id FROM webhook_deliveries WHERE status = 'pending' AND event = 'issue' AND action = 'created'`,
    );
    assert.equal(templates.length, WEBHOOKS + 1, 'one outbox row per webhook for the API-made event');
    const templateOf = new Map(templates.map((r) => [String(r.webhook_id), String(r.id)]));
    // the templates are sent in the first phase like the copies; the counts below include them
    await conn.sql(`UPDATE webhook_deliveries SET status = 'discarded' WHERE id = ANY($1::uuid[])`, [
      templates.map((r) => r.id),
    ]);
    await conn.close();

    /** Queues `perHook` copies of each of `hookIds`' template (one statement), checked against the template. */
    const queue = async (c: SeedConnection, hookIds: string[], perHook: number) => {
      const ids = hookIds.map((h) => templateOf.get(h)!);
      await c.sql(
        `INSERT INTO webhook_deliveries (workspace_id, webhook_id, event, action, body)
         SELECT d.workspace_id, d.webhook_id, d.event, d.action, d.body
           FROM webhook_deliveries d CROSS JOIN generate_series(1, $2::int) g
          WHERE d.id = ANY($1::uuid[]) ORDER BY g, d.webhook_id`,
        [ids, perHook],
      );
      const [copy] = await c.sql(
        `SELECT to_jsonb(c) - 'id' - 'created_at' - 'next_attempt_at' AS copy,
                to_jsonb(t) - 'id' - 'created_at' - 'next_attempt_at' AS template
           FROM webhook_deliveries c JOIN webhook_deliveries t ON t.id = $1
          WHERE c.webhook_id = t.webhook_id AND c.id <> t.id AND c.status = 'pending' LIMIT 1`,
        [ids[0]],
      );
      assert.deepEqual(copy.copy, { ...(copy.template as object), status: 'pending' }, 'a copy equals the API row');
    };

    const perHook = Math.ceil(DELIVERIES / WEBHOOKS);
    const expected = perHook * WEBHOOKS;
    console.log(
      `engine: ${EMBEDDED ? 'embedded' : 'PostgreSQL'}; ${WEBHOOKS} fast webhooks × ${perHook} = ${expected} deliveries per phase; ` +
        `slow receiver: ${SLOW} deliveries answered after ${SLOW_MS} ms${MAIN ? `; build ${MAIN}` : ''}`,
    );
    const results: Record<string, number[]> = { 'fast only': [], 'with a slow receiver': [] };
    console.log('| round | phase | fast deliveries/s | server CPU ms per delivery | slow receiver: received, open |');
    console.log('|---|---|---|---|---|');
    for (let round = 1; round <= ROUNDS; round++) {
      const phases = round % 2 ? ['fast only', 'with a slow receiver'] : ['with a slow receiver', 'fast only'];
      for (const phase of phases) {
        conn = await open();
        await conn.sql(`UPDATE webhook_deliveries SET status = 'discarded' WHERE status = 'pending'`);
        if (phase !== 'fast only') await queue(conn, [slowId], SLOW);
        await queue(conn, fastIds, perHook);
        await conn.close();
        fast.reset();
        slow.reset();
        server = await start(true);
        const cpu0 = cpuMs(server.pid);
        const deadline = Date.now() + 15 * 60_000;
        while (fast.total() < expected) {
          if (Date.now() > deadline) throw new Error(`only ${fast.total()} of ${expected} deliveries arrived`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const cpu = cpuMs(server.pid) - cpu0;
        const times = [...fast.got.values()].flat().sort((a, b) => a - b);
        const rate = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
        results[phase].push(rate);
        console.log(
          `| ${round} | ${phase} | ${rate.toFixed(0)} | ${(cpu / expected).toFixed(2)} | ${slow.total()}, ${slow.open()} |`,
        );
        await new Promise((r) => setTimeout(r, 500)); // the last attempts recorded
        await server.stop();
        conn = await open();
        const [row] = await conn.sql(
          `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered
             FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])`,
          [fastIds],
        );
        await conn.sql(`UPDATE webhook_deliveries SET status = 'discarded' WHERE status = 'pending'`);
        await conn.sql(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND NOT (id = ANY($1::uuid[]))`, [
          templates.map((r) => r.id),
        ]);
        await conn.sql(`DELETE FROM webhook_logs`);
        await conn.close();
        assert.equal(Number(row.delivered), expected, 'every fast delivery recorded as delivered');
        assert.equal(fast.total(), expected, 'no fast delivery sent twice');
      }
    }
    const alone = median(results['fast only']);
    const withSlow = median(results['with a slow receiver']);
    console.log(
      `median: fast only ${alone.toFixed(0)}/s, with a slow receiver ${withSlow.toFixed(0)}/s; ratio ${(withSlow / alone).toFixed(2)}`,
    );
  } finally {
    await fast.close();
    await slow.close();
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
