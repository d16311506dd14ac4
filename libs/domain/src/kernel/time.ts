/**
 * A time as read: a `Date` (TypeORM, `pg`'s default), or already ISO 8601 UTC text with
 * milliseconds (a hot statement's row read with `ISO_TIMES`, hot-query.ts).
 */
export type Time = Date | string;

/** ISO 8601 UTC (`2026-11-27T04:47:00.123Z`), or null. All times leave Meridian this way. Text is already that form. */
export function iso(value: Time | null | undefined): string | null {
  if (typeof value === 'string') return value;
  return value ? value.toISOString() : null;
}
