/**
 * The web app's first load of a project (`v2/issues/`, issue #40): Plane's web app fills its local
 * cache page by page (pages of 500 with descriptions, the first page, then all the others six at a
 * time as a browser sends them). Seeds `--items` work items in one project on PostgreSQL, starts
 * Meridian as `npm run start:prod` does, and replays that sync `--rounds` times: total seconds,
 * the server's max RSS (VmHWM) and CPU. Baseline in the same run, on the same connection: the
 * pages' statements alone, as the offset pages before issue #40 read them (`OFFSET n LIMIT 500`)
 * and as the keyset pages read them now (from each page's start key), replayed six at a time, and
 * the first and the last page of each.
 *
 *   npm run build && node dist/bench/sync.bench.js --items 100000 [--rounds 3] [--per-page 500]
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { benchHeader, cpuMs, http, median, opt, scratchDatabase, setUp, startServer, statusKiB } from './harness';
import { postgresSeedConnection, seedProject } from './seed';

const ITEMS = Number(opt('items', '100000'));
const ROUNDS = Number(opt('rounds', '3'));
const PER = Number(opt('per-page', '500'));
const PARALLEL = 6;

/** Pages 1..pages-1, `PARALLEL` at a time, through `get`. */
async function rest(pages: number, get: (p: number) => Promise<void>): Promise<void> {
  let next = 1;
  const worker = async () => {
    while (next < pages) await get(next++);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

const VISIBLE = `FROM issues i JOIN projects p ON p.id = i.project_id AND p.deleted_at IS NULL AND p.archived_at IS NULL
WHERE i.project_id = $1 AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
AND i.id NOT IN (SELECT ii.issue_id FROM intake_issues ii WHERE ii.project_id = $1 AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;

async function main() {
  console.log(benchHeader('sync.bench'));
  const db = await scratchDatabase('meridian_bench_sync');
  try {
    const env = { DATABASE_URL: db.url };
    const first = await startServer({ mode: 'start:prod', node: process.execPath, env });
    const t = await setUp(first.base);
    const t0 = performance.now();
    await seedProject(t, first, ITEMS - 200, () => postgresSeedConnection(db.url));
    console.log(`seeded ${ITEMS} work items in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const server = await startServer({ mode: 'start:prod', node: process.execPath, env });
    const auth = { authorization: `Bearer ${t.token}` };
    const path = (p: number) =>
      `/api/workspaces/${t.slug}/projects/${t.projectId}/v2/issues/?cursor=${PER}:${p}:0&description=true`;
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const cpu0 = cpuMs(server.pid);
        const start = performance.now();
        let rows = 0;
        let bytes = 0;
        const get = async (p: number) => {
          const res = await http(server.base, 'GET', path(p), undefined, auth);
          assert.equal(res.status, 200, res.body.slice(0, 300));
          rows += (JSON.parse(res.body) as { page_count: number }).page_count;
          bytes += res.body.length;
        };
        const firstPage = await http(server.base, 'GET', path(0), undefined, auth);
        assert.equal(firstPage.status, 200, firstPage.body.slice(0, 300));
        const { total_pages: pages, page_count: n } = firstPage.json() as { total_pages: number; page_count: number };
        rows += n;
        bytes += firstPage.body.length;
        await rest(pages, get);
        const secs = (performance.now() - start) / 1000;
        assert.equal(rows, ITEMS, `a sync reads every work item once (${rows})`);
        console.log(
          `HTTP sync round ${round}: ${pages} pages, ${rows} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${secs.toFixed(2)} s; ` +
            `server CPU ${((cpuMs(server.pid) - cpu0) / 1000).toFixed(2)} s; max RSS ${(statusKiB(server.pid, 'VmHWM') / 1024).toFixed(0)} MiB`,
        );
      }
    } finally {
      await server.stop();
    }

    // the pages' statements alone: before (offset) and after (keyset)
    const pg = await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const c = new Client({ connectionString: db.url });
        await c.connect();
        return c;
      }),
    );
    try {
      const cols = 'i.*';
      const keys = (
        await pg[0].query(
          `SELECT u, id FROM (SELECT i.updated_at::text AS u, i.id::text AS id, row_number() OVER (ORDER BY i.updated_at, i.id) AS n ${VISIBLE}) k
           WHERE (n - 1) % $2 = 0 ORDER BY n`,
          [t.projectId, PER],
        )
      ).rows as Array<{ u: string; id: string }>;
      const offsetPage = (c: Client, p: number) =>
        c.query(`SELECT ${cols} ${VISIBLE} ORDER BY i.updated_at, i.id OFFSET $2 LIMIT $3`, [
          t.projectId,
          p * PER,
          PER,
        ]);
      const keysetPage = (c: Client, p: number) =>
        p + 1 < keys.length
          ? c.query(
              `SELECT ${cols} ${VISIBLE} AND (i.updated_at, i.id) >= ($2::timestamptz, $3::uuid) AND (i.updated_at, i.id) < ($4::timestamptz, $5::uuid) ORDER BY i.updated_at, i.id LIMIT $6`,
              [t.projectId, keys[p].u, keys[p].id, keys[p + 1].u, keys[p + 1].id, PER],
            )
          : c.query(
              `SELECT ${cols} ${VISIBLE} AND (i.updated_at, i.id) >= ($2::timestamptz, $3::uuid) ORDER BY i.updated_at, i.id LIMIT $4`,
              [t.projectId, keys[p].u, keys[p].id, PER],
            );
      const one = async (f: (c: Client, p: number) => Promise<unknown>, p: number) => {
        const samples: number[] = [];
        for (let i = 0; i < 5; i++) {
          const s = performance.now();
          await f(pg[0], p);
          samples.push(performance.now() - s);
        }
        return median(samples);
      };
      const replay = async (f: (c: Client, p: number) => Promise<unknown>) => {
        const s = performance.now();
        await f(pg[0], 0);
        let next = 1;
        await Promise.all(
          pg.map(async (c) => {
            while (next < keys.length) await f(c, next++);
          }),
        );
        return (performance.now() - s) / 1000;
      };
      const last = keys.length - 1;
      for (let round = 1; round <= ROUNDS; round++) {
        const [o, k] = round % 2 ? [await replay(offsetPage), await replay(keysetPage)] : [0, 0];
        const [k2, o2] = round % 2 ? [0, 0] : [await replay(keysetPage), await replay(offsetPage)];
        console.log(
          `SQL replay round ${round} (${keys.length} pages, ${PARALLEL} at a time): offset ${(o || o2).toFixed(2)} s, keyset ${(k || k2).toFixed(2)} s`,
        );
      }
      const [o0, oN, k0, kN] = [
        await one(offsetPage, 0),
        await one(offsetPage, last),
        await one(keysetPage, 0),
        await one(keysetPage, last),
      ];
      console.log(
        `SQL page ${last}/page 0 (median of 5): offset ${oN.toFixed(1)}/${o0.toFixed(1)} ms = ${(oN / o0).toFixed(2)}x; ` +
          `keyset ${kN.toFixed(1)}/${k0.toFixed(1)} ms = ${(kN / k0).toFixed(2)}x`,
      );
      const start = performance.now();
      await pg[0].query(
        `SELECT u, id FROM (SELECT i.updated_at::text AS u, i.id::text AS id, row_number() OVER (ORDER BY i.updated_at, i.id) AS n ${VISIBLE}) k WHERE (n - 1) % $2 = 0`,
        [t.projectId, PER],
      );
      console.log(`SQL start keys of every page: ${(performance.now() - start).toFixed(1)} ms`);
    } finally {
      await Promise.all(pg.map((c) => c.end()));
    }
  } finally {
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
