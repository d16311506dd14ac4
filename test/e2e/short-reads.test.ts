import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

interface Pool {
  connect(): Promise<{ release(err?: Error): void }>;
  waitingCount: number;
}

interface Seeded {
  t: TestApp;
  key: string;
  items: string;
  created: Array<{ id: string; name: string }>;
  pool: Pool;
}

/** An app with the pool of 1 (as the embedded engine has) and 8 work items in a project. */
async function seeded(env: Record<string, string> = {}): Promise<Seeded> {
  const t = await startTestApp({ DATABASE_POOL_SIZE: '1', ...env });
  const owner = await signUp(t);
  const slug = (await createWorkspace(t, owner.token)).slug;
  const key = await createApiKey(t, owner.token, slug);
  const project = await createProject(t, key, slug);
  const items = `/api/v1/workspaces/${slug}/projects/${project.id}/work-items/`;
  const created: Seeded['created'] = [];
  for (let i = 0; i < 8; i++) {
    const res = await t.api
      .post(items)
      .set('X-API-Key', key)
      .send({ name: `Read ${i}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    created.push(res.body);
  }
  const pool = (t.database.dataSource.driver as unknown as { master: Pool }).master;
  return { t, key, items, created, pool };
}

/**
 * Short reads first and together (`hotRead`, `DATABASE_SHORT_READS_FIRST`; docs/decisions.md
 * "Embedded database off the main thread"): with the pool's one connection busy, single reads that
 * queue meanwhile run together once it is free (in pipeline mode over a stream), ahead of the list
 * statements queued before them, and each gets its own answer. Both engines (PostgreSQL with a pool
 * of 1, so that reads queue as on the embedded engine).
 */
describe('short reads first, together', () => {
  // one application at a time: a second one started in the same process while the first still
  // serves makes the first one's API keys unknown to it (seen with or without this setting)
  for (const first of [true, false]) {
    describe(`DATABASE_SHORT_READS_FIRST=${first}`, () => {
      let app: Seeded;
      before(async () => {
        app = await seeded(first ? {} : { DATABASE_SHORT_READS_FIRST: 'false' });
      });
      after(() => app?.t.close());

      it('reads queued behind a busy connection each get their own answer, lists too', async () => {
        const { t, key, items, created, pool } = app;
        const get = (path: string) => fetch(`${t.url}${path}`, { headers: { 'x-api-key': key } });
        const held = await pool.connect();
        let reads: Array<Promise<Response>>;
        let lists: Array<Promise<Response>>;
        const ids = [...created.map((c) => c.id), '00000000-0000-4000-8000-000000000000'];
        try {
          // lists first, then single reads (a missing one among them): all wait for the held connection
          lists = Array.from({ length: 3 }, () => get(`${items}?per_page=3`));
          await new Promise((r) => setTimeout(r, 100));
          reads = [...ids, ...ids].map((id) => get(`${items}${id}/`));
          for (let i = 0; i < 100 && pool.waitingCount < 1; i++) await new Promise((r) => setTimeout(r, 20));
          // the reads (and the lists' credential lookups) wait together: one acquisition at least
          assert.ok(pool.waitingCount >= 1, `acquisitions queued: ${pool.waitingCount}`);
          await new Promise((r) => setTimeout(r, 200));
        } finally {
          held.release();
        }
        const answers = await Promise.all(reads);
        for (const [i, res] of answers.entries()) {
          const id = ids[i % ids.length];
          const body = (await res.json()) as { id?: string; name?: string };
          if (id.startsWith('00000000')) {
            assert.equal(res.status, 404, JSON.stringify(body));
            continue;
          }
          assert.equal(res.status, 200, JSON.stringify(body));
          assert.equal(body.id, id);
          assert.equal(body.name, created.find((c) => c.id === id)!.name);
        }
        for (const res of await Promise.all(lists)) {
          assert.equal(res.status, 200);
          const body = (await res.json()) as { total_count: number; results: unknown[] };
          assert.equal(body.total_count, 8);
          assert.equal(body.results.length, 3);
        }
      });

      if (first)
        it('the connection is not left in pipeline mode: writes in a transaction after a batch of reads', async () => {
          const { t, key, items, created, pool } = app;
          const held = await pool.connect();
          let reads: Array<Promise<Response>>;
          try {
            reads = created.map((c) => fetch(`${t.url}${items}${c.id}/`, { headers: { 'x-api-key': key } }));
            await new Promise((r) => setTimeout(r, 200));
          } finally {
            held.release();
          }
          for (const res of await Promise.all(reads)) assert.equal(res.status, 200);
          const res = await t.api.post(items).set('X-API-Key', key).send({ name: 'After the batch' });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          const patched = await t.api.patch(`${items}${res.body.id}/`).set('X-API-Key', key).send({ priority: 'low' });
          assert.equal(patched.status, 200, JSON.stringify(patched.body));
        });
    });
  }
});
