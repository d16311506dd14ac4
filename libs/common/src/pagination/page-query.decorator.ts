import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { parseCursor } from './cursor';
import { PageRequest } from './page';
import { httpRequestOf } from '../http/http-context';

export interface PagingPolicy {
  defaultPerPage: number;
  maxPerPage: number;
  /**
   * When the list is paged (Plane's view decides, per route; docs/decisions.md "App API lists: a
   * bare array unless paged"):
   * - `always` (the default): every answer is a page, the envelope;
   * - `on-request`: a page only when both `per_page` and `cursor` are given (non-empty), else every
   *   row as a bare array (`if request.GET.get("per_page") and request.GET.get("cursor"): paginate`);
   * - `never`: always every row as a bare array; `per_page` and `cursor` are ignored.
   * The handler answers `listAnswer(request, page)`.
   */
  paged?: 'always' | 'on-request' | 'never';
  /**
   * Plane's web app pages this list by number (`<per_page>:<page>:0`, base-issues.store.ts
   * `getNextCursor`): a cursor whose first part equals `per_page` is Plane's page number (its
   * offset cursor, `is_prev` ignored as Plane does), read by offset; no cursor is page 0. Such
   * lists answer Plane's page cursors only; any other cursor is still read as a keyset position.
   */
  byNumber?: boolean;
}

/** External API v1: Plane's default and maximum page size, 1000. */
export const V1_PAGING: PagingPolicy = { defaultPerPage: 1000, maxPerPage: 1000 };
/** App API lists Plane always pages: 100 by default, at most 1000. */
export const APP_PAGING: PagingPolicy = { defaultPerPage: 100, maxPerPage: 1000 };
/** App API work item lists, which Plane's web app pages by number (`<per_page>:<page>:0`). */
export const APP_PAGED_BY_NUMBER: PagingPolicy = { ...APP_PAGING, byNumber: true };
/** App API lists Plane pages only when asked with `per_page` and `cursor`: else a bare array of every row. */
export const APP_PAGED_ON_REQUEST: PagingPolicy = { ...APP_PAGING, paged: 'on-request' };
/** App API lists Plane never pages: always a bare array of every row. */
export const APP_UNPAGED: PagingPolicy = { ...APP_PAGING, paged: 'never' };

function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  throw new MeridianError('INVALID_QUERY_PARAMETER', 'A paging parameter was given more than once.');
}

/** Plane's test for a paging parameter: present and not empty (`request.GET.get(name, False)`). */
function given(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value !== '';
}

/**
 * Reads `per_page` and `cursor` from the query string (docs/reference/http-interface.md §8).
 * A non-integer or out-of-range `per_page` is a 400 `INVALID_PER_PAGE`; a malformed cursor is a
 * 400 `INVALID_CURSOR`. Under a policy that is not always paged, a request that does not ask for a
 * page reads every row (`all`), and its paging parameters are not checked (Plane ignores them).
 */
export function parsePageRequest(query: Record<string, unknown>, policy: PagingPolicy): PageRequest {
  if (policy.paged === 'never') return { perPage: policy.defaultPerPage, all: true };
  if (policy.paged === 'on-request' && !(given(query.per_page) && given(query.cursor))) {
    return { perPage: policy.defaultPerPage, all: true };
  }
  const perPageRaw = single(query.per_page);
  const cursorRaw = single(query.cursor);
  let perPage = policy.defaultPerPage;
  if (perPageRaw !== undefined) {
    if (!/^\d+$/.test(perPageRaw.trim())) throw new MeridianError('INVALID_PER_PAGE');
    perPage = Number(perPageRaw);
    if (perPage < 1) throw new MeridianError('INVALID_PER_PAGE', 'Invalid per_page value. Must be at least 1.');
    if (perPage > policy.maxPerPage) {
      throw new MeridianError('INVALID_PER_PAGE', `Invalid per_page value. Cannot exceed ${policy.maxPerPage}.`);
    }
  }
  let cursor = cursorRaw !== undefined && cursorRaw !== '' ? parseCursor(cursorRaw) : undefined;
  // a list Plane's web app pages by number: its page cursor (the first part is the page size), or
  // its first page; such a list answers only page cursors, so a keyset cursor here is another's
  if (policy.byNumber && (!cursor || cursor.value === perPage)) return { perPage, number: cursor?.offset ?? 0 };
  // Plane's web app opens a paged list with `cursor=<per_page>:0:0`, page 0 of Plane's offset
  // cursor: read as the first page. Meridian never issues a forward cursor with offset 0 (a next
  // cursor counts the boundary row itself), so no cursor of its own reads so.
  if (cursor && !cursor.isPrev && cursor.offset === 0 && cursor.value === perPage) cursor = undefined;
  return { perPage, cursor };
}

/** Parameter decorator: `@PageQuery(V1_PAGING) page: PageRequest`. */
export const PageQuery = createParamDecorator((policy: PagingPolicy | undefined, ctx: ExecutionContext) =>
  parsePageRequest(httpRequestOf<Request>(ctx).query as Record<string, unknown>, policy ?? APP_PAGING),
);
