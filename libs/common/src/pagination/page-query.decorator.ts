import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { parseCursor } from './cursor';
import { PageRequest } from './page';

export interface PagingPolicy {
  defaultPerPage: number;
  maxPerPage: number;
}

/** External API v1: Plane's default and maximum page size, 1000. */
export const V1_PAGING: PagingPolicy = { defaultPerPage: 1000, maxPerPage: 1000 };
/** App API: 100 by default, at most 1000. */
export const APP_PAGING: PagingPolicy = { defaultPerPage: 100, maxPerPage: 1000 };

function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  throw new MeridianError('INVALID_QUERY_PARAMETER', 'A paging parameter was given more than once.');
}

/**
 * Reads `per_page` and `cursor` from the query string (docs/reference/http-interface.md §8).
 * A non-integer or out-of-range `per_page` is a 400 `INVALID_PER_PAGE`; a malformed cursor is a
 * 400 `INVALID_CURSOR`.
 */
export function parsePageRequest(query: Record<string, unknown>, policy: PagingPolicy): PageRequest {
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
  return { perPage, cursor: cursorRaw !== undefined && cursorRaw !== '' ? parseCursor(cursorRaw) : undefined };
}

/** Parameter decorator: `@PageQuery(V1_PAGING) page: PageRequest`. */
export const PageQuery = createParamDecorator((policy: PagingPolicy | undefined, ctx: ExecutionContext) =>
  parsePageRequest(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>, policy ?? APP_PAGING),
);
