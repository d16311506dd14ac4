import { MigrationInterface, QueryRunner } from 'typeorm';

/** The two sets of a work item the tallies follow (as migration `IssueSetTallies`). */
const SETS = [
  { table: 'issue_assignees', fn: 'meridian_tally_assignee_links', kind: 'a' },
  { table: 'issue_labels', fn: 'meridian_tally_label_links', kind: 'l' },
] as const;

/** A work item row `r` that a list may show but for intake triage (not deleted, archived or a draft). */
const OPEN = (r: string) => `${r}.deleted_at IS NULL AND ${r}.archived_at IS NULL AND ${r}.is_draft = false`;
/** Work item `id` waits in intake triage (a live pending or snoozed intake row). */
const IN_TRIAGE = (id: string) =>
  `EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = ${id} AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;
/** Locks the counter rows of the projects of a `SELECT` of project ids, in id order. */
const LOCK = (projects: string) =>
  `PERFORM 1 FROM project_issue_counters c WHERE c.project_id IN (${projects}) ORDER BY c.project_id FOR UPDATE`;

/**
 * `meridian_tally_{assignee,label}_links(issues, values, sign, none)` (migration `IssueSetTallies`),
 * `grouped` or as it was. It tells whether each work item's links of one statement are all it has
 * (it had none before, so it leaves the `NULL` row) by comparing its link count with how many of the
 * statement's rows are its. As it was, that count scanned all of the statement's rows once per
 * work item: quadratic in the statement's size (a 100,000-row insert of assignees ran for more than
 * 18 minutes). `grouped` counts them once, per work item, while it groups the rows (all rows of one
 * work item share its project, state and completion, so the group is the work item). The same rows
 * are added to the tallies either way.
 */
function linksFunction(s: (typeof SETS)[number], grouped: boolean): string {
  const ownRows = grouped ? 'w.k' : '(SELECT COUNT(*) FROM r WHERE r.issue_id = w.issue_id)';
  const w = grouped
    ? 'SELECT v.issue_id, v.project_id, v.state_id, v.done, COUNT(*) AS k FROM v GROUP BY 1, 2, 3, 4'
    : 'SELECT DISTINCT v.issue_id, v.project_id, v.state_id, v.done FROM v';
  return `
            CREATE OR REPLACE FUNCTION ${s.fn}(p_issues uuid[], p_values uuid[], p_sign integer, p_none boolean)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                ${LOCK(`SELECT i.project_id FROM issues i WHERE i.id = ANY(p_issues)`)};
                WITH r AS (SELECT * FROM unnest(p_issues, p_values) AS r(issue_id, value_id)),
                v AS (
                    SELECT r.issue_id, r.value_id, i.project_id, i.state_id, i.completed_at IS NOT NULL AS done
                    FROM r JOIN issues i ON i.id = r.issue_id
                    WHERE ${OPEN('i')} AND NOT ${IN_TRIAGE('i.id')}
                ),
                w AS (${w}),
                d AS (
                    SELECT v.value_id, v.project_id, v.state_id, v.done, p_sign AS n FROM v
                    UNION ALL
                    SELECT NULL, w.project_id, w.state_id, w.done, -p_sign FROM w
                    WHERE p_none AND (SELECT COUNT(*) FROM ${s.table} t WHERE t.issue_id = w.issue_id)
                        = CASE WHEN p_sign > 0 THEN ${ownRows} ELSE 0 END
                )
                INSERT INTO issue_set_tallies (kind, value_id, project_id, state_id, done, n)
                SELECT '${s.kind}', d.value_id, d.project_id, d.state_id, d.done, SUM(d.n)
                FROM d GROUP BY 2, 3, 4, 5 HAVING SUM(d.n) <> 0 ORDER BY 2, 3, 4, 5
                ON CONFLICT (kind, value_id, project_id, state_id, done) DO UPDATE SET n = issue_set_tallies.n + EXCLUDED.n;
            END
            $$
        `;
}

/**
 * The assignee and label link tallies' function counts a work item's rows of the statement once,
 * not once per work item (`linksFunction`): a bulk insert of links is linear again. `down` puts the
 * function back as migration `IssueSetTallies` made it.
 */
export class SetTallyLinkCounts1795983500000 implements MigrationInterface {
  name = 'SetTallyLinkCounts1795983500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const s of SETS) await queryRunner.query(linksFunction(s, true));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const s of SETS) await queryRunner.query(linksFunction(s, false));
  }
}
