import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createProject, createWorkspace, signUp, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** Values outside every sort order's range (±1e12), sent as JSON numbers. */
const OUT_OF_RANGE = [1e308, -1e308, Number.MAX_VALUE, 1e16, -1e16, 1.5e12];
/** JSON numbers that `JSON.parse` turns into ±Infinity. */
const OVERFLOWING_JSON = ['1e999', '-1e999'];

describe('numbers from clients: finite and in range on input; lists survive stored extremes', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  const v1 = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const app = (path: string, pid = project.id) => `/api/workspaces/${ws.slug}/projects/${pid}/${path}`;
  type Method = 'get' | 'post' | 'patch';
  const viaV1 = (method: Method, url: string) => t.api[method](url).set('X-API-Key', key);
  const viaApp = (method: Method, url: string) => t.api[method](url).auth(owner.token, { type: 'bearer' });
  const APIS = [
    {
      name: 'v1',
      call: viaV1,
      base: (path: string, pid?: string) => v1(path, pid),
      ws: (path: string) => `/api/v1/workspaces/${ws.slug}/${path}`,
    },
    {
      name: 'App',
      call: viaApp,
      base: (path: string, pid?: string) => app(path, pid),
      ws: (path: string) => `/api/workspaces/${ws.slug}/${path}`,
    },
  ];

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'NUM', name: 'Numbers' });
  });
  after(() => t.close());

  /** 422 VALIDATION_ERROR naming `field`. */
  const rejected = (res: { status: number; body: unknown }, field: string, what: string) => {
    const body = assertError(res, 422, 'VALIDATION_ERROR');
    assert.ok((body.errors as Record<string, unknown>)[field], `${what}: ${JSON.stringify(body)}`);
  };

  /**
   * Each writable numeric field of a resource: create and update with every out-of-range value
   * (also ±Infinity from an overflowing JSON literal) is a 422 naming the field; nothing changes;
   * the range's ends are accepted.
   */
  const checkField = async (
    api: (typeof APIS)[number],
    collection: string,
    field: string,
    body: () => Record<string, unknown>,
    idOf = (b: { id: string }) => b.id,
  ) => {
    const created = await api.call('post', collection).send(body());
    assert.equal(created.status, 201, `${api.name} ${collection}: ${JSON.stringify(created.body)}`);
    const item = `${collection}${idOf(created.body)}/`;
    for (const value of OUT_OF_RANGE) {
      rejected(
        await api.call('post', collection).send({ ...body(), [field]: value }),
        field,
        `${api.name} POST ${collection} ${value}`,
      );
      rejected(
        await api.call('patch', item).send({ [field]: value }),
        field,
        `${api.name} PATCH ${collection} ${value}`,
      );
    }
    for (const literal of OVERFLOWING_JSON) {
      const raw = JSON.stringify({ ...body(), [field]: 0 }).replace(/:0}$/, `:${literal}}`);
      rejected(
        await api.call('post', collection).set('Content-Type', 'application/json').send(raw),
        field,
        `${api.name} POST ${collection} ${literal}`,
      );
    }
    const after = await api.call('get', item);
    assert.equal(after.status, 200);
    assert.equal(after.body[field], created.body[field], `${api.name} ${collection}: unchanged`);
    for (const edge of [1e12, -1e12]) {
      const ok = await api.call('patch', item).send({ [field]: edge });
      assert.ok(
        [200, 204].includes(ok.status),
        `${api.name} PATCH ${collection} ${edge}: ${ok.status} ${JSON.stringify(ok.body)}`,
      );
      assert.equal((await api.call('get', item)).body[field], edge);
    }
  };

  for (const api of APIS) {
    it(`${api.name}: state sequence and work item sort_order out of ±1e12 (or not finite) are 422 on create and update`, async () => {
      await checkField(api, api.base('states/'), 'sequence', () => ({
        name: unique('state '),
        color: '#000000',
        group: 'started',
      }));
      await checkField(api, api.base('issues/'), 'sort_order', () => ({ name: unique('item ') }));
    });

    it(`${api.name}: label, module, cycle and sticky sort_order out of ±1e12 (or not finite) are 422 on create and update`, async () => {
      await checkField(api, api.base(api.name === 'v1' ? 'labels/' : 'issue-labels/'), 'sort_order', () => ({
        name: unique('label '),
      }));
      await checkField(api, api.base('modules/'), 'sort_order', () => ({ name: unique('module ') }));
      await checkField(api, api.base('cycles/'), 'sort_order', () => ({ name: unique('cycle ') }));
      await checkField(api, api.ws('stickies/'), 'sort_order', () => ({ name: unique('sticky ') }));
    });
  }

  /** Walks a list forwards with `per_page` and back again with the prev cursors; returns the names in list order. */
  const walk = async (call: (typeof APIS)[number]['call'], url: string, perPage: number): Promise<string[]> => {
    const sep = url.includes('?') ? '&' : '?';
    const pages: string[][] = [];
    let cursor: string | null = null;
    let last: { prev_cursor: string | null } | null = null;
    do {
      const res = await call('get', `${url}${sep}per_page=${perPage}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
      pages.push(res.body.results.map((r: { name: string }) => r.name));
      cursor = res.body.next_cursor;
      last = res.body;
    } while (cursor);
    // and back
    const back: string[][] = [pages[pages.length - 1]];
    cursor = last!.prev_cursor;
    while (cursor) {
      const res = await call('get', `${url}${sep}per_page=${perPage}&cursor=${cursor}`);
      assert.equal(res.status, 200, `${url} (back): ${JSON.stringify(res.body)}`);
      back.unshift(res.body.results.map((r: { name: string }) => r.name));
      cursor = res.body.prev_cursor;
    }
    assert.deepEqual(back, pages, `${url}: the walk back gives the same pages`);
    return pages.flat();
  };

  it('states stored with extreme sequences (older versions) list in order in both APIs, page by page', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'SEQ', name: 'Sequences' });
    const set = (name: string, value: number | string) =>
      t.sql(`UPDATE states SET sequence = $1::double precision WHERE project_id = $2 AND name = $3`, [
        String(value),
        pr.id,
        name,
      ]);
    await set('Backlog', 1e308);
    await set('Todo', -1e308);
    await set('In Progress', Number.MAX_VALUE);
    await set('Done', 65535.00001);
    await set('Cancelled', 65535);
    const expected = ['Todo', 'Cancelled', 'Done', 'Backlog', 'In Progress'];
    for (const api of APIS) {
      const all = await api.call('get', api.base('states/', pr.id));
      assert.equal(all.status, 200, `${api.name}: ${JSON.stringify(all.body)}`);
      // the App API answers states as a bare array, as Plane; v1 pages them
      const rows = api.name === 'App' ? all.body : all.body.results;
      assert.deepEqual(
        rows.map((s: { name: string }) => s.name),
        expected,
        api.name,
      );
      if (api.name === 'App') continue;
      for (const perPage of [1, 2])
        assert.deepEqual(
          await walk(api.call, api.base('states/', pr.id), perPage),
          expected,
          `${api.name} per_page=${perPage}`,
        );
    }
  });

  it('work items stored with extreme sort_order (older versions) list by sort_order in both APIs, both directions, page by page', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'SRT', name: 'Sort orders' });
    const values: Array<[string, number]> = [
      ['max', Number.MAX_VALUE],
      ['huge', 1e308],
      ['big', 1e16],
      ['plain', 65535],
      ['half', 65535.0001],
      ['zero', 0],
      ['negative', -1e16],
      ['min', -1e308],
      ['tiny', 1e-9],
    ];
    for (const [name, value] of values) {
      const res = await viaV1('post', v1('work-items/', pr.id)).send({ name });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      await t.sql(`UPDATE issues SET sort_order = $1::double precision WHERE id = $2`, [String(value), res.body.id]);
    }
    const ascending = [...values].sort((a, b) => a[1] - b[1]).map(([name]) => name);
    const descending = [...ascending].reverse();
    for (const api of APIS) {
      for (const [order, expected] of [
        ['sort_order', ascending],
        ['-sort_order', descending],
      ] as const) {
        const url = api.base(`issues/?order_by=${order}`, pr.id);
        const all = await api.call('get', url);
        assert.equal(all.status, 200, `${api.name} ${order}: ${JSON.stringify(all.body)}`);
        assert.deepEqual(
          all.body.results.map((r: { name: string }) => r.name),
          expected,
          `${api.name} ${order}`,
        );
        for (const perPage of [1, 4])
          assert.deepEqual(await walk(api.call, url, perPage), expected, `${api.name} ${order} per_page=${perPage}`);
      }
    }
    // the App API's grouped list pages each group with the same key
    const grouped = await viaApp('get', app('issues/?group_by=priority&order_by=sort_order&per_page=4', pr.id));
    assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
    const none = grouped.body.results.none;
    assert.deepEqual(
      none.results.map((r: { name: string }) => r.name),
      ascending.slice(0, 4),
    );
    const rest = await viaApp(
      'get',
      app(`issues/?group_by=priority&order_by=sort_order&per_page=4&priority=none&cursor=${none.next_cursor}`, pr.id),
    );
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    assert.deepEqual(
      rest.body.results.none.results.map((r: { name: string }) => r.name),
      ascending.slice(4, 8),
    );
  });

  it('the migration ClampStoredSortOrders brings stored values into ±1e12 (NaN and ±Infinity too); in-range rows untouched; down is a no-op', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'CLMP', name: 'Clamp' });
    const made: Record<
      string,
      { url: string; table: string; column: string; field: string; stored: string; expected: number }
    > = {};
    const make = async (
      name: string,
      url: string,
      body: Record<string, unknown>,
      table: string,
      stored: string,
      expected: number,
    ) => {
      const res = await viaV1('post', url).send(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const column = table === 'states' ? 'sequence' : 'sort_order';
      await t.sql(`UPDATE ${table} SET ${column} = $1::double precision WHERE id = $2`, [stored, res.body.id]);
      made[name] = { url: `${url}${res.body.id}/`, table, column, field: column, stored, expected };
    };
    await make('issue', v1('work-items/', pr.id), { name: 'i' }, 'issues', '1e308', 1e12);
    await make('label', v1('labels/', pr.id), { name: 'l' }, 'labels', '-1e308', -1e12);
    await make('module', v1('modules/', pr.id), { name: 'm' }, 'modules', 'Infinity', 1e12);
    await make('cycle', v1('cycles/', pr.id), { name: 'c' }, 'cycles', 'NaN', 1e12);
    await make('sticky', `/api/v1/workspaces/${ws.slug}/stickies/`, { name: 's' }, 'stickies', '-1e16', -1e12);
    await make('state', v1('states/', pr.id), { name: 'st', color: '#000000' }, 'states', '-Infinity', -1e12);
    await make('kept', v1('work-items/', pr.id), { name: 'k' }, 'issues', '999999999999.5', 999999999999.5);
    const [before] = await t.sql<{ updated_at: Date }>(`SELECT updated_at FROM issues WHERE id = $1`, [
      made.issue.url.split('/').at(-2),
    ]);

    // the instance the server's data source loaded (it ran at start, before these rows were spoiled)
    const migration = t.database.dataSource.migrations.find((m) => m.name === 'ClampStoredSortOrders1795597946397');
    assert.ok(migration);
    const runner = t.database.dataSource.createQueryRunner();
    try {
      await migration.up(runner);
      await migration.down(runner);
    } finally {
      await runner.release();
    }
    for (const [name, m] of Object.entries(made)) {
      const res = await viaV1('get', m.url);
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body[m.field], m.expected, name);
    }
    const [afterRow] = await t.sql<{ updated_at: Date }>(`SELECT updated_at FROM issues WHERE id = $1`, [
      made.issue.url.split('/').at(-2),
    ]);
    assert.equal(afterRow.updated_at.getTime(), before.updated_at.getTime());
    const states = await viaV1('get', v1('states/', pr.id));
    assert.equal(states.status, 200);
    assert.equal(states.body.results[0].name, 'st');
  });
});
