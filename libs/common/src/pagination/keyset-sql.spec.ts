// The SQL paginator's statements and pages, over a runner that answers as a database would (no database).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberedPageSql, paginateSql, SqlKeysetList, SqlRunner } from './keyset-sql';

const LIST: SqlKeysetList = {
  select: 'i.id, i.name',
  from: 'FROM issues i WHERE i.project_id = $1',
  params: ['p1'],
  key: 'i.created_at',
  id: 'i.id',
  order: 'DESC',
};

/** What a page holds of a row here: its id (the paginator's columns stay on the row as read). */
const byId = (r: Record<string, unknown>) => ({ id: r.id });

/** A runner that records each statement and answers the count with `total`, any other with `rows`. */
function runner(rows: Array<Record<string, unknown>>, total: number) {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const run: SqlRunner = (sql, params) => {
    seen.push({ sql, params });
    return Promise.resolve(sql.startsWith('SELECT COUNT(*)') ? [{ n: total }] : rows.map((r) => ({ ...r })));
  };
  return { run, seen };
}

describe('paginateSql', () => {
  it("every row in list order, in one statement, for Plane's bare array", async () => {
    const { run, seen } = runner([{ id: 'a' }, { id: 'b' }], 2);
    const page = await paginateSql(LIST, { perPage: 100, all: true }, run, byId);
    assert.deepEqual(page.results, [{ id: 'a' }, { id: 'b' }]);
    assert.equal(page.nextCursor, null);
    assert.equal(seen.length, 1);
    assert.equal(
      seen[0].sql,
      'SELECT i.id, i.name FROM issues i WHERE i.project_id = $1 ORDER BY i.created_at DESC, i.id DESC',
    );
    assert.deepEqual(seen[0].params, ['p1']);
  });

  it("a page by number: from its start key (a walk of key and id to the offset), one row more than the page, bound as parameters; Plane's page cursors", async () => {
    const fetched = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const { run, seen } = runner(fetched, 25);
    const page = await paginateSql(LIST, { perPage: 2, number: 3 }, run, byId);
    assert.deepEqual(page.results, [{ id: 'a' }, { id: 'b' }], 'the extra row only says there is more');
    assert.equal(page.totalCount, 25);
    assert.equal(page.nextCursor, '2:4:0');
    assert.equal(page.prevCursor, '2:2:1');
    const read = seen.find((s) => s.sql.includes('OFFSET'))!;
    assert.equal(
      read.sql,
      'SELECT i.id, i.name FROM issues i WHERE i.project_id = $1 AND (i.created_at, i.id) <= (SELECT i.created_at, i.id ' +
        'FROM issues i WHERE i.project_id = $1 ORDER BY i.created_at DESC, i.id DESC OFFSET $2 LIMIT 1) ' +
        'ORDER BY i.created_at DESC, i.id DESC LIMIT $3',
    );
    assert.deepEqual(read.params, ['p1', 6, 3]);

    // the first page: no walk
    const { run: run0, seen: seen0 } = runner([{ id: 'a' }], 1);
    const last = await paginateSql(LIST, { perPage: 2, number: 0 }, run0, byId);
    assert.equal(last.nextCursor, null);
    assert.equal(last.prevCursor, null);
    assert.equal(
      seen0.find((s) => !s.sql.startsWith('SELECT COUNT'))!.sql,
      'SELECT i.id, i.name FROM issues i WHERE i.project_id = $1 ORDER BY i.created_at DESC, i.id DESC LIMIT $2',
    );
  });

  it('a page by number with `pageColumns`: computed over the cut page in the same statement, its size written in the text, ordered again outside', async () => {
    const { run, seen } = runner(
      [
        { id: 'a', v: 1 },
        { id: 'b', v: 2 },
        { id: 'c', v: 3 },
      ],
      25,
    );
    const list = { ...LIST, pageColumns: '(SELECT 1) AS v' };
    const page = await paginateSql(list, { perPage: 2, number: 3 }, run, (r) => ({ id: r.id, v: r.v }));
    assert.deepEqual(page.results, [
      { id: 'a', v: 1 },
      { id: 'b', v: 2 },
    ]);
    assert.equal(page.totalCount, 25);
    assert.equal(seen.length, 2, 'the page and its total');
    const read = seen.find((s) => s.sql.includes('OFFSET'))!;
    assert.equal(
      read.sql,
      'SELECT i.*, (SELECT 1) AS v FROM (SELECT i.id, i.name, i.created_at AS __order_key, i.id AS __order_id ' +
        'FROM issues i WHERE i.project_id = $1 AND (i.created_at, i.id) <= (SELECT i.created_at, i.id ' +
        'FROM issues i WHERE i.project_id = $1 ORDER BY i.created_at DESC, i.id DESC OFFSET $2 LIMIT 1) ' +
        'ORDER BY i.created_at DESC, i.id DESC LIMIT 3) i ORDER BY i.__order_key DESC, i.__order_id DESC',
    );
    assert.deepEqual(read.params, ['p1', 6], 'the LIMIT is not bound');
  });

  it('a first keyset page: the cursor key is read with the rows and not answered', async () => {
    const { run, seen } = runner(
      [
        { id: 'a', __cursor_key: '300' },
        { id: 'b', __cursor_key: '200' },
      ],
      2,
    );
    const page = await paginateSql(LIST, { perPage: 5 }, run, byId);
    assert.deepEqual(page.results, [{ id: 'a' }, { id: 'b' }]);
    assert.equal(page.nextCursor, null, 'no row past the page');
    assert.match(seen[0].sql, /FLOOR\(EXTRACT\(EPOCH FROM i\.created_at\) \* 1000000\)::bigint AS __cursor_key/);
    assert.deepEqual(seen[0].params, ['p1', 6]);
  });
});

describe('numberedPageSql', () => {
  it("the first page: the list's own FROM and values, in its order", () => {
    assert.deepEqual(numberedPageSql(LIST, 0), {
      from: 'FROM issues i WHERE i.project_id = $1',
      ordered: 'ORDER BY i.created_at DESC, i.id DESC',
      params: ['p1'],
    });
  });

  it("a later page: from the row the walk reaches, the rows before it bound after the list's values", () => {
    const list = { ...LIST, key: 'i.sort_order', order: 'ASC' as const, params: ['p1', 'x'] };
    const page = numberedPageSql(list, 60);
    assert.equal(
      page.from,
      'FROM issues i WHERE i.project_id = $1 AND (i.sort_order, i.id) >= (SELECT i.sort_order, i.id ' +
        'FROM issues i WHERE i.project_id = $1 ORDER BY i.sort_order ASC, i.id ASC OFFSET $3 LIMIT 1)',
    );
    assert.equal(page.ordered, 'ORDER BY i.sort_order ASC, i.id ASC');
    assert.deepEqual(page.params, ['p1', 'x', 60]);
    assert.deepEqual(list.params, ['p1', 'x'], "the list's values are not changed");
  });
});
