/**
 * The statistics PostgreSQL keeps of `issues.name` (`pg_stats`, as the planner reads them) and the
 * table's row count, read by `IssueRepository` at most every `NAME_STATS_TTL_MS` for the work item
 * search (`issueSearch`): `histogram` (the histogram's bounds, empty without one), `common` and
 * `commonFreqs` (the most common values and their shares), `nullFrac`, `rows` (`reltuples`, -1 for
 * a table never analysed).
 */
export interface NameStats {
  histogram: string[];
  common: string[];
  commonFreqs: number[];
  nullFrac: number;
  rows: number;
}

/** How long the statistics of the names are kept before they are read again: 10 minutes. */
export const NAME_STATS_TTL_MS = 10 * 60_000;

/**
 * The share of the names that contain `q` (in any case), estimated as the planner estimates
 * `name ILIKE '%q%'` (PostgreSQL's `patternsel`): the share of the histogram's inner bounds that
 * contain it, kept within 1 in 10,000 and 9,999 in 10,000, for the rows outside the most common
 * values, plus the shares of the common values that contain it. Undefined without a histogram of
 * at least 10 inner bounds (a table never analysed, or almost empty).
 */
export function nameShare(q: string, stats: NameStats): number | undefined {
  const inner = stats.histogram.slice(1, -1);
  if (inner.length < 10) return undefined;
  const text = q.toLowerCase();
  const has = (v: string) => v.toLowerCase().includes(text);
  const histogram = Math.min(Math.max(inner.filter(has).length / inner.length, 0.0001), 0.9999);
  const commonShare = stats.commonFreqs.reduce((s, f) => s + f, 0);
  const common = stats.common.reduce((s, v, i) => s + (has(v) ? (stats.commonFreqs[i] ?? 0) : 0), 0);
  return histogram * (1 - stats.nullFrac - commonShare) + common;
}

/** A text with three word characters in a row: the trigram index can look it up (`pg_trgm`). */
const TRIGRAMS = /[\p{L}\p{N}]{3}/u;

/**
 * Whether a work item search for `q` should walk the newest work items (testing each name until
 * `window` hits) rather than read every hit from the trigram index and sort them: with a share `s`
 * of the table's `n` rows holding the text, the walk tests about `window / s` rows and the index
 * returns about `s × n`, so the walk when `s² × n > window` (at a million rows, a text in more than
 * one name in 100). A text without three word characters in a row always walks: `pg_trgm` extracts
 * no trigram from it and the index would be read whole. Without statistics, the index. Only the
 * cost depends on this choice, never the hits.
 */
export function walksNewest(q: string, stats: NameStats | undefined, window: number): boolean {
  if (!TRIGRAMS.test(q)) return true;
  const share = stats ? nameShare(q, stats) : undefined;
  if (share === undefined || !(stats!.rows > 0)) return false;
  return share * share * stats!.rows > window;
}
