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
