/**
 * The rows of an `INSERT`/`UPDATE`/`DELETE … RETURNING` sent with `DataSource.query`: TypeORM's
 * PostgreSQL driver answers `[rows, affected]` for those, and the rows themselves for a `SELECT`.
 */
export function returnedRows<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}
