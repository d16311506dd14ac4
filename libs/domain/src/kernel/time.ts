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

/** What every row carries (Plane's BaseModel fields), as the serializers write them last. */
export interface RowStamps {
  createdAt: Time;
  updatedAt: Time;
  deletedAt: Time | null;
  createdById: string | null;
  updatedById: string | null;
}

/** `created_at`, `updated_at`, `deleted_at` (ISO 8601 UTC), `created_by`, `updated_by`, in this order. */
export function rowStamps(r: RowStamps) {
  return {
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    deleted_at: iso(r.deletedAt),
    created_by: r.createdById,
    updated_by: r.updatedById,
  };
}
