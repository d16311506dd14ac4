import { validationError } from '#common';
import { EntityManager, In } from 'typeorm';
import { Issue } from '../issue';
import { IssueCounts, ZERO_COUNTS } from './cycle.view';

/**
 * Counts of the live, non-archived, non-draft work items linked to each cycle or module, by state
 * group (as Plane's `plane/api/views/cycle.py`, `module.py` count them). A work item without a state
 * counts as backlog.
 */
export async function countIssues(
  em: EntityManager, table: 'cycle_issues' | 'module_issues', column: 'cycle_id' | 'module_id', ids: string[],
): Promise<Map<string, IssueCounts>> {
  const out = new Map<string, IssueCounts>(ids.map((id) => [id, { ...ZERO_COUNTS }]));
  if (!ids.length) return out;
  const params = ids.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT l.${column} AS id, s."group" AS grp, COUNT(DISTINCT i.id) AS n
       FROM ${table} l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
       LEFT JOIN states s ON s.id = i.state_id
      WHERE l.deleted_at IS NULL AND l.${column} IN (${params})
      GROUP BY l.${column}, s."group"`,
    ids,
  );
  for (const r of rows) {
    const c = out.get(r.id)!;
    const n = Number(r.n);
    c.total_issues += n;
    const key = `${r.grp ?? 'backlog'}_issues` as keyof IssueCounts;
    if (key in c && key !== 'total_issues') c[key] += n;
  }
  return out;
}

/** Number of live sub-items of each work item. */
export async function subIssueCounts(em: EntityManager, issueIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!issueIds.length) return out;
  const params = issueIds.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; n: number | string }> = await em.query(
    `SELECT parent_id AS id, COUNT(*) AS n FROM issues WHERE deleted_at IS NULL AND parent_id IN (${params}) GROUP BY parent_id`,
    issueIds,
  );
  for (const r of rows) out.set(r.id, Number(r.n));
  return out;
}

/**
 * The live work items of the project with these ids (duplicates folded). An empty list is 422
 * (Plane: 400 "Issues are required"); an id that is not a live work item of the project is 422
 * (Plane does not check; Meridian names the ids).
 */
export async function issuesOfProject(em: EntityManager, projectId: string, ids: string[]): Promise<Issue[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!wanted.length) throw validationError({ issues: ['Issues are required.'] });
  const found = await em.getRepository(Issue).find({ where: { id: In(wanted), projectId } });
  const missing = wanted.filter((id) => !found.some((i) => i.id === id));
  if (missing.length) throw validationError({ issues: [`Not work items of this project: ${missing.join(', ')}.`] });
  return wanted.map((id) => found.find((i) => i.id === id)!);
}

/** Estimate point sums of a cycle's work items, by state group (Plane's `*_estimate_points`). */
export interface EstimatePointSums {
  total_estimate_points: number;
  completed_estimate_points: number;
  cancelled_estimate_points: number;
  started_estimate_points: number;
  unstarted_estimate_points: number;
  backlog_estimate_points: number;
}

/**
 * Sums of the numeric estimate point values of the work items counted by `countIssues`, for each
 * cycle (points that are not numbers, as in a `categories` estimate, count 0).
 */
export async function sumEstimatePoints(em: EntityManager, cycleIds: string[]): Promise<Map<string, EstimatePointSums>> {
  const zero = (): EstimatePointSums => ({
    total_estimate_points: 0, completed_estimate_points: 0, cancelled_estimate_points: 0,
    started_estimate_points: 0, unstarted_estimate_points: 0, backlog_estimate_points: 0,
  });
  const out = new Map<string, EstimatePointSums>(cycleIds.map((id) => [id, zero()]));
  if (!cycleIds.length) return out;
  const params = cycleIds.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT l.cycle_id AS id, s."group" AS grp,
            SUM(CASE WHEN ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ep.value::numeric ELSE 0 END) AS n
       FROM cycle_issues l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
       JOIN estimate_points ep ON ep.id = i.estimate_point_id AND ep.deleted_at IS NULL
       LEFT JOIN states s ON s.id = i.state_id
      WHERE l.deleted_at IS NULL AND l.cycle_id IN (${params})
      GROUP BY l.cycle_id, s."group"`,
    cycleIds,
  );
  for (const r of rows) {
    const c = out.get(r.id)!;
    const n = Number(r.n);
    c.total_estimate_points += n;
    const key = `${r.grp ?? 'backlog'}_estimate_points` as keyof EstimatePointSums;
    if (key in c && key !== 'total_estimate_points') c[key] += n;
  }
  return out;
}
