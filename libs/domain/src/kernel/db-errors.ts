import { MeridianError } from '#common';
import { QueryFailedError } from 'typeorm';

/** True when `err` is a PostgreSQL unique violation (23505), optionally of the named constraint/index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver?.code === '23505' && (constraint === undefined || driver.constraint === constraint);
}

/**
 * The row a read after a write expects, else 404 `NOT_FOUND`: a concurrent delete may commit
 * between the write and the read (a PATCH racing a DELETE of the same row), which is the
 * caller's "not found", not a 500. Use instead of `findOneOrFail` wherever a request re-reads.
 */
export async function found<T>(row: Promise<T | null>): Promise<T> {
  const value = await row;
  if (value === null || value === undefined) throw new MeridianError('NOT_FOUND');
  return value;
}
