/**
 * When a scheduled job runs, in UTC: every `every` minutes (aligned on the hour, as cron's `*∕5`;
 * `every` divides 1440), or once a day at `dailyAt` (`HH:MM`). Plane's celery beat schedule
 * (`plane/celery.py` at v0.25.3) is written in these two forms (docs/jobs.md).
 */
export type JobSchedule = { every: number } | { dailyAt: string };

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

function dailyOffset(at: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(at);
  if (!m) throw new Error(`dailyAt must be HH:MM (UTC), not "${at}"`);
  return (Number(m[1]) * 60 + Number(m[2])) * MINUTE;
}

/** Throws for a schedule the runner cannot keep (bad `dailyAt`, `every` not dividing a day). */
export function checkSchedule(s: JobSchedule): void {
  if ('every' in s) {
    if (!Number.isInteger(s.every) || s.every < 1 || DAY % (s.every * MINUTE) !== 0)
      throw new Error(`every must be a whole number of minutes dividing a day, not ${s.every}`);
  } else dailyOffset(s.dailyAt);
}

/** The start of the schedule's latest slot at or before `now`: the slot a run at `now` belongs to. */
export function currentSlot(s: JobSchedule, now: Date): Date {
  const t = now.getTime();
  if ('every' in s) return new Date(t - (t % (s.every * MINUTE)));
  const offset = dailyOffset(s.dailyAt);
  const today = t - (t % DAY) + offset;
  return new Date(today <= t ? today : today - DAY);
}

/** The start of the schedule's first slot after `now`. */
export function nextSlot(s: JobSchedule, now: Date): Date {
  const step = 'every' in s ? s.every * MINUTE : DAY;
  return new Date(currentSlot(s, now).getTime() + step);
}

/** `every 5 minutes`, `daily at 00:00 UTC`. */
export function describeSchedule(s: JobSchedule): string {
  if ('every' in s) return s.every === 1 ? 'every minute' : `every ${s.every} minutes`;
  return `daily at ${s.dailyAt} UTC`;
}
