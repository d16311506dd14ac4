import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AnswerLender, answerBudget } from '../http/answer-budget';
import { paginate } from './keyset-paginator';
import { Page, PageRequest } from './page';

/**
 * Reading a list whose rows carry large text (comments, history rows) without holding it whole:
 * a light scan of ids, sort keys and sizes, then the full rows in chunks of bounded size, each
 * chunk lent from the process's `AnswerBudget` while it is being written. Memory per request is
 * one chunk (`chunkBytes`, or one row when a row is larger) whatever the list's length.
 */
export interface ChunkedReadOptions {
  /** timestamptz property to order by, as `alias.property` (default `<alias>.createdAt`) */
  key?: string;
  /** unique tie-breaker property (default `<alias>.id`) */
  id?: string;
  order?: 'ASC' | 'DESC';
  /** SQL expression: the row's size in bytes, as its text columns' `octet_length` summed */
  weight: string;
  /** rows per light scan (default 500): the most ids held at once */
  window?: number;
  /** bytes of rows per chunk (default 4 MiB): at least one row */
  chunkBytes?: number;
  /** default: the process's (`answerBudget()`); one answer's share of it (`forOneAnswer`) when it reads several lists */
  budget?: AnswerLender;
}

/**
 * Rows per chunk, in bytes: four of the largest comments. Fewer, larger chunks are fewer round
 * trips; the process-wide bound is the `AnswerBudget` (64 MiB by default) all chunks share.
 */
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

interface LightRow {
  id: string;
  k: string;
  w: string | number | null;
}

/**
 * Every row of `base` in list order (`key`, then `id`), as arrays of entities of about
 * `chunkBytes` each. Rows written during the walk are seen or not, never twice: the scan goes on
 * from the last position it read (keyset), not by offset. An empty list yields nothing.
 * Errors: 503 `SERVER_BUSY` when the budget cannot lend a chunk in time (`AnswerBudget`).
 */
export async function* readInChunks<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  options: ChunkedReadOptions,
): AsyncGenerator<T[]> {
  const alias = base.alias;
  const key = options.key ?? `${alias}.createdAt`;
  const id = options.id ?? `${alias}.id`;
  const order = options.order ?? 'ASC';
  const window = options.window ?? 500;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const budget = options.budget ?? answerBudget();
  const cmp = order === 'ASC' ? '>' : '<';
  const at = `(TIMESTAMPTZ 'epoch' + :chunk_key::bigint * INTERVAL '1 microsecond')`;
  let position: LightRow | null = null;
  for (;;) {
    const scan = base
      .clone()
      .select(id, 'id')
      .addSelect(`FLOOR(EXTRACT(EPOCH FROM ${key}) * 1000000)::bigint`, 'k')
      .addSelect(options.weight, 'w')
      .orderBy(key, order)
      .addOrderBy(id, order)
      .limit(window);
    if (position) {
      scan.andWhere(`(${key} ${cmp} ${at} OR (${key} = ${at} AND ${id} ${cmp} :chunk_id))`, {
        chunk_key: position.k,
        chunk_id: position.id,
      });
    }
    const light = await scan.getRawMany<LightRow>();
    yield* loadChunks(base, id, byWeight(light, chunkBytes), budget);
    if (light.length < window) return;
    position = light[light.length - 1];
  }
}

/** Consecutive runs of `rows` whose summed weight stays within `limit` (a heavier row alone). */
export function byWeight(
  rows: ReadonlyArray<{ id: string; w: string | number | null }>,
  limit: number,
): Array<{ ids: string[]; bytes: number }> {
  const chunks: Array<{ ids: string[]; bytes: number }> = [];
  let current: { ids: string[]; bytes: number } = { ids: [], bytes: 0 };
  for (const row of rows) {
    const w = Number(row.w ?? 0) || 0;
    if (current.ids.length > 0 && current.bytes + w > limit) {
      chunks.push(current);
      current = { ids: [], bytes: 0 };
    }
    current.ids.push(row.id);
    current.bytes += w;
  }
  if (current.ids.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The rows of one page (`ids`, in page order) read again whole in chunks of about `chunkBytes`,
 * as `readInChunks` does for a whole list: for a page of up to 1000 large rows (the External API's
 * `per_page`), read first as light rows by the keyset paginator.
 */
export async function* hydrateInChunks<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  ids: string[],
  options: Pick<ChunkedReadOptions, 'id' | 'weight' | 'chunkBytes' | 'budget'>,
): AsyncGenerator<T[]> {
  if (ids.length === 0) return;
  const id = options.id ?? `${base.alias}.id`;
  const light = await base
    .clone()
    .select(id, 'id')
    .addSelect(options.weight, 'w')
    .andWhere(`${id} IN (:...page_ids)`, { page_ids: ids })
    .getRawMany<{ id: string; w: string | number | null }>();
  const weights = new Map(light.map((r) => [r.id, r.w]));
  const ordered = ids.filter((rowId) => weights.has(rowId)).map((rowId) => ({ id: rowId, w: weights.get(rowId)! }));
  yield* loadChunks(
    base,
    id,
    byWeight(ordered, options.chunkBytes ?? DEFAULT_CHUNK_BYTES),
    options.budget ?? answerBudget(),
  );
}

/**
 * Reads each chunk's rows whole, in the chunk's order, while the budget lends its bytes (given back
 * when the consumer asks for the next chunk, or stops). A row deleted since its id was read is left out.
 */
async function* loadChunks<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  id: string,
  chunks: Array<{ ids: string[]; bytes: number }>,
  budget: AnswerLender,
): AsyncGenerator<T[]> {
  for (const chunk of chunks) {
    const release = await budget.acquire(chunk.bytes);
    try {
      const rows = await base.clone().andWhere(`${id} IN (:...chunk_ids)`, { chunk_ids: chunk.ids }).getMany();
      const byId = new Map(rows.map((r) => [(r as unknown as { id: string }).id, r]));
      yield chunk.ids.map((rowId) => byId.get(rowId)).filter((r): r is T => r !== undefined);
    } finally {
      release();
    }
  }
}

/**
 * A list route's rows in chunks of bounded size: with `page.all` (Plane's bare array) every row
 * (`readInChunks`, `page` null); else the requested page, its cursors and counts read by the keyset
 * paginator over light rows (ids and keys), its rows read whole in chunks (`hydrateInChunks`).
 */
export async function pageInChunks<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  page: PageRequest,
  options: ChunkedReadOptions,
): Promise<{ page: Page<T> | null; chunks: AsyncGenerator<T[]> }> {
  if (page.all) return { page: null, chunks: readInChunks(base, options) };
  const key = options.key ?? `${base.alias}.createdAt`;
  const id = options.id ?? `${base.alias}.id`;
  const light = await paginate(base.clone().select([id, key]), page, { key, id, order: options.order });
  const ids = light.results.map((row) => (row as unknown as { id: string }).id);
  return { page: light, chunks: hydrateInChunks(base, ids, options) };
}

/** Each chunk of `chunks` through `render` (which may read more: the chunk's authors, reactions). */
export async function* mapChunks<T, U>(
  chunks: AsyncIterable<T[]>,
  render: (chunk: T[]) => U[] | Promise<U[]>,
): AsyncGenerator<U[]> {
  for await (const chunk of chunks) yield await render(chunk);
}

/** A list read in chunks (`pageInChunks`): the page's counts and cursors (null: the bare array), and the items. */
export interface ChunkedList<T> {
  page: Page<unknown> | null;
  chunks: AsyncGenerator<T[]>;
}
