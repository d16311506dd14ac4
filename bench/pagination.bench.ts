/**
 * Pagination cost: first page vs a deep page, through HTTP, on the engine selected like the tests
 * (BENCH_DATABASE_URL → PostgreSQL, else embedded PGlite). Also times the OFFSET query a page-number
 * paginator (Plane's) would run for the same deep page, for comparison.
 *
 *   npm run build && node dist/bench/pagination.bench.js [rows=20000] [perPage=100]
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { createApiKey, createWorkspace, signUp } from '../test/support/fixtures';
import { startTestApp } from '../test/support/test-app';

async function main() {
  const rows = Number(process.argv[2] ?? 20_000);
  const perPage = Number(process.argv[3] ?? 100);
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete process.env.TEST_DATABASE_URL;
  const t = await startTestApp({ API_KEY_RATE_LIMIT: '1000000' });
  try {
    const u = await signUp(t);
    const ws = await createWorkspace(t, u.token);
    const key = await createApiKey(t, u.token, ws.slug);
    await t.sql(
      `INSERT INTO projects (workspace_id, name, identifier, network, created_at)
       SELECT $1, 'Project ' || i, 'P' || i, 2, now() - (($2 - i) * interval '1 millisecond')
       FROM generate_series(1, $2) AS i`,
      [ws.id, rows],
    );
    await t.sql('ANALYZE projects');
    const deepIndex = rows - 2 * perPage;
    const [boundary] = await t.sql<{ us: string; id: string }>(
      `SELECT FLOOR(EXTRACT(EPOCH FROM created_at) * 1000000)::bigint AS us, id FROM projects
       WHERE workspace_id = $1 ORDER BY created_at, id OFFSET $2 LIMIT 1`,
      [ws.id, deepIndex],
    );
    const deepCursor = `${boundary.us}:0:0`;
    const path = `/api/v1/workspaces/${ws.slug}/projects/?per_page=${perPage}`;

    const time = async (label: string, fn: () => Promise<unknown>, runs = 30) => {
      for (let i = 0; i < 3; i++) await fn();
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await fn();
        samples.push(performance.now() - start);
      }
      samples.sort((a, b) => a - b);
      const p50 = samples[Math.floor(runs / 2)];
      const p90 = samples[Math.floor(runs * 0.9)];
      console.log(`${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   p90 ${p90.toFixed(1).padStart(7)} ms`);
      return p50;
    };

    console.log(`engine=${process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded'} rows=${rows} per_page=${perPage}`);
    const first = await time('HTTP first page', async () => {
      const res = await t.api.get(path).set('X-API-Key', key);
      if (res.status !== 200 || res.body.count !== perPage) throw new Error(JSON.stringify(res.body).slice(0, 200));
    });
    const deep = await time(`HTTP page at row ${deepIndex} (keyset cursor)`, async () => {
      const res = await t.api.get(`${path}&cursor=${deepCursor}`).set('X-API-Key', key);
      if (res.status !== 200 || res.body.count !== perPage) throw new Error(JSON.stringify(res.body).slice(0, 200));
    });
    await time('SQL keyset page (the page query alone)', () =>
      t.sql(
        `SELECT id FROM projects WHERE workspace_id = $1 AND deleted_at IS NULL
         AND created_at >= TIMESTAMPTZ 'epoch' + $2::bigint * INTERVAL '1 microsecond'
         ORDER BY created_at, id LIMIT $3`,
        [ws.id, boundary.us, perPage + 1],
      ),
    );
    await time('SQL OFFSET page (page-number paginator)', () =>
      t.sql(
        `SELECT id FROM projects WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id OFFSET $2 LIMIT $3`,
        [ws.id, deepIndex, perPage + 1],
      ),
    );
    console.log(`deep/first ratio (HTTP p50): ${(deep / first).toFixed(2)}`);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
