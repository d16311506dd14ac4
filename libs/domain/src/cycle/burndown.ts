import type { DayAmount } from './distribution.repository';

/** The longest burndown drawn, in days (Plane draws any length). */
export const MAX_CHART_DAYS = 3660;

/**
 * Plane's burndown (`plane/utils/analytics_plot.py` burndown_plot): for each day from `first` to
 * `last` (`YYYY-MM-DD`, both included, at most `MAX_CHART_DAYS`), `total` less what was completed
 * up to the end of that day; null for days after `today`.
 */
export function burndown(
  first: string,
  last: string,
  total: number,
  completed: DayAmount[],
  today: string,
): Record<string, number | null> {
  const chart: Record<string, number | null> = {};
  const done = [...completed].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  let k = 0;
  let sum = 0;
  const start = Date.parse(`${first}T00:00:00Z`);
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let t = start, n = 0; t <= end && n < MAX_CHART_DAYS; t += 86_400_000, n++) {
    const day = new Date(t).toISOString().slice(0, 10);
    while (k < done.length && done[k].day <= day) sum += done[k++].n;
    chart[day] = day > today ? null : total - sum;
  }
  return chart;
}

/** The calendar day (`YYYY-MM-DD`) of the instant `at` in time zone `tz`. */
export function dayIn(at: Date, tz: string): string {
  // en-CA formats as YYYY-MM-DD
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
}
