import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MemoryPageBookmarks, PAGE_BOOKMARKS, PageBookmark, RedisPageBookmarks } from '#common';
import { addMember, addProjectMember, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Sequential pages by number from bookmarks (docs/decisions.md "Sequential deep pages from
 * bookmarks"): once a page of a list is answered, the next one is read from the key and id of its
 * last row instead of by its offset. Walked page by page as Plane's web app asks (`<per_page>:<n>:0`,
 * one after the other), every page must equal the offset's (the list read as one page, sliced):
 * the workspace list flat and filtered, a project's list, in orders with ties (`created_at`,
 * `sort_order`, priority made equal on purpose) and with nulls (`target_date`, `completed_at`),
 * for an Admin and for a Member who sees some projects. Then what a walk sees when work items are
 * deleted, created or moved between its pages (no row doubled or skipped where the offset would),
 * a page asked past a list that got shorter, and the bookmarks kept in Redis with `REDIS_URL`,
 * shared by every process. Runs on both engines.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
type Row = Record<string, unknown> & { id: string };

/** A workspace of three projects of 12 work items each, with ties and nulls in every order. */
async function seed(t: TestApp) {
  const admin = await signUp(t);
  const member = await signUp(t);
  const ws = await createWorkspace(t, admin.token);
  await addMember(t, ws.id, member.userId, 15);
  const projects: Array<{ id: string }> = [];
  const made: string[] = [];
  for (const identifier of ['ALPHA', 'BETA', 'GAMMA']) {
    const project = await createAppProject(t, admin.token, ws.slug, { identifier, name: identifier });
    projects.push(project);
    if (identifier !== 'GAMMA') await addProjectMember(t, ws.id, project.id, member.userId, 15);
    const states = await t.sql<{ id: string }>(
      'SELECT id FROM states WHERE project_id = $1 AND is_triage = false ORDER BY sequence',
      [project.id],
    );
    for (let n = 0; n < 12; n++) {
      const res = await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/`)
        .auth(admin.token, { type: 'bearer' })
        .send({
          name: `${identifier} ${n}`,
          priority: ['urgent', 'high', 'medium', 'low', 'none'][n % 5],
          state_id: states[n % states.length].id,
          assignee_ids: n % 3 === 0 ? [] : [admin.userId],
          ...(n % 3 === 1 ? { target_date: `2031-0${1 + (n % 4)}-15` } : {}),
        });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      made.push(res.body.id as string);
    }
  }
  // ties: every fourth work item with the fifth's created_at and one sort_order, every fifth
  // from the third with its updated_at
  await t.sql(
    `UPDATE issues i SET
       created_at = CASE WHEN (m.n - 1) % 4 = 1 THEN r.created_at ELSE i.created_at END,
       sort_order = CASE WHEN (m.n - 1) % 4 = 1 THEN 5000 ELSE i.sort_order END,
       updated_at = CASE WHEN (m.n - 1) % 5 = 2 THEN r.updated_at ELSE i.updated_at END
     FROM unnest($1::uuid[]) WITH ORDINALITY AS m(id, n), issues r
     WHERE i.id = m.id AND r.id = $2`,
    [made, made[4]],
  );
  await t.sql(`UPDATE issues SET completed_at = now() WHERE id = ANY($1::uuid[])`, [
    made.filter((_, n) => n % 6 === 0),
  ]);
  return { admin, member, ws, projects };
}

describe('Sequential pages by number from bookmarks', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let ws: { id: string; slug: string };
  let projects: Array<{ id: string }>;
  /** how many pages were read from a bookmark (the app's store, counted where the repository asks it) */
  let hits = 0;
  const w = () => `/api/workspaces/${ws.slug}`;
  const get = async (who: SignedUp, path: string) => {
    const res = await t.api.get(path).auth(who.token, { type: 'bearer' });
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const page = (who: SignedUp, base: string, per: number, n: number) =>
    get(who, `${base}per_page=${per}&cursor=${per}:${n}:0`);
  const whole = async (who: SignedUp, base: string) => (await page(who, base, 1000, 0)).results as Row[];

  before(async () => {
    t = await startTestApp();
    ({ admin, member, ws, projects } = await seed(t));
    const store = t.app.get<MemoryPageBookmarks>(PAGE_BOOKMARKS);
    assert.ok(store instanceof MemoryPageBookmarks);
    const read = store.get.bind(store);
    store.get = (list: string, number: number): PageBookmark | undefined => {
      const mark = read(list, number);
      if (mark) hits++;
      return mark;
    };
  });
  after(() => t.close());

  /** Walks `base` page by page to the end: each page is the offset's, with the offset's envelope. */
  const walk = async (who: SignedUp, base: string, per: number) => {
    const all = await whole(who, base);
    const pages = Math.ceil(all.length / per);
    const before = hits;
    for (let n = 0; n < pages; n++) {
      const got = await page(who, base, per, n);
      const what = `${base} page ${n}`;
      assert.deepEqual(got.results, all.slice(n * per, (n + 1) * per), what);
      assert.equal(got.total_results, all.length, what);
      assert.equal(got.total_pages, pages, what);
      assert.equal(got.next_cursor, n + 1 < pages ? `${per}:${n + 1}:0` : null, what);
      assert.equal(got.next_page_results, n + 1 < pages, what);
      assert.equal(got.prev_cursor, n > 0 ? `${per}:${n - 1}:1` : null, what);
    }
    // every page past the first was read from the bookmark its previous page left
    assert.equal(hits - before, Math.max(0, pages - 1), `${base}: pages read from a bookmark`);
    return all;
  };

  it("a walk page by page: every page the offset's, flat, filtered and a project's, in orders with ties and nulls", async () => {
    // the keys with ties and nulls, both ways where the index differs
    const orders = (
      '-created_at created_at priority -priority sort_order -sort_order target_date -target_date ' +
      '-updated_at sequence_id completed_at -state__group'
    ).split(' ');
    for (const who of [admin, member]) {
      for (const order of orders) {
        const all = await walk(who, `${w()}/issues/?order_by=${order}&`, 5);
        assert.ok(all.length >= (who === admin ? 36 : 24), `${order}: ${all.length}`);
        await walk(who, `${w()}/issues/?order_by=${order}&priority=urgent,high,none&`, 3);
        await walk(who, `${w()}/issues/?order_by=${order}&assignees=${admin.userId}&`, 4);
        await walk(who, `${w()}/projects/${projects[0].id}/issues/?order_by=${order}&`, 5);
      }
    }
    await walk(admin, `${w()}/issues/?order_by=-created_at&state_group=backlog,unstarted&`, 2);
  });

  it('rows deleted, created or moved between pages: the walk goes on from its last row, where the offset would double or skip', async () => {
    const base = `${w()}/issues/?order_by=-created_at&`;
    const ids = (rows: Row[]) => rows.map((r) => r.id);
    const after = (all: Row[], last: string) => all.slice(all.findIndex((r) => r.id === last) + 1);
    const page0 = (await page(admin, base, 4, 0)).results as Row[];
    // one of page 0's work items deleted: the offset's page 1 would start a row later (a skip)
    const gone = page0[1].id;
    const del = await t.api
      .delete(`${w()}/projects/${page0[1].project_id}/issues/${gone}/`)
      .auth(admin.token, { type: 'bearer' });
    assert.equal(del.status, 204);
    let now = await whole(admin, base);
    const page1 = await page(admin, base, 4, 1);
    assert.deepEqual(ids(page1.results), ids(after(now, page0[3].id).slice(0, 4)));
    assert.notDeepEqual(ids(page1.results), ids(now.slice(4, 8)), 'the offset would skip a row');
    assert.equal(page1.total_results, now.length);
    // two work items created (the newest: before the walk's place): the offset's page 2 would
    // repeat a row (one more before it than when page 1 was read)
    for (const name of ['Made during the walk', 'And another']) {
      const made = await t.api
        .post(`${w()}/projects/${projects[2].id}/issues/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ name });
      assert.equal(made.status, 201);
    }
    now = await whole(admin, base);
    const page2 = await page(admin, base, 4, 2);
    const last1 = (page1.results as Row[])[3].id;
    assert.deepEqual(ids(page2.results), ids(after(now, last1).slice(0, 4)));
    assert.notDeepEqual(ids(page2.results), ids(now.slice(8, 12)), 'the offset would repeat a row');
    assert.equal(page2.total_results, now.length);
    // a work item of a later page moved before the walk's place (made older than every other, in
    // reverse: the newest): not met again in this walk, which is left to the next one
    const ahead = after(now, (page2.results as Row[])[3].id)[2];
    await t.sql(`UPDATE issues SET created_at = now() + interval '1 day' WHERE id = $1`, [ahead.id]);
    now = await whole(admin, base);
    const last2 = (page2.results as Row[])[3].id;
    const rest: string[] = [];
    for (let n = 3; ; n++) {
      const got = await page(admin, base, 4, n);
      rest.push(...ids(got.results));
      if (!got.next_cursor) break;
    }
    assert.deepEqual(rest, ids(after(now, last2)));
    assert.ok(!rest.includes(ahead.id));
    // what the walk saw: each work item that did not move once, none twice
    const seen = [...ids(page0), ...ids(page1.results), ...ids(page2.results), ...rest];
    assert.equal(new Set(seen).size, seen.length);
    // a new walk from page 0 is the offset's again
    await walk(admin, base, 4);
  });

  it('a list that got shorter: the page past its new end is empty, not read from a bookmark left by the longer list', async () => {
    const base = `${w()}/issues/?order_by=sort_order&priority=medium&`;
    const all = await walk(admin, base, 2);
    assert.ok(all.length >= 6, `${all.length}`);
    // the first three leave the list: page 2's bookmark of the longer list (after its 4th row) is
    // still there, with rows after it
    await t.sql(`UPDATE issues SET priority = 'low' WHERE id = ANY($1::uuid[])`, [all.slice(0, 3).map((r) => r.id)]);
    const shorter = await walk(admin, base, 2);
    assert.deepEqual(shorter, all.slice(3));
    const pages = Math.ceil(shorter.length / 2);
    const past = await page(admin, base, 2, pages);
    assert.deepEqual(past.results, []);
    assert.equal(past.next_cursor, null);
    assert.equal(past.total_results, shorter.length);
  });
});

describe('Page bookmarks on Redis (REDIS_URL)', async () => {
  const reachable = await new Promise<boolean>((resolve) => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, retryStrategy: () => null });
    client.on('error', () => undefined);
    client.connect().then(
      () => (client.disconnect(), resolve(true)),
      () => resolve(false),
    );
  });
  const skip = reachable ? false : `Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL)`;
  const prefix = `meridian-test:${randomBytes(6).toString('hex')}:`;
  let t: TestApp;
  let redis: Redis;

  before(async () => {
    if (skip) return;
    t = await startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    if (skip) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await t.close();
  });

  it(
    'a walk reads its pages from bookmarks in Redis, which another process reads too, each with a TTL',
    { skip },
    async () => {
      assert.ok(t.app.get(PAGE_BOOKMARKS) instanceof RedisPageBookmarks);
      const { admin, ws } = await seed(t);
      const base = `/api/workspaces/${ws.slug}/issues/?order_by=priority&`;
      const get = async (path: string) => {
        const res = await t.api.get(path).auth(admin.token, { type: 'bearer' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      const all = (await get(`${base}per_page=1000&cursor=1000:0:0`)).results as Row[];
      for (let n = 0; n * 5 < all.length; n++) {
        const got = await get(`${base}per_page=5&cursor=5:${n}:0`);
        assert.deepEqual(got.results, all.slice(n * 5, n * 5 + 5), `page ${n}`);
      }
      // one key per page past the first, `<prefix>page:<list>:<n>`, kept at most the TTL
      const keys = (await redis.keys(`${prefix}page:*`)).sort();
      assert.equal(keys.length, Math.ceil(all.length / 5) - 1);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        assert.ok(ttl > 0 && ttl <= 5 * 60_000, `${key}: ${ttl}`);
      }
      // another process (its own client) reads where page 1 starts: after page 0's last row
      const [, list] = /page:(.+):1$/.exec(keys.find((k) => k.endsWith(':1'))!)!;
      const other = new RedisPageBookmarks(REDIS_URL, prefix);
      try {
        assert.ok(await other.connected());
        const mark = await other.get(list, 1);
        assert.equal(mark?.id, all[4].id);
      } finally {
        await other.close();
      }
    },
  );
});
