import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

interface Envelope {
  results: Array<{ id: string }>;
  next_cursor: string | null;
  prev_cursor: string | null;
  next_page_results: boolean;
  prev_page_results: boolean;
  count: number;
  total_count: number;
}

describe('cursor pagination (docs/reference/http-interface.md §8) over 250 projects', () => {
  let t: TestApp;
  let key: string;
  let slug: string;
  let created: string[];
  const list = async (query: string): Promise<Envelope> => {
    const res = await t.api.get(`/api/v1/workspaces/${slug}/projects/?${query}`).set('X-API-Key', key);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Envelope;
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    const u = await signUp(t);
    const ws = await createWorkspace(t, u.token);
    slug = ws.slug;
    key = await createApiKey(t, u.token, slug);
    created = [];
    for (let i = 0; i < 250; i++)
      created.push((await createProject(t, key, slug, { identifier: `P${i}`, name: `Project ${i}` })).id);
  });
  after(() => t.close());

  it('walks 250 projects in pages of 20, each exactly once, in creation order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`per_page=20${cursor ? `&cursor=${cursor}` : ''}`);
      if (pages === 0) assert.equal(page.prev_cursor, null);
      else assert.notEqual(page.prev_cursor, null);
      assert.equal(page.total_count, 250);
      assert.equal(page.count, page.results.length);
      if (page.next_cursor) assert.match(page.next_cursor, /^\d+:\d+:0$/);
      seen.push(...page.results.map((p) => p.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 13);
    assert.deepEqual(seen, created);
  });

  it('never repeats or skips an existing project when projects are inserted mid-walk', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let step = 0;
    do {
      const page = await list(`per_page=20${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.results.map((p) => p.id));
      cursor = page.next_cursor;
      if (step++ < 5) await createProject(t, key, slug, { identifier: `MID${step}`, name: `Mid ${step}` });
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no project twice');
    for (const id of created) assert.ok(seen.includes(id), `existing project ${id} seen`);
  });

  it('walks back with prev_cursor to the same pages', async () => {
    const first = await list('per_page=20');
    const second = await list(`per_page=20&cursor=${first.next_cursor}`);
    const third = await list(`per_page=20&cursor=${second.next_cursor}`);
    const back = await list(`per_page=20&cursor=${third.prev_cursor}`);
    assert.deepEqual(
      back.results.map((p) => p.id),
      second.results.map((p) => p.id),
    );
    const start = await list(`per_page=20&cursor=${back.prev_cursor}`);
    assert.deepEqual(
      start.results.map((p) => p.id),
      first.results.map((p) => p.id),
    );
    assert.equal(start.prev_cursor, null);
    assert.equal(start.prev_page_results, false);
  });

  it('keeps rows with the same timestamp apart through the offset part of the cursor', async () => {
    // give ten projects one timestamp: the cursor's offset must still split them exactly
    const tied = created.slice(100, 110);
    await t.sql(
      `UPDATE projects SET created_at = (SELECT created_at FROM projects WHERE id = $1) WHERE id = ANY($2::uuid[])`,
      [tied[0], tied],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`per_page=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.results.map((p) => p.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length);
    for (const id of created) assert.ok(seen.includes(id));
  });

  it('ends with next_cursor null on the last page and an empty page past the end', async () => {
    const all = await list('per_page=1000');
    assert.equal(all.next_cursor, null);
    assert.equal(all.next_page_results, false);
    const last = all.results.length;
    const tail = await list(`per_page=${last - 1}`);
    const end = await list(`per_page=${last - 1}&cursor=${tail.next_cursor}`);
    assert.equal(end.count, 1);
    assert.equal(end.next_cursor, null);
  });

  it('answers malformed cursors and per_page with 400', async () => {
    const path = `/api/v1/workspaces/${slug}/projects/`;
    for (const cursor of ['abc', '1:2', '1:2:3', '1:2:0:4', '-1:0:0', '1.5:0:0', '99999999999999999:0:0', '1:x:0']) {
      assertError(
        await t.api.get(`${path}?cursor=${encodeURIComponent(cursor)}`).set('X-API-Key', key),
        400,
        'INVALID_CURSOR',
      );
    }
    for (const perPage of ['abc', '1.5', '0', '-1', '1001']) {
      assertError(await t.api.get(`${path}?per_page=${perPage}`).set('X-API-Key', key), 400, 'INVALID_PER_PAGE');
    }
    const defaults = await list('');
    assert.equal(defaults.count, defaults.total_count, 'v1 default page size is 1000');
  });
});
