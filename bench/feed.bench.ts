/**
 * The inbox and a work item's history at size: a user with `--notifications` notifications (10,000)
 * and a work item with `--activities` history rows (5,000), read as Plane's web app reads them.
 *
 * Seeding: a second member makes a work item assigned to the bench user and changes it through the
 * App API (so the server writes a notification and history rows as it always does); the server is
 * stopped and those rows are copied in SQL (every column but id and times; half the notifications
 * read), a copy checked equal to its template; `VACUUM ANALYZE`. A small work item (a handful of
 * history rows, all through the API) is the baseline for the history.
 *
 * Scenarios, `--rounds` rounds of `--seconds` each with `--connections` clients, interleaved; p50
 * per scenario and the server's peak RSS while it ran (VmHWM, reset before each):
 * - one notification (`users/notifications/{id}/`): the baseline of a request that reads one row;
 * - the inbox (`users/notifications/?type=assigned,created,subscribed&archived=false&snoozed=false
 *   &per_page=30&cursor=…`): the first page, the second, and a page ~9,000 notifications deep reached
 *   by `next_cursor` (a page after the first also asks whether rows come before it: page 2 is the
 *   fair baseline of depth); the same for the unread tab (`read=false`), and `unread/`;
 * - the history's incremental read (`history/?activity_type=issue-property&created_at__gt=…`, the
 *   web app's refresh: the last 30 rows) on the large work item against the small one;
 * - the whole history of the large work item (5,000 rows, Plane's bare array), against the first
 *   inbox page for memory.
 * Ratios ≈ 1 (deep : first, large : small) mean flat. The whole inbox is also walked page by page
 * once: every notification exactly once, each page's `total_count` the inbox's size. The copies are
 * written oldest first, as a live inbox is.
 *
 * `--before <main.js>` (another build's `dist/server/main.js`) measures that build too, in the same
 * run and on the same rows: this build first, then the newest `--revert` migrations (default 1) are
 * reverted with this build's CLI (the other build does not know them) and the other build is measured.
 * Both are then started as the image starts them (`node dist/server/main.js`, the Dockerfile's
 * environment).
 *
 *   npm run build
 *   node dist/bench/feed.bench.js                 # PostgreSQL (scratch database)
 *   node dist/bench/feed.bench.js --embedded
 *   node dist/bench/feed.bench.js --before ../before/dist/server/main.js
 *
 * A benchmark, not a test.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchHeader, http, MAIN, opt, scratchDatabase, setUp, startServer, statusKiB, Server } from './harness';
import { load, LoadResult, pooled } from './load';
import { embeddedSeedConnection, postgresSeedConnection, SeedConnection } from './seed';

const NOTIFICATIONS = Number(opt('notifications', '10000'));
const ACTIVITIES = Number(opt('activities', '5000'));
const ROUNDS = Number(opt('rounds', '3'));
const SECONDS = Number(opt('seconds', '3'));
const CONNECTIONS = Number(opt('connections', '4'));
const EMBEDDED = process.argv.includes('--embedded');
const BEFORE = opt('before', '');
const REVERT = Number(opt('revert', '1'));
const PER_PAGE = 30;

async function main() {
  console.log(benchHeader('feed'));
  const db = EMBEDDED ? null : await scratchDatabase('meridian_feed');
  const dataDir = EMBEDDED ? fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-feed-')) : undefined;
  const env: Record<string, string> = db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir! };
  const start = (main = MAIN): Promise<Server> =>
    startServer({ mode: BEFORE ? 'image' : 'start:prod', main, node: process.execPath, env, health: true });
  const open = (): Promise<SeedConnection> => (db ? postgresSeedConnection(db.url) : embeddedSeedConnection(dataDir!));
  let server = await start();
  try {
    const t = await setUp(server.base);
    const me = { authorization: `Bearer ${t.token}` };
    const other = await http(server.base, 'POST', '/auth/sign-up/', {
      email: 'bench-other@example.com',
      password: 'bench password 456',
    });
    assert.equal(other.status, 201, other.body);
    const them = { authorization: `Bearer ${other.json().access_token as string}` };
    const otherId = other.json().user.id as string;
    await server.stop();
    let conn = await open();
    await conn.sql(`INSERT INTO workspace_members (workspace_id, member_id, role) VALUES ($1, $2, 15)`, [
      t.workspaceId,
      otherId,
    ]);
    await conn.sql(`INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, 15)`, [
      t.workspaceId,
      t.projectId,
      otherId,
    ]);
    await conn.close();

    // through the API: the large work item (assigned to the bench user, changed by the other member), and the small one
    server = await start();
    const project = `/api/workspaces/${t.slug}/projects/${t.projectId}`;
    const big = await http(server.base, 'POST', `${project}/issues/`, { name: 'Busy', assignee_ids: [t.userId] }, them);
    assert.equal(big.status, 201, big.body);
    const bigId = big.json().id as string;
    const small = await http(server.base, 'POST', `${project}/issues/`, { name: 'Quiet' }, me);
    assert.equal(small.status, 201, small.body);
    const smallId = small.json().id as string;
    for (let i = 1; i <= 4; i++) {
      for (const [id, who] of [
        [bigId, them],
        [smallId, me],
      ] as const) {
        const res = await http(server.base, 'PATCH', `${project}/issues/${id}/`, { name: `Change ${i}` }, who);
        assert.equal(res.status, 204, res.body); // Plane's App API answers a PATCH with 204
      }
    }
    await server.stop();

    // in bulk: copies of an API-made notification and history row, older than the API's
    conn = await open();
    const [note] = await conn.sql(
      `SELECT id FROM notifications WHERE receiver_id = $1 AND entity_identifier = $2 ORDER BY created_at DESC LIMIT 1`,
      [t.userId, bigId],
    );
    assert.ok(note, 'the API wrote a notification for the assignee');
    const [activity] = await conn.sql(
      `SELECT id FROM issue_activities WHERE issue_id = $1 AND field = 'name' ORDER BY created_at DESC LIMIT 1`,
      [bigId],
    );
    await conn.sql(
      `INSERT INTO notifications
       SELECT (jsonb_populate_record(NULL::notifications, to_jsonb(n) || jsonb_build_object(
                 'id', gen_random_uuid(),
                 'created_at', n.created_at - g * interval '1 second',
                 'updated_at', n.created_at - g * interval '1 second',
                 'read_at', CASE WHEN g % 2 = 0 THEN n.created_at - g * interval '1 second' END))).*
         FROM notifications n CROSS JOIN generate_series(1, $2::int) g WHERE n.id = $1 ORDER BY g DESC`,
      [note.id, NOTIFICATIONS],
    );
    await conn.sql(
      `INSERT INTO issue_activities
       SELECT (jsonb_populate_record(NULL::issue_activities, to_jsonb(a) || jsonb_build_object(
                 'id', gen_random_uuid(),
                 'created_at', a.created_at - g * interval '1 second',
                 'updated_at', a.created_at - g * interval '1 second'))).*
         FROM issue_activities a CROSS JOIN generate_series(1, $2::int) g WHERE a.id = $1 ORDER BY g DESC`,
      [activity.id, ACTIVITIES],
    );
    for (const [table, id] of [
      ['notifications', note.id],
      ['issue_activities', activity.id],
    ] as const) {
      const [cmp] = await conn.sql(
        `SELECT to_jsonb(c) - 'id' - 'created_at' - 'updated_at' - 'read_at' AS copy,
                to_jsonb(t) - 'id' - 'created_at' - 'updated_at' - 'read_at' AS template
           FROM ${table} t JOIN ${table} c ON c.created_at = t.created_at - interval '1 second'
          WHERE t.id = $1 LIMIT 1`,
        [id],
      );
      assert.deepEqual(cmp.copy, cmp.template, `a bulk ${table} row equals the API's`);
    }
    await conn.sql('VACUUM ANALYZE notifications');
    await conn.sql('VACUUM ANALYZE issue_activities');
    const [counts] = await conn.sql(
      `SELECT (SELECT count(*)::int FROM notifications WHERE receiver_id = $1) AS notes,
              (SELECT count(*)::int FROM issue_activities WHERE issue_id = $2) AS big,
              (SELECT count(*)::int FROM issue_activities WHERE issue_id = $3) AS small`,
      [t.userId, bigId, smallId],
    );
    await conn.close();
    console.log(
      `engine: ${EMBEDDED ? 'embedded' : 'PostgreSQL'}; the bench user's notifications: ${counts.notes}; ` +
        `history rows: large work item ${counts.big}, small ${counts.small}`,
    );

    server = await start();
    const inbox = (extra: string, cursor: string) =>
      `/api/workspaces/${t.slug}/users/notifications/?type=assigned,created,subscribed&archived=false&snoozed=false` +
      `${extra}&per_page=${PER_PAGE}&cursor=${encodeURIComponent(cursor)}`;
    /** Walks up to `pages` pages from the first; every id seen, each page's cursor and `total_count`. */
    const walk = async (extra: string, pages: number) => {
      let cursor = `${PER_PAGE}:0:0`;
      const seen: string[] = [];
      const cursors: string[] = [];
      const totals = new Set<number>();
      for (let i = 0; i < pages; i++) {
        const res = await http(server.base, 'GET', inbox(extra, cursor), undefined, me);
        assert.equal(res.status, 200, res.body);
        const body = res.json() as {
          results: Array<{ id: string }>;
          next_cursor: string;
          next_page_results: boolean;
          total_count: number;
        };
        cursors.push(cursor);
        totals.add(body.total_count);
        seen.push(...body.results.map((r) => r.id));
        if (!body.next_page_results) break;
        cursor = body.next_cursor;
      }
      return { cursors, seen, totals };
    };
    const whole = await walk('', Infinity);
    assert.equal(whole.seen.length, Number(counts.notes), 'the whole inbox, page by page');
    assert.equal(new Set(whole.seen).size, whole.seen.length, 'no notification twice');
    assert.deepEqual([...whole.totals], [Number(counts.notes)], "every page's total_count");
    const deepPages = Math.floor((Number(counts.notes) * 0.9) / PER_PAGE);
    const deep = whole.cursors[deepPages];
    const unreadPages = Math.floor(deepPages / 2);
    const deepUnread = (await walk('&read=false', unreadPages + 1)).cursors[unreadPages];
    assert.ok(deep && deepUnread, 'the deep pages exist');
    const historyOf = async (id: string) => {
      const res = await http(
        server.base,
        'GET',
        `${project}/issues/${id}/history/?activity_type=issue-property`,
        undefined,
        me,
      );
      assert.equal(res.status, 200, res.body);
      return res.json() as Array<{ created_at: string }>;
    };
    const bigHistory = await historyOf(bigId);
    assert.equal(bigHistory.length, Number(counts.big) - 0, 'the whole history');
    const since = (h: Array<{ created_at: string }>) => h[Math.max(0, h.length - 31)].created_at;
    const smallSince = since(await historyOf(smallId));
    const bigSince = since(bigHistory);
    const history = (id: string, after: string) =>
      `${project}/issues/${id}/history/?activity_type=issue-property&created_at__gt=${encodeURIComponent(after)}`;

    const scenarios: Array<[string, string]> = [
      ['one notification', `/api/workspaces/${t.slug}/users/notifications/${whole.seen[0]}/`],
      ['inbox, first page', inbox('', `${PER_PAGE}:0:0`)],
      ['inbox, page 2', inbox('', whole.cursors[1])],
      [`inbox, page ${deepPages + 1}`, inbox('', deep)],
      ['unread tab, first page', inbox('&read=false', `${PER_PAGE}:0:0`)],
      [`unread tab, page ${unreadPages + 1}`, inbox('&read=false', deepUnread)],
      ['unread counts', `/api/workspaces/${t.slug}/users/notifications/unread/`],
      ['history since, small work item', history(smallId, smallSince)],
      ['history since, large work item', history(bigId, bigSince)],
      [`whole history, ${bigHistory.length} rows`, `${project}/issues/${bigId}/history/?activity_type=issue-property`],
    ];
    const measure = async (label: string) => {
      console.log(
        `${label}: node ${server.node}, heap limit ${server.heapLimitMiB} MiB; idle RSS ${server.readyRssMiB.toFixed(0)} MiB; ` +
          `load average ${os
            .loadavg()
            .map((x) => x.toFixed(2))
            .join(' ')}`,
      );
      const results = new Map<string, LoadResult[]>();
      const peaks = new Map<string, number>();
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [...scenarios].reverse() : scenarios;
        for (const [name, p] of order) {
          fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
          const r = await load(server.base, () => ({ method: 'GET', path: p, headers: me }), CONNECTIONS, SECONDS, 200);
          assert.equal(r.errors, 0, `${name}: ${r.firstError}`);
          results.set(name, [...(results.get(name) ?? []), r]);
          peaks.set(name, Math.max(peaks.get(name) ?? 0, statusKiB(server.pid, 'VmHWM') / 1024));
        }
      }
      const p50 = (name: string) => pooled(results.get(name)!).p50;
      console.log(`| ${label}: scenario | req/s | p50 ms | p99 ms | peak RSS MiB |`);
      console.log('|---|---|---|---|---|');
      for (const [name] of scenarios) {
        const r = pooled(results.get(name)!);
        console.log(
          `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${peaks.get(name)!.toFixed(0)} |`,
        );
      }
      const ratio = (a: number, b: number) => (p50(scenarios[a][0]) / p50(scenarios[b][0])).toFixed(2);
      console.log(
        `${label}: ratios of p50: inbox deep : first ${ratio(3, 1)}; deep : page 2 ${ratio(3, 2)}; ` +
          `unread deep : first ${ratio(5, 4)}; inbox first : one notification ${ratio(1, 0)}; ` +
          `inbox deep : one notification ${ratio(3, 0)}; history since, large : small ${ratio(8, 7)}; ` +
          `load average now ${os.loadavg()[0].toFixed(2)}`,
      );
    };
    await measure('this build');

    if (BEFORE) {
      await server.stop();
      for (let i = 0; i < REVERT; i++) {
        const cli = path.join(path.dirname(MAIN), 'cli.js');
        const res = spawnSync(process.execPath, [cli, 'migration:revert'], {
          env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
          encoding: 'utf8',
        });
        assert.equal(res.status, 0, res.stderr);
        console.log(res.stdout.trim());
      }
      server = await start(path.resolve(BEFORE));
      await measure(`before (${BEFORE})`);
    }
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
