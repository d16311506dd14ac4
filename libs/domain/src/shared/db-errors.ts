import { QueryFailedError } from 'typeorm';

/** True when `err` is a PostgreSQL unique violation (23505), optionally of the named constraint/index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver?.code === '23505' && (constraint === undefined || driver.constraint === constraint);
}
