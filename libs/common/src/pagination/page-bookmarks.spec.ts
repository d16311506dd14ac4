// Page bookmarks in memory, the list's identity, and a page read from its bookmark (no database).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bookmarkedPageSql, bookmarkListId, paginateSql, SqlKeysetList, SqlRunner } from './keyset-sql';
import { MemoryPageBookmarks } from './page-bookmarks';

const LIST: SqlKeysetList = {
  select: 'i.id',
  from: 'FROM issues i WHERE i.workspace_id = $1',
  params: ['w1'],
  key: 'i.created_at',
  id: 'i.id',
  order: 'DESC',
};

describe('MemoryPageBookmarks', () => {
  it('keeps at most its bound, dropping the least recently used', () => {
    const marks = new MemoryPageBookmarks(60_000, 3);
    for (const n of [1, 2, 3]) marks.set('l', n, { key: `k${n}`, id: `i${n}` });
    assert.deepEqual(marks.get('l', 1), { key: 'k1', id: 'i1' }); // 1 is now the most recent
    marks.set('l', 4, { key: 'k4', id: 'i4' });
    assert.equal(marks.size, 3);
    assert.equal(marks.get('l', 2), undefined);
    assert.deepEqual(marks.get('l', 1), { key: 'k1', id: 'i1' });
    assert.deepEqual(marks.get('l', 4), { key: 'k4', id: 'i4' });
    marks.forget('l', 4);
    assert.equal(marks.get('l', 4), undefined);
    assert.equal(marks.get('other', 1), undefined);
  });

  it('forgets a bookmark once its time has passed', () => {
    const marks = new MemoryPageBookmarks(0, 10);
    marks.set('l', 1, { key: 'k', id: 'i' });
    assert.equal(marks.get('l', 1), undefined);
    assert.equal(marks.size, 0);
  });
});

describe('bookmarkListId', () => {
  it('differs with anything that decides the rows or their order, and the page size', () => {
    const id = bookmarkListId(LIST, 100);
    assert.equal(bookmarkListId({ ...LIST, params: ['w1'] }, 100), id);
    assert.notEqual(bookmarkListId({ ...LIST, params: ['w2'] }, 100), id);
    assert.notEqual(bookmarkListId({ ...LIST, from: `${LIST.from} AND i.priority = $2` }, 100), id);
    assert.notEqual(bookmarkListId({ ...LIST, key: 'i.sort_order' }, 100), id);
    assert.notEqual(bookmarkListId({ ...LIST, order: 'ASC' }, 100), id);
    assert.notEqual(bookmarkListId(LIST, 50), id);
  });
});

describe('bookmarkedPageSql', () => {
  it("reads the rows after the bookmark's key and id in the list's order", () => {
    const desc = bookmarkedPageSql(LIST, { key: '2026-01-01 00:00:00.123456+00', id: 'x' });
    assert.equal(desc.from, 'FROM issues i WHERE i.workspace_id = $1 AND (i.created_at, i.id) < ($2, $3)');
    assert.equal(desc.ordered, 'ORDER BY i.created_at DESC, i.id DESC');
    assert.deepEqual(desc.params, ['w1', '2026-01-01 00:00:00.123456+00', 'x']);
    assert.match(bookmarkedPageSql({ ...LIST, order: 'ASC' }, { key: '1', id: 'x' }).from, /\) > \(\$2, \$3\)$/);
  });
});

describe('paginateSql with bookmarks', () => {
  /** answers a page with `rows` (each with the bookmark's columns) and the count with `total` */
  const runner = (rows: Array<Record<string, unknown>>, total: number) => {
    const seen: string[] = [];
    const run: SqlRunner = (sql) => {
      seen.push(sql);
      return Promise.resolve(sql.startsWith('SELECT COUNT(*)') ? [{ n: total }] : rows);
    };
    return { run, seen };
  };
  const row = (n: number) => ({ id: `i${n}`, __mark_key: `k${n}`, __mark_id: `i${n}` });

  it("remembers the next page's start, reads it from there, and forgets it after the last page", async () => {
    const marks = new MemoryPageBookmarks();
    const list = { ...LIST, bookmarks: marks };
    const id = bookmarkListId(LIST, 2);
    // page 0: by offset (none before it); page 1's start is its last row
    const first = runner([row(1), row(2), row(3)], 5);
    const page0 = await paginateSql(list, { perPage: 2, number: 0 }, first.run, (r) => r.id);
    assert.deepEqual(page0.results, ['i1', 'i2']);
    assert.equal(page0.nextCursor, '2:1:0');
    assert.deepEqual(marks.get(id, 1), { key: 'k2', id: 'i2' });
    assert.doesNotMatch(first.seen[0], /OFFSET/);
    // page 1: from the bookmark, no walk to its offset
    const second = runner([row(3), row(4), row(5)], 5);
    await paginateSql(list, { perPage: 2, number: 1 }, second.run, (r) => r.id);
    assert.match(second.seen[0], /AND \(i\.created_at, i\.id\) < \(\$2, \$3\) ORDER BY/);
    assert.doesNotMatch(second.seen[0], /OFFSET/);
    assert.deepEqual(marks.get(id, 2), { key: 'k4', id: 'i4' });
    // page 2 unknown (another process answered page 1): by its offset; the last page, so a
    // bookmark of page 3 left by a longer list is dropped
    marks.forget(id, 2);
    marks.set(id, 3, { key: 'stale', id: 'stale' });
    const third = runner([row(5)], 5);
    const page2 = await paginateSql(list, { perPage: 2, number: 2 }, third.run, (r) => r.id);
    assert.equal(page2.nextCursor, null);
    assert.match(third.seen[0], /OFFSET \$2 LIMIT 1/);
    assert.equal(marks.get(id, 3), undefined);
  });
});
