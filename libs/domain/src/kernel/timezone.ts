const ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);

/** True for an IANA time zone name the runtime knows (Plane validates against pytz's list). */
export function isTimezone(value: string): boolean {
  return ZONES.has(value);
}
