import type { DayAmount } from './distribution.repository';

/** The longest burndown drawn, in days (Plane draws any length). */
export const MAX_CHART_DAYS = 3660;

/**
 * Plane's burndown (`plane/utils/analytics_plot.py` burndown_plot): for each day from `first` to
 * `last` (`YYYY-MM-DD`, both included, at most `MAX_CHART_DAYS`), `total` less what was completed
 * up to the end of that day. Days after `today` hold today's amount (what is pending now), where
 * Plane writes null: its web app's burndown (`ProgressChart`) draws every point of the series in a
 * dashed layer through a linear scale that maps null to undefined, so each null became a `NaN` in
 * an SVG path and an error in the browser console (docs/decisions.md).
 */
export function burndown(
  first: string,
  last: string,
  total: number,
  completed: DayAmount[],
  today: string,
): Record<string, number> {
  const chart: Record<string, number> = {};
  const done = [...completed].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  let k = 0;
  let sum = 0;
  const start = Date.parse(`${first}T00:00:00Z`);
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let t = start, n = 0; t <= end && n < MAX_CHART_DAYS; t += 86_400_000, n++) {
    const day = new Date(t).toISOString().slice(0, 10);
    // nothing is completed after today: a later day keeps today's amount
    while (k < done.length && done[k].day <= day && done[k].day <= today) sum += done[k++].n;
    chart[day] = total - sum;
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
