import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { MeridianError } from '../errors/meridian.error';
import { answerBudget } from '../http/answer-budget';
import { Cursor, formatCursor } from './cursor';
import { doubleSortKey } from './double-key';
import { Page, pageNumberCursors, PageRequest } from './page';

export interface KeysetOptions {
  /** timestamptz property to order by, as `alias.property` (default `<alias>.createdAt`) */
  key?: string;
  /** unique tie-breaker property (default `<alias>.id`) */
  id?: string;
  order?: 'ASC' | 'DESC';
  /**
   * `timestamp` (default): `key` is a timestamptz property, the cursor carries epoch microseconds.
   * `bigint`: `key` is an SQL expression with an integer value (a rank, a sequence number), used
   * as is in the cursor.
   * `double`: `key` is a `double precision` expression (a `sort_order`, a `sequence`), any value
   * (`doubleSortKey` maps it to the cursor's integer).
   */
  keyType?: 'timestamp' | 'bigint' | 'double';
  /**
   * The list's size when it is known without reading the list (a maintained counter); default
   * `getCount()` of `base`. Must count exactly the rows of `base`.
   */
  total?: () => Promise<number>;
}

const KEY_ALIAS = '__cursor_key';

/**
 * Keyset pagination over a timestamp column (docs/reference/http-interface.md §8). Each page is one
 * indexed range scan (`key >= boundary` plus a small OFFSET inside the boundary's ties), so a deep
 * page costs what the first one does. Rows inserted during a walk never repeat or hide an existing
 * row: a cursor names a position between rows, not a page number.
 *
 * Queries per page: the page itself, the total count, and one `EXISTS`-style probe for the
 * direction the page fetch does not answer, plus a tie count for each cursor built. A request for
 * every row (`page.all`) is one query: all rows in list order, no cursors.
 */
export async function paginate<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  page: PageRequest,
  options: KeysetOptions = {},
): Promise<Page<T>> {
  const alias = base.alias;
  const rawKey = options.key ?? `${alias}.createdAt`;
  const key = options.keyType === 'double' ? doubleSortKey(rawKey) : rawKey;
  const id = options.id ?? `${alias}.id`;
  const order = options.order ?? 'ASC';
  const numeric = options.keyType === 'bigint' || options.keyType === 'double';
  const micros = numeric ? `(${key})::bigint` : `FLOOR(EXTRACT(EPOCH FROM ${key}) * 1000000)::bigint`;
  const at = numeric
    ? (param: string) => `(:${param}::bigint)`
    : (param: string) => `(TIMESTAMPTZ 'epoch' + :${param}::bigint * INTERVAL '1 microsecond')`;
  const flip = (o: 'ASC' | 'DESC') => (o === 'ASC' ? 'DESC' : 'ASC');
  // "after" in list order
  const after = order === 'ASC' ? '>' : '<';
  const before = order === 'ASC' ? '<' : '>';

  if (page.all) {
    // Plane's bare array: every row in list order, one statement, no cursors; measured first
    await refuseWholeListOverSize(base);
    const rows = await base.clone().orderBy(key, order).addOrderBy(id, order).getMany();
    return new Page(rows, Math.max(1, rows.length), rows.length, null, null);
  }

  if (page.number !== undefined) {
    // Plane's page by number (`PagingPolicy.byNumber`): an offset into the list order; past the
    // first page, from the page's first row, found by a walk that reads only the key and the id
    // (as `pageStart`, in the same statement)
    const skip = page.number * page.perPage;
    const qb = base
      .clone()
      .orderBy(key, order)
      .addOrderBy(id, order)
      .limit(page.perPage + 1);
    if (skip > 0) {
      // one raw selection: TypeORM would put `id` first
      const walk = base.clone().select(`${key}, ${id}`).orderBy(key, order).addOrderBy(id, order);
      qb.andWhere(`(${key}, ${id}) ${order === 'ASC' ? '>=' : '<='} (${walk.offset(skip).limit(1).getQuery()})`);
    }
    const rows = await qb.getMany();
    const total = await (options.total ? options.total() : base.clone().getCount());
    const { next, prev } = pageNumberCursors(page.perPage, page.number, rows.length > page.perPage);
    return new Page(rows.slice(0, page.perPage), page.perPage, total, next, prev);
  }

  const cursor = page.cursor;
  const readOrder = cursor?.isPrev ? flip(order) : order;
  const qb = base.clone().addSelect(micros, KEY_ALIAS).orderBy(key, readOrder).addOrderBy(id, readOrder);

  if (cursor) {
    // rows of the boundary's tie group that lie on the far side of the position are skipped by OFFSET
    const skip = cursor.isPrev ? (await tieCount(base, key, at, cursor.value)) - cursor.offset : cursor.offset;
    qb.andWhere(`${key} ${cursor.isPrev ? before : after}= ${at('cursor_value')}`, {
      cursor_value: cursor.value,
    }).offset(Math.max(0, skip));
  }
  qb.limit(page.perPage + 1);

  const { entities, raw } = await qb.getRawAndEntities();
  const more = entities.length > page.perPage;
  let rows = entities.slice(0, page.perPage);
  let keys = raw.slice(0, page.perPage).map((r) => Number(r[KEY_ALIAS]));
  if (cursor?.isPrev) {
    rows = rows.reverse();
    keys = keys.reverse();
  }

  const total = await (options.total ? options.total() : base.clone().getCount());
  if (rows.length === 0) {
    // past either end: offer the way back only if rows exist on that side
    const position = cursor ?? null;
    const back = position ? formatCursor({ ...position, isPrev: !position.isPrev }) : null;
    return new Page(
      [],
      page.perPage,
      total,
      position?.isPrev ? back : null,
      position && !position.isPrev && total > 0 ? back : null,
    );
  }

  const first = { key: keys[0], id: (rows[0] as ObjectLiteral).id as string };
  const last = { key: keys[keys.length - 1], id: (rows[rows.length - 1] as ObjectLiteral).id as string };
  const idBefore = order === 'ASC' ? '<' : '>';

  const positionBefore = async (row: { key: number; id: string }): Promise<Cursor> => ({
    value: row.key,
    offset: await tieCount(base, key, at, row.key, `${id} ${idBefore} :row_id`, row.id),
    isPrev: true,
  });
  const positionAfter = async (row: { key: number; id: string }): Promise<Cursor> => ({
    value: row.key,
    offset: await tieCount(base, key, at, row.key, `${id} ${idBefore}= :row_id`, row.id),
    isPrev: false,
  });

  const hasNext = cursor?.isPrev ? await exists(base, key, id, at, after, last) : more;
  const hasPrev = cursor?.isPrev ? more : cursor ? await exists(base, key, id, at, before, first) : false;

  return new Page(
    rows,
    page.perPage,
    total,
    hasNext ? formatCursor(await positionAfter(last)) : null,
    hasPrev ? formatCursor(await positionBefore(first)) : null,
  );
}

/** Column types whose values can be large: their size is summed by `refuseWholeListOverSize`. */
const TEXT_TYPES = new Set(['text', 'varchar', 'character varying', 'citext']);
const JSON_TYPES = new Set(['json', 'jsonb', 'simple-json']);

/**
 * A list answered whole (Plane's bare arrays: labels, states, cycles, pages…) is read only when its
 * rows' text fits in half the answer budget (`ANSWER_MEMORY_BUDGET`, 32 MiB by default): one
 * statement sums the sizes of the entity's text and JSON columns over the list's rows, as the database
 * holds them (`octet_length`, `pg_column_size`: read from each value's header), and a larger list is
 * refused with 400 `ANSWER_TOO_LARGE` instead of being built in memory. Lists whose rows are large by
 * nature (a work item's comments and history) are read in chunks instead (`readInChunks`).
 */
async function refuseWholeListOverSize<T extends ObjectLiteral>(base: SelectQueryBuilder<T>): Promise<void> {
  const alias = base.alias;
  const columns = base.expressionMap.mainAlias?.hasMetadata ? base.expressionMap.mainAlias.metadata.columns : [];
  const sizes = columns.flatMap((c) => {
    const type = typeof c.type === 'string' ? c.type : '';
    if (TEXT_TYPES.has(type)) return [`COALESCE(octet_length(${alias}.${c.propertyPath}), 0)`];
    if (JSON_TYPES.has(type)) return [`COALESCE(pg_column_size(${alias}.${c.propertyPath}), 0)`];
    return [];
  });
  if (sizes.length === 0) return;
  const limit = Math.floor(answerBudget().capacity / 2);
  const row = await base
    .clone()
    .select(`COALESCE(SUM(${sizes.join(' + ')}), 0)`, 'bytes')
    .orderBy()
    .getRawOne<{ bytes: string | number }>();
  const bytes = Number(row?.bytes ?? 0);
  if (bytes > limit) {
    throw new MeridianError(
      'ANSWER_TOO_LARGE',
      `This list would hold ${Math.ceil(bytes / 1048576)} MiB of text, more than an answer may (${limit / 1048576} MiB).`,
    );
  }
}

async function tieCount<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  key: string,
  at: (p: string) => string,
  value: number,
  extra?: string,
  rowId?: string,
): Promise<number> {
  const qb = base.clone().andWhere(`${key} = ${at('tie_value')}`, { tie_value: value });
  if (extra) qb.andWhere(extra, { row_id: rowId });
  return qb.getCount();
}

/**
 * Is there a row strictly on the `cmp` side (`>` or `<` on both key and id) of the given row? The
 * redundant `key >= value` (or `<=`) bounds the probe as an index range starting at the row, so it
 * reads from the page's edge instead of scanning the list from wherever the plan starts (a deep
 * page's `prev` probe scanned the whole list up to the first newer row).
 */
async function exists<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  key: string,
  id: string,
  at: (p: string) => string,
  cmp: '>' | '<',
  row: { key: number; id: string },
): Promise<boolean> {
  return base
    .clone()
    .andWhere(
      `${key} ${cmp}= ${at('probe_value')} AND (${key} ${cmp} ${at('probe_value')} OR ${id} ${cmp} :probe_id)`,
      {
        probe_value: row.key,
        probe_id: row.id,
      },
    )
    .getExists();
}
