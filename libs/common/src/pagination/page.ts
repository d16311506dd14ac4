/** What a list request asks for: page size and an optional cursor (docs/reference/http-interface.md §8). */
export interface PageRequest {
  perPage: number;
  cursor?: import('./cursor').Cursor;
  /**
   * Every row in list order, in one read, for Plane's bare-array answer (`listAnswer`): the
   * paginators then return one page holding all rows, without cursors (docs/decisions.md, "App API
   * lists: a bare array unless paged").
   */
  all?: boolean;
  /**
   * Plane's page number (`<per_page>:<number>:<is_prev>` on a route paged by number, see
   * `PagingPolicy.byNumber`): the paginators read `number × perPage` rows further, by offset, and
   * answer Plane's page cursors (`pageNumberCursors`).
   */
  number?: number;
}

/**
 * Plane's cursors around page `number` (`plane/utils/paginator.py` OffsetPaginator.get_result):
 * `<per_page>:<number + 1>:0` when more rows follow, `<per_page>:<number - 1>:1` after the first
 * page; else null.
 */
export function pageNumberCursors(
  perPage: number,
  number: number,
  more: boolean,
): { next: string | null; prev: string | null } {
  return {
    next: more ? `${perPage}:${number + 1}:0` : null,
    prev: number > 0 ? `${perPage}:${number - 1}:1` : null,
  };
}

/**
 * What a list route answers, as Plane does: the bare array of the rows when the request read them
 * all (`PageRequest.all`, set by the route's paging policy), else the page (Plane's envelope).
 */
export function listAnswer<T>(request: PageRequest, page: Page<T>): T[] | Page<T> {
  return request.all ? page.results : page;
}

/**
 * One page of results. Controllers return it; its JSON form (`toJSON`, which `JSON.stringify`
 * and so Express's `res.json` call) is Plane's paginator envelope (`toEnvelope`), on every route
 * that returns one. (This was a global interceptor; that put every request, lists or not, through
 * rxjs: docs/decisions.md, "The page envelope is the JSON form of a page".)
 */
export class Page<T> {
  constructor(
    readonly results: T[],
    readonly perPage: number,
    readonly totalCount: number,
    readonly nextCursor: string | null,
    readonly prevCursor: string | null,
  ) {}

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.results.map(fn), this.perPage, this.totalCount, this.nextCursor, this.prevCursor);
  }

  /** Plane's envelope: what a page looks like on the wire. */
  toJSON(): PageEnvelope<T> {
    return toEnvelope(this);
  }
}

/**
 * Plane's envelope: docs/reference/http-interface.md §2 (`next_cursor`, `prev_cursor`, `results`)
 * plus the keys its clients read (Plane `plane/utils/paginator.py` BasePaginator.paginate).
 */
export interface PageEnvelope<T> {
  grouped_by: null;
  sub_grouped_by: null;
  total_count: number;
  next_cursor: string | null;
  prev_cursor: string | null;
  next_page_results: boolean;
  prev_page_results: boolean;
  count: number;
  total_pages: number;
  total_results: number;
  extra_stats: null;
  results: T[];
}

export function toEnvelope<T>(page: Page<T>): PageEnvelope<T> {
  return {
    grouped_by: null,
    sub_grouped_by: null,
    total_count: page.totalCount,
    next_cursor: page.nextCursor,
    prev_cursor: page.prevCursor,
    next_page_results: page.nextCursor !== null,
    prev_page_results: page.prevCursor !== null,
    count: page.results.length,
    total_pages: Math.ceil(page.totalCount / page.perPage),
    total_results: page.totalCount,
    extra_stats: null,
    results: page.results,
  };
}
