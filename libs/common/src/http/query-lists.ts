import { MeridianError } from '../errors/meridian.error';
import { isUuid } from './uuid.pipe';

/**
 * The one reader of list filters in query strings, for the App API, the External API v1, the
 * public boards and a saved view's stored filters: Plane 0.25.3's `plane/utils/issue_filters.py`
 * (method GET) grammar, with Meridian's rule that a bad value is a 400, never ignored.
 *
 * - A list is comma-separated; each item is trimmed; empty items and `null` are dropped (Plane's
 *   `item != "null"`); a list left empty is no filter at all (`state=null` filters nothing).
 * - Ids are UUIDs in any case (Python's `uuid.UUID`), answered lower-cased.
 * - Other values (priorities, state groups, `after`/`before`, `None`) are compared as given:
 *   Plane's `priority__in=["HIGH"]` matches no work item, so Meridian answers 400 for it.
 * - `None` in `cycle=`/`module=` is "in no cycle/module" (`issue_cycle__cycle_id__isnull`).
 * - Dates: `YYYY-MM-DD;after` (≥), `YYYY-MM-DD;before` (≤), `YYYY-MM-DD` (that day, Meridian's), and
 *   Plane's relative `N_weeks|months;after|before;fromnow|ago` (a week 7 days, a month 30) on today's UTC
 *   date (Plane's `string_date_filter` counts `N_weeks;before` in days, a slip Meridian does not copy).
 *
 * Errors: 400 `INVALID_QUERY_PARAMETER`, "<name> was given more than once." or "<name> has a value
 * that is not valid.".
 */

/** One query parameter given at most once (undefined when absent); 400 `INVALID_QUERY_PARAMETER` otherwise. */
export function singleParam(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} was given more than once.`);
  return v;
}

/** The items of a comma-separated list: trimmed, without empty items and `null` (Plane's GET filters). */
export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '' && v !== 'null');
}

/**
 * A comma-separated list parameter (see the module's comment): undefined when absent or with no
 * item left, else its items (UUIDs lower-cased); 400 when an item fails `check`.
 */
export function listParam(
  query: Record<string, unknown>,
  name: string,
  check: (v: string) => boolean,
): string[] | undefined {
  const raw = singleParam(query, name);
  if (raw === undefined) return undefined;
  const items = splitList(raw);
  if (!items.length) return undefined;
  if (!items.every(check)) throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} has a value that is not valid.`);
  return items.map((v) => (isUuid(v) ? v.toLowerCase() : v));
}

/** A list of ids (`state=`, `labels=`, `project=` …), lower-cased. */
export function idListParam(query: Record<string, unknown>, name: string): string[] | undefined {
  return listParam(query, name, isUuid);
}

/** A list of known values (`priority=`, `state_group=`), compared as given (case-sensitive, as Plane's `__in`). */
export function oneOfListParam(
  query: Record<string, unknown>,
  name: string,
  known: readonly string[],
): string[] | undefined {
  return listParam(query, name, (v) => known.includes(v));
}

/** `cycle=` / `module=`: ids, or `None` (null: in none). */
export function idsOrNoneParam(query: Record<string, unknown>, name: string): Array<string | null> | undefined {
  return listParam(query, name, isIdOrNone)?.map((v) => (v === 'None' ? null : v));
}

/** An id, or Plane's `None` ("in no cycle/module"). */
export function isIdOrNone(v: string): boolean {
  return isUuid(v) || v === 'None';
}

/** One date condition: `after` ≥, `before` ≤, `on` = (a `YYYY-MM-DD` day). */
export interface DateCondition {
  date: string;
  op: 'after' | 'before' | 'on';
}

/** `2025-01-01`, `2025-01-01;after`, `2025-01-01;before`. */
const ABSOLUTE_DATE = /^(\d{4}-\d{2}-\d{2})(?:;(after|before))?$/;
/** Plane's relative dates: `2_weeks;after;fromnow`, `1_months;before;ago`. */
const RELATIVE_DATE = /^(\d{1,4})_(weeks|months);(after|before);(fromnow|ago)$/;

/** Whether `v` is one of the date values above (an absolute day must exist on the calendar). */
export function isDateValue(v: string): boolean {
  const abs = ABSOLUTE_DATE.exec(v);
  if (abs) return !Number.isNaN(Date.parse(abs[1]));
  return RELATIVE_DATE.test(v);
}

/** A date value (checked with `isDateValue`) as a condition, relative ones resolved on `today`'s UTC date. */
export function dateCondition(v: string, today: Date): DateCondition {
  const abs = ABSOLUTE_DATE.exec(v);
  if (abs) return { date: abs[1], op: (abs[2] as 'after' | 'before' | undefined) ?? 'on' };
  const rel = RELATIVE_DATE.exec(v);
  if (!rel) throw new MeridianError('INVALID_QUERY_PARAMETER', `"${v.slice(0, 64)}" is not a date filter.`);
  const [, n, unit, side, offset] = rel;
  const days = Number(n) * (unit === 'weeks' ? 7 : 30) * (offset === 'fromnow' ? 1 : -1);
  const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days));
  return { date: day.toISOString().slice(0, 10), op: side as 'after' | 'before' };
}

/** `start_date=`, `target_date=`, `created_at=` …: date values, comma-separated (all must hold). */
export function dateListParam(
  query: Record<string, unknown>,
  name: string,
  today = new Date(),
): DateCondition[] | undefined {
  return listParam(query, name, isDateValue)?.map((v) => dateCondition(v, today));
}
