/** Milliseconds `tz` is ahead of UTC at the instant `at`. */
function offsetMs(at: Date, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of wall-clock `date` (YYYY-MM-DD) at h:m:s in time zone `tz`. */
export function zonedInstant(date: string, tz: string, h: number, m: number, s: number): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const naive = Date.UTC(y, mo - 1, d, h, m, s);
  let t = naive - offsetMs(new Date(naive), tz);
  t = naive - offsetMs(new Date(t), tz);
  return new Date(t);
}

/**
 * The instant `iso` (ISO 8601) written as wall-clock time in time zone `tz` with its offset, as
 * Django REST framework writes an aware datetime: `2024-01-01T00:00:00+05:30`, milliseconds only
 * when there are some, `Z` for UTC. Unchanged when `tz` is unknown to `Intl` or the text is not an instant.
 */
export function isoInZone(iso: string, tz: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  let offset: number;
  try {
    offset = offsetMs(at, tz);
  } catch {
    return iso;
  }
  const wall = new Date(at.getTime() + offset).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const ms = wall.slice(19, 23);
  const base = wall.slice(0, 19) + (ms === '.000' ? '' : ms);
  if (offset === 0) return `${base}Z`;
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${base}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}
