import { createHash } from 'node:crypto';
import { MeridianError } from '../errors/meridian.error';
import { Cursor, formatCursor } from './cursor';
import { doubleSortKey } from './double-key';
import { Page, pageNumberCursors, PageRequest } from './page';
import type { PageBookmark, PageBookmarks } from './page-bookmarks';

/**
 * A list for `paginateSql`: plain SQL fragments with `$1…$n` placeholders, so that hot lists
 * build their statements with string concatenation (no query builder, no escaping pass) and the
 * same text is sent on every request (PostgreSQL caches the plan of a named statement).
 */
export interface SqlKeysetList {
  /** the select list of a page row, e.g. `i.id, i.name` */
  select: string;
  /**
   * `FROM … WHERE …` (must contain a WHERE clause; conditions are appended with `AND`). The joins
   * must not duplicate rows: the total is `COUNT(*)`, not `COUNT(DISTINCT id)`.
   */
  from: string;
  params: unknown[];
  /**
   * SQL expression of the sort key: a timestamptz (`keyType: 'timestamp'`), an integer (`'bigint'`)
   * or a `double precision` (`'double'`, any value: `doubleSortKey` maps it to the cursor's integer)
   */
  key: string;
  /** unique tie-breaker expression, e.g. `i.id` */
  id: string;
  keyType?: 'timestamp' | 'bigint' | 'double';
  order?: 'ASC' | 'DESC';
  /**
   * The total's statement (one row, its count in column `n`) when the list's size is known without
   * reading the list (a maintained counter); default `SELECT COUNT(*) <from>`. Must count exactly
   * the rows of `from`; or a function answering it (the caller counted several lists at once: a
   * grouped list's groups).
   */
  total?: { sql: string; params: unknown[] } | (() => Promise<number>);
  /**
   * Bounds a page by the size of its rows as well as by `per_page` (memory per request: a page
   * of 1000 work items with the largest descriptions would be about a gigabyte). `sql`: a row's
   * size in bytes, never null (its large text columns' `octet_length`, which PostgreSQL reads from
   * the value's header without decompressing it); `maxBytes`: at most this much in one page. A keyset page
   * stops before the row that would pass it (but holds at least one row, whatever its size) and offers the next cursor
   * from there; a page by number cannot be shorter than its size without shifting the next ones,
   * so it is refused with 400 `ANSWER_TOO_LARGE` instead. The rows past the bound never leave the
   * database.
   */
  weight?: { sql: string; maxBytes: number };
  /**
   * Select-list items computed over each row of a page by number once the page is cut (ordered
   * and limited), in the page's own statement: SQL over the page's rows as the alias `i` (the
   * columns of `select`), e.g. values read for the page's rows only where a second statement would
   * read them by id. The rows also carry `__order_key` and `__order_id` (the key and id, which
   * order the page again outside). Pages through a cursor and `all` do not read them.
   */
  pageColumns?: string;
  /**
   * Where the next page by number starts, remembered when a page is answered (the key and id of
   * its last row) and read for the next one, which is then read from there (`bookmarkedPageSql`)
   * instead of by its offset (docs/decisions.md "Sequential deep pages from bookmarks"). The key
   * must never be null.
   */
  bookmarks?: PageBookmarks;
}

/** Runs one statement and returns its rows (a pool, a PGlite connection, a transaction). */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

const KEY_ALIAS = '__cursor_key';
/** a row's size (`SqlKeysetList.weight`), the page's rows before it, and the next row's */
const BYTES_ALIAS = '__row_bytes';
const BEFORE_ALIAS = '__bytes_before';
const NEXT_ALIAS = '__next_bytes';

/**
 * `sql` (a page read with `BYTES_ALIAS`) wrapped so that only its rows up to `$n` bytes in all are
 * answered (the first row always, whatever its size), in the page's order (`orderBy`, over the
 * page's own columns), each with the next row's size (`NEXT_ALIAS`: not null after the last row
 * kept when the bound left rows out). One window over the page read (at most `per_page + 1` rows,
 * not the list), with two functions: the bytes of the rows before (`BEFORE_ALIAS`, null for the
 * first row, whose frame is empty) and the next row's (`LEAD` reads the partition, not the
 * frame). A running total with a row number (three functions, one more column per row) cost a
 * tenth more of the statement, and a second window as much again.
 */
function boundedBySize(sql: string, orderBy: string, n: number): string {
  return (
    `SELECT * FROM (SELECT p.*, SUM(p.${BYTES_ALIAS}) OVER w AS ${BEFORE_ALIAS}, LEAD(p.${BYTES_ALIAS}) OVER w AS ${NEXT_ALIAS}` +
    ` FROM (${sql}) p WINDOW w AS (ORDER BY ${orderBy} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) q` +
    ` WHERE q.${BEFORE_ALIAS} IS NULL OR q.${BEFORE_ALIAS} + q.${BYTES_ALIAS} <= $${n} ORDER BY ${orderBy}`
  );
}

/**
 * 400 `ANSWER_TOO_LARGE` when a page by number (`from`, already narrowed to the page's start, in
 * `ordered` order, at most `limit` rows; `params` its values) holds more than `weight.maxBytes`.
 */
async function refuseOverSize(
  weight: NonNullable<SqlKeysetList['weight']>,
  from: string,
  ordered: string,
  limit: string,
  params: unknown[],
  run: SqlRunner,
): Promise<void> {
  const [row] = await run(
    `SELECT COALESCE(SUM(p.w), 0)::bigint AS n FROM (SELECT ${weight.sql} AS w ${from} ${ordered} LIMIT ${limit}) p`,
    params,
  );
  if (Number(row.n) > weight.maxBytes) {
    throw new MeridianError(
      'ANSWER_TOO_LARGE',
      `This page would hold ${Math.ceil(Number(row.n) / 1048576)} MiB of text, more than an answer may (${weight.maxBytes / 1048576} MiB): ask for fewer work items with per_page.`,
    );
  }
}

/**
 * The condition that starts a list by number at its row `offset` (an SQL value, > 0): the rows from
 * that one on in the list's order, `(key, id)` compared as a row with the key and id of the row
 * `offset` reads, found by a walk of the list (`from`, its `FROM … WHERE …`) that reads only the
 * key and the id. In the page's statement, so in its snapshot: the same rows as `OFFSET`. The walk
 * still passes every row before the page, but it is served by the list's index alone (an
 * index-only scan when the index holds what the conditions read) instead of reading each row
 * (docs/decisions.md "Deep pages by number from their start key"); the page is then an index range
 * from the key. Past the end the walk finds no row, the comparison is null, and the page is empty.
 */
export function pageStart(from: string, key: string, id: string, order: 'ASC' | 'DESC', offset: string): string {
  return `(${key}, ${id}) ${order === 'ASC' ? '>=' : '<='} (SELECT ${key}, ${id} ${from} ORDER BY ${key} ${order}, ${id} ${order} OFFSET ${offset} LIMIT 1)`;
}

/**
 * A page by number of `list` (Plane's `PagingPolicy.byNumber`, an offset into the list order) as
 * SQL: `from` (`list.from`, past the first page narrowed to the page's first row by `pageStart`, in
 * the same statement), `ordered` (its `ORDER BY`) and `params` (`list.params`, and `skip` when
 * bound); the caller adds `LIMIT`. `skip`: the rows before the page (`number × per_page`). No
 * cursor carries the key here, so a `double` key orders by its value itself (the key is monotone
 * in it; only values closer than the key tells apart may swap), which an index on the column
 * serves. `paginateSql` reads a page by number so, and a grouped list's pages of every group in
 * one statement (a `LATERAL` per group, `IssueRepository.groupPages`).
 */
export function numberedPageSql(
  list: Pick<SqlKeysetList, 'from' | 'params' | 'key' | 'id' | 'order'>,
  skip: number,
): { from: string; ordered: string; params: unknown[] } {
  const order = list.order ?? 'ASC';
  const ordered = `ORDER BY ${list.key} ${order}, ${list.id} ${order}`;
  if (skip <= 0) return { from: list.from, ordered, params: list.params };
  const params = [...list.params, skip];
  return {
    from: `${list.from} AND ${pageStart(list.from, list.key, list.id, order, `$${params.length}`)}`,
    ordered,
    params,
  };
}

/**
 * The list's identity for its `PageBookmarks`: a digest of everything that decides its rows and
 * their order (the statement's `FROM … WHERE …`, its values, the key, the id and the direction)
 * and of the page size, so that two requests share a bookmark only when they page the same rows
 * the same way (the same caller's visibility, filters, grouping and order are in the text and its
 * values).
 */
export function bookmarkListId(
  list: Pick<SqlKeysetList, 'from' | 'params' | 'key' | 'id' | 'order'>,
  perPage: number,
): string {
  return createHash('sha1')
    .update(`${list.from}\u0000${list.key}\u0000${list.id}\u0000${list.order ?? 'ASC'}\u0000${perPage}\u0000`)
    .update(JSON.stringify(list.params, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .digest('base64url');
}

/**
 * A page by number of `list` read from its bookmark (`mark`: the key and id of the previous page's
 * last row): `from` narrowed to the rows after `(key, id)` in the list's order, `ordered` and
 * `params` as `numberedPageSql` answers them. When no row was written since the bookmark, these are
 * the rows `numberedPageSql` reads for that page; the bookmark's values take the types of the key
 * and the id (PostgreSQL infers them from the comparison).
 */
export function bookmarkedPageSql(
  list: Pick<SqlKeysetList, 'from' | 'params' | 'key' | 'id' | 'order'>,
  mark: PageBookmark,
): { from: string; ordered: string; params: unknown[] } {
  const order = list.order ?? 'ASC';
  const params = [...list.params, mark.key, mark.id];
  const n = params.length;
  return {
    from: `${list.from} AND (${list.key}, ${list.id}) ${order === 'ASC' ? '>' : '<'} ($${n - 1}, $${n})`,
    ordered: `ORDER BY ${list.key} ${order}, ${list.id} ${order}`,
    params,
  };
}

/** The columns a page by number's rows carry for the next page's bookmark (`bookmarkedPageSql`). */
const MARK_KEY = '__mark_key';
const MARK_ID = '__mark_id';

/**
 * The keyset paginator of `paginate` (same cursors, same pages, same totals) over plain SQL.
 *
 * Statements per page: the page and the total (concurrently); for a page read through a cursor,
 * one `EXISTS` probe for the direction the page fetch does not answer and the tie count of the
 * previous-page cursor. The next-page cursor's tie count is taken from the page itself when the
 * page holds another key before its last row (then every row sharing the last row's key and
 * lying before it is on this page), else it is counted.
 *
 * `row` turns each row of the page into what the page holds, reading the list's columns by name:
 * a row as read also carries the paginator's columns (`__cursor_key`, and with `weight` four more),
 * which are left on it, not deleted (V8 turns a row of `pg`'s whose property is deleted into a
 * dictionary: about 1.6 KB more per row of 30 columns, and slower to read; docs/decisions.md "A
 * page's rows keep their shape").
 */
export async function paginateSql<T>(
  list: SqlKeysetList,
  page: PageRequest,
  run: SqlRunner,
  row: (raw: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const order = list.order ?? 'ASC';
  const numeric = list.keyType === 'bigint' || list.keyType === 'double';
  const key = list.keyType === 'double' ? doubleSortKey(list.key) : list.key;
  const id = list.id;
  const micros = numeric ? `(${key})::bigint` : `FLOOR(EXTRACT(EPOCH FROM ${key}) * 1000000)::bigint`;
  const at = numeric
    ? (n: number) => `($${n}::bigint)`
    : (n: number) => `(TIMESTAMPTZ 'epoch' + $${n}::bigint * INTERVAL '1 microsecond')`;
  const flip = (o: 'ASC' | 'DESC') => (o === 'ASC' ? 'DESC' : 'ASC');
  const after = order === 'ASC' ? '>' : '<';
  const before = order === 'ASC' ? '<' : '>';
  const idBefore = order === 'ASC' ? '<' : '>';
  const base = list.params;
  const next = base.length + 1;
  const counter = list.total;
  const countTotal = async () =>
    typeof counter === 'function'
      ? [{ n: await counter() }]
      : counter
        ? run(counter.sql, counter.params)
        : run(`SELECT COUNT(*)::int AS n ${list.from}`, base);

  const tieCount = async (value: number, idCmp?: string, rowId?: string): Promise<number> => {
    let sql = `SELECT COUNT(*)::int AS n ${list.from} AND ${key} = ${at(next)}`;
    const params = [...base, value];
    if (idCmp) {
      sql += ` AND ${id} ${idCmp} $${next + 1}`;
      params.push(rowId);
    }
    const [row] = await run(sql, params);
    return Number(row.n);
  };
  const exists = async (cmp: '>' | '<', row: { key: number; id: string }): Promise<boolean> => {
    const [r] = await run(
      `SELECT EXISTS (SELECT 1 ${list.from} AND (${key} ${cmp} ${at(next)} OR (${key} = ${at(next)} AND ${id} ${cmp} $${next + 1}))) AS e`,
      [...base, row.key, row.id],
    );
    return r.e === true;
  };

  if (page.all) {
    // Plane's bare array: every row in list order, one statement, no cursors
    const rows = await run(`SELECT ${list.select} ${list.from} ORDER BY ${key} ${order}, ${id} ${order}`, base);
    return new Page(rows.map(row), Math.max(1, rows.length), rows.length, null, null);
  }

  if (page.number !== undefined) {
    const marks = list.bookmarks;
    const listId = marks ? bookmarkListId(list, page.perPage) : '';
    // a page after one answered: from where that one ended, if it is remembered
    const mark = marks && page.number > 0 ? await marks.get(listId, page.number) : undefined;
    const { from, ordered, params } = mark
      ? bookmarkedPageSql(list, mark)
      : numberedPageSql(list, page.number * page.perPage);
    const limit = `$${params.length + 1}`;
    // the next page's bookmark: the key as PostgreSQL's text (a time's microseconds, a double's digits)
    const marked = marks ? `, (${list.key})::text AS ${MARK_KEY}, ${list.id} AS ${MARK_ID}` : '';
    // its size first: the page is read only when it may be answered
    if (list.weight) await refuseOverSize(list.weight, from, ordered, limit, [...params, page.perPage], run);
    // with `pageColumns` the page's size is written in the text, not bound: a plan for any value of
    // a bound LIMIT reckons with a tenth of the list's rows, each with those columns' sub-selects,
    // so PostgreSQL would find the generic plan of a named statement dearer than a custom one and
    // plan it each time (a deep page then walked by the custom plan's sort of the whole list: 3 x)
    const text = list.pageColumns
      ? `SELECT i.*, ${list.pageColumns} FROM (SELECT ${list.select}, ${list.key} AS __order_key, ${list.id} AS __order_id${marked} ` +
        `${from} ${ordered} LIMIT ${Math.trunc(page.perPage) + 1}) i ORDER BY i.__order_key ${order}, i.__order_id ${order}`
      : `SELECT ${list.select}${marked} ${from} ${ordered} LIMIT ${limit}`;
    const values = list.pageColumns ? params : [...params, page.perPage + 1];
    const [fetched, [countRow]] = await Promise.all([run(text, values), countTotal()]);
    const more = fetched.length > page.perPage;
    // the next page's start, or none when this one is the last (a bookmark left by a longer list would shift it)
    const last = more ? fetched[page.perPage - 1] : undefined;
    if (marks && last?.[MARK_KEY] != null)
      marks.set(listId, page.number + 1, { key: String(last[MARK_KEY]), id: String(last[MARK_ID]) });
    else if (marks) marks.forget(listId, page.number + 1);
    const { next: nextCursor, prev } = pageNumberCursors(page.perPage, page.number, more);
    return new Page(fetched.slice(0, page.perPage).map(row), page.perPage, Number(countRow.n), nextCursor, prev);
  }

  const cursor = page.cursor;
  const readOrder = cursor?.isPrev ? flip(order) : order;
  const weight = list.weight ? `, ${list.weight.sql} AS ${BYTES_ALIAS}` : '';
  let sql = `SELECT ${list.select}, ${micros} AS ${KEY_ALIAS}${weight} ${list.from}`;
  const params = [...base];
  if (cursor) {
    const skip = cursor.isPrev ? (await tieCount(cursor.value)) - cursor.offset : cursor.offset;
    sql += ` AND ${key} ${cursor.isPrev ? before : after}= ${at(next)} ORDER BY ${key} ${readOrder}, ${id} ${readOrder} OFFSET $${next + 1} LIMIT $${next + 2}`;
    params.push(cursor.value, Math.max(0, skip), page.perPage + 1);
  } else {
    sql += ` ORDER BY ${key} ${readOrder}, ${id} ${readOrder} LIMIT $${next}`;
    params.push(page.perPage + 1);
  }
  if (list.weight) {
    sql = boundedBySize(sql, `${KEY_ALIAS} ${readOrder}, id ${readOrder}`, params.length + 1);
    params.push(list.weight.maxBytes);
  }
  const [fetched, [countRow]] = await Promise.all([run(sql, params), countTotal()]);
  const total = Number(countRow.n);
  // a page cut by its size has more rows after it, in the direction it was read
  const cut = list.weight !== undefined && fetched.length > 0 && fetched[fetched.length - 1][NEXT_ALIAS] !== null;
  const more = fetched.length > page.perPage || cut;
  let rows = fetched.slice(0, page.perPage);
  if (cursor?.isPrev) rows = rows.reverse();
  const keys = rows.map((r) => Number(r[KEY_ALIAS]));

  if (rows.length === 0) {
    const back = cursor ? formatCursor({ ...cursor, isPrev: !cursor.isPrev }) : null;
    return new Page(
      [],
      page.perPage,
      total,
      cursor?.isPrev ? back : null,
      cursor && !cursor.isPrev && total > 0 ? back : null,
    );
  }

  const first = { key: keys[0], id: rows[0].id as string };
  const last = { key: keys[keys.length - 1], id: rows[rows.length - 1].id as string };

  const positionAfter = async (): Promise<Cursor> => {
    // rows sharing the last key, up to and including the last row
    let offset: number;
    if (keys[0] !== last.key) offset = keys.filter((k) => k === last.key).length;
    else offset = await tieCount(last.key, `${idBefore}=`, last.id);
    return { value: last.key, offset, isPrev: false };
  };
  const positionBefore = async (): Promise<Cursor> => ({
    value: first.key,
    offset: await tieCount(first.key, idBefore, first.id),
    isPrev: true,
  });

  const hasNext = cursor?.isPrev ? await exists(after, last) : more;
  const hasPrev = cursor?.isPrev ? more : cursor ? await exists(before, first) : false;
  const [nextCursor, prevCursor] = await Promise.all([
    hasNext ? positionAfter().then(formatCursor) : null,
    hasPrev ? positionBefore().then(formatCursor) : null,
  ]);
  return new Page(rows.map(row), page.perPage, total, nextCursor, prevCursor);
}
