/** ISO 8601 UTC, or null. All times leave Meridian this way. */
export function iso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
