import { MeridianError } from '../errors/meridian.error';

/**
 * A position between two rows of an ordered list (docs/reference/http-interface.md §8: `<value>:<offset>:<is_prev>`).
 *
 * - `value`: the sort key of the boundary row, a non-negative safe integer: a timestamp in epoch
 *   microseconds, an integer key, or `doubleSortKey` of a float (`sort_order`, `sequence`).
 * - `offset`: how many rows carrying exactly that key lie before the position.
 * - `isPrev`: read the page before the position (1) or after it (0).
 */
export interface Cursor {
  value: number;
  offset: number;
  isPrev: boolean;
}

const CURSOR = /^(\d{1,16}):(\d{1,9}):([01])$/;

/** Parses a cursor; anything else than three non-negative integers (last one 0 or 1) is a 400. */
export function parseCursor(raw: string): Cursor {
  const match = CURSOR.exec(raw.trim());
  if (!match) throw new MeridianError('INVALID_CURSOR');
  const value = Number(match[1]);
  if (!Number.isSafeInteger(value)) throw new MeridianError('INVALID_CURSOR');
  return { value, offset: Number(match[2]), isPrev: match[3] === '1' };
}

export function formatCursor(cursor: Cursor): string {
  return `${cursor.value}:${cursor.offset}:${cursor.isPrev ? 1 : 0}`;
}
