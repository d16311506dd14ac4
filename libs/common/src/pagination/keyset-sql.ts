import { Cursor, formatCursor } from './cursor';
import { doubleSortKey } from './double-key';
import { Page, pageNumberCursors, PageRequest } from './page';

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
   * the rows of `from`.
   */
  total?: { sql: string; params: unknown[] };
}

/** Runs one statement and returns its rows (a pool, a PGlite connection, a transaction). */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

const KEY_ALIAS = '__cursor_key';

/**
 * The keyset paginator of `paginate` (same cursors, same pages, same totals) over plain SQL.
 *
 * Statements per page: the page and the total (concurrently); for a page read through a cursor,
 * one `EXISTS` probe for the direction the page fetch does not answer and the tie count of the
 * previous-page cursor. The next-page cursor's tie count is taken from the page itself when the
 * page holds another key before its last row (then every row sharing the last row's key and
 * lying before it is on this page), else it is counted.
 *
 * Returns the raw rows (with the `__cursor_key` column removed).
 */
export async function paginateSql(
  list: SqlKeysetList,
  page: PageRequest,
  run: SqlRunner,
): Promise<Page<Record<string, unknown>>> {
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
  const countTotal = () =>
    list.total ? run(list.total.sql, list.total.params) : run(`SELECT COUNT(*)::int AS n ${list.from}`, base);

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
    return new Page(rows, Math.max(1, rows.length), rows.length, null, null);
  }

  if (page.number !== undefined) {
    // Plane's page by number (`PagingPolicy.byNumber`): an offset into the list order. No cursor
    // carries the key here, so a `double` key orders by its value itself (the key is monotone in it;
    // only values closer than the key tells apart may swap), which an index on the column serves
    const byValue = list.keyType === 'double' ? list.key : key;
    const [fetched, [countRow]] = await Promise.all([
      run(
        `SELECT ${list.select} ${list.from} ORDER BY ${byValue} ${order}, ${id} ${order} OFFSET $${next} LIMIT $${next + 1}`,
        [...base, page.number * page.perPage, page.perPage + 1],
      ),
      countTotal(),
    ]);
    const { next: nextCursor, prev } = pageNumberCursors(page.perPage, page.number, fetched.length > page.perPage);
    return new Page(fetched.slice(0, page.perPage), page.perPage, Number(countRow.n), nextCursor, prev);
  }

  const cursor = page.cursor;
  const readOrder = cursor?.isPrev ? flip(order) : order;
  let sql = `SELECT ${list.select}, ${micros} AS ${KEY_ALIAS} ${list.from}`;
  const params = [...base];
  if (cursor) {
    const skip = cursor.isPrev ? (await tieCount(cursor.value)) - cursor.offset : cursor.offset;
    sql += ` AND ${key} ${cursor.isPrev ? before : after}= ${at(next)} ORDER BY ${key} ${readOrder}, ${id} ${readOrder} OFFSET $${next + 1} LIMIT $${next + 2}`;
    params.push(cursor.value, Math.max(0, skip), page.perPage + 1);
  } else {
    sql += ` ORDER BY ${key} ${readOrder}, ${id} ${readOrder} LIMIT $${next}`;
    params.push(page.perPage + 1);
  }
  const [fetched, [countRow]] = await Promise.all([run(sql, params), countTotal()]);
  const total = Number(countRow.n);
  const more = fetched.length > page.perPage;
  let rows = fetched.slice(0, page.perPage);
  if (cursor?.isPrev) rows = rows.reverse();
  const keys = rows.map((r) => Number(r[KEY_ALIAS]));
  for (const r of rows) delete r[KEY_ALIAS];

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
  return new Page(rows, page.perPage, total, nextCursor, prevCursor);
}
