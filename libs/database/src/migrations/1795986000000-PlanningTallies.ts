import { MigrationInterface, QueryRunner } from 'typeorm';

/** The two link tables the tallies follow: kind, table, owner column; only cycles keep assignees. */
const LINKS = [
  { kind: 'c', table: 'cycle_issues', column: 'cycle_id', fn: 'meridian_planning_tally_cycle_links' },
  { kind: 'm', table: 'module_issues', column: 'module_id', fn: 'meridian_planning_tally_module_links' },
] as const;

/** A work item row `r` that the progress counts and sums count (not deleted, archived or a draft). */
const COUNTED = (r: string) => `${r}.deleted_at IS NULL AND ${r}.archived_at IS NULL AND ${r}.is_draft = false`;
/** A work item row `r` whose assignees a cycle's `assignee_ids` holds (not deleted, not a draft: archived too). */
const ASSIGNED = (r: string) => `${r}.deleted_at IS NULL AND ${r}.is_draft = false`;
/** Locks the counter rows of the projects of a `SELECT` of project ids, in id order (migration `IssueSetTallies`). */
const LOCK = (projects: string) =>
  `PERFORM 1 FROM project_issue_counters c WHERE c.project_id IN (${projects}) ORDER BY c.project_id FOR UPDATE`;

const UPSERT_ISSUES = `INSERT INTO planning_issue_tallies AS t (owner_id, kind, state_id, estimate_point_id, n)`;
const ON_ISSUES = `ON CONFLICT (owner_id, kind, state_id, estimate_point_id) DO UPDATE SET n = t.n + EXCLUDED.n`;
const UPSERT_ASSIGNEES = `INSERT INTO cycle_assignee_tallies AS t (cycle_id, assignee_id, n)`;
const ON_ASSIGNEES = `ON CONFLICT (cycle_id, assignee_id) DO UPDATE SET n = t.n + EXCLUDED.n`;

/**
 * Tallies of the work items of each cycle and module (issue #40; docs/decisions.md "Tallies of the
 * work items of each cycle and module"):
 * - `planning_issue_tallies`: how many of the owner's work items (live links: `cycle_issues`,
 *   `module_issues` with `deleted_at` NULL; work items not deleted, archived or drafts, as
 *   `countIssues` and `sumEstimatePoints` count them) have each `state_id` and
 *   `estimate_point_id` (`kind` `c` cycle, `m` module, `owner_id` its id). The counts per state
 *   group and the estimate point sums of a page of cycles or modules are then a join of these few
 *   rows with `states` and `estimate_points` (read when asked: a state's group or a point's value
 *   may change without touching the tallies).
 * - `cycle_assignee_tallies`: per cycle and assignee, how many of the cycle's work items (not
 *   deleted, not drafts; archived ones too, as Plane's `assignee_ids`) have that assignee; the
 *   cycle's `assignee_ids` are those with `n` > 0.
 *
 * Kept by triggers in the writing transaction, whatever wrote:
 * - `cycle_issues`, `module_issues`: statement triggers with transition tables after INSERT,
 *   DELETE and UPDATE (a link's owner, work item or `deleted_at` changed: the old rows out, the
 *   new rows in, one upsert); a deleted cycle's or module's cascade too;
 * - `issues`: a row trigger after an UPDATE of `state_id`, `estimate_point_id`, `deleted_at`,
 *   `archived_at` or `is_draft` (its rows move from the old values to the new), and before a
 *   DELETE (while its links still exist: their cascade then finds no work item and counts
 *   nothing);
 * - `issue_assignees`: statement triggers after INSERT and DELETE, a row trigger after an UPDATE.
 * Every writer takes the tally rows in key order, `planning_issue_tallies` before
 * `cycle_assignee_tallies`. The triggers on `issues` and `issue_assignees` first lock the counter
 * rows (`project_issue_counters`) of their projects, in id order, as the other tallies' triggers
 * of those tables do. The link triggers do not: an add holds its cycle's or module's row lock, which
 * a create with a cycle takes after its project's counter row. A row whose `n` falls to 0 stays.
 * `down` drops the triggers, functions and tables.
 */
export class PlanningTallies1795986000000 implements MigrationInterface {
  name = 'PlanningTallies1795986000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "planning_issue_tallies" (
                "owner_id" uuid NOT NULL,
                "kind" "char" NOT NULL,
                "state_id" uuid,
                "estimate_point_id" uuid,
                "n" integer NOT NULL,
                CONSTRAINT "uq_planning_issue_tallies" UNIQUE NULLS NOT DISTINCT ("owner_id", "kind", "state_id", "estimate_point_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "cycle_assignee_tallies" (
                "cycle_id" uuid NOT NULL,
                "assignee_id" uuid NOT NULL,
                "n" integer NOT NULL,
                CONSTRAINT "uq_cycle_assignee_tallies" UNIQUE ("cycle_id", "assignee_id")
            )
        `);
    // links (owner, work item) added (sign 1) or removed (-1), of one kind: both tallies, in key order
    await queryRunner.query(`
            CREATE FUNCTION meridian_planning_tally(p_kind "char", p_owners uuid[], p_issues uuid[], p_signs integer[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                ${UPSERT_ISSUES}
                SELECT r.owner_id, p_kind, i.state_id, i.estimate_point_id, SUM(r.sign)::int
                FROM unnest(p_owners, p_issues, p_signs) AS r(owner_id, issue_id, sign)
                JOIN issues i ON i.id = r.issue_id
                WHERE ${COUNTED('i')}
                GROUP BY 1, 3, 4 HAVING SUM(r.sign) <> 0 ORDER BY 1, 3, 4
                ${ON_ISSUES};
                IF p_kind = 'c' THEN
                    ${UPSERT_ASSIGNEES}
                    SELECT r.owner_id, ia.assignee_id, SUM(r.sign)::int
                    FROM unnest(p_owners, p_issues, p_signs) AS r(owner_id, issue_id, sign)
                    JOIN issues i ON i.id = r.issue_id
                    JOIN issue_assignees ia ON ia.issue_id = i.id
                    WHERE ${ASSIGNED('i')}
                    GROUP BY 1, 2 HAVING SUM(r.sign) <> 0 ORDER BY 1, 2
                    ${ON_ASSIGNEES};
                END IF;
            END
            $$
        `);
    for (const s of LINKS) {
      await queryRunner.query(`
            CREATE FUNCTION ${s.fn}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    PERFORM meridian_planning_tally('${s.kind}', ARRAY(SELECT ${s.column} FROM added WHERE deleted_at IS NULL),
                        ARRAY(SELECT issue_id FROM added WHERE deleted_at IS NULL), ARRAY(SELECT 1 FROM added WHERE deleted_at IS NULL));
                ELSIF TG_OP = 'DELETE' THEN
                    PERFORM meridian_planning_tally('${s.kind}', ARRAY(SELECT ${s.column} FROM removed WHERE deleted_at IS NULL),
                        ARRAY(SELECT issue_id FROM removed WHERE deleted_at IS NULL), ARRAY(SELECT -1 FROM removed WHERE deleted_at IS NULL));
                ELSE
                    -- the old rows out, the new rows in, in one upsert (a move that changes nothing cancels out)
                    PERFORM meridian_planning_tally('${s.kind}',
                        ARRAY(SELECT ${s.column} FROM removed WHERE deleted_at IS NULL) || ARRAY(SELECT ${s.column} FROM added WHERE deleted_at IS NULL),
                        ARRAY(SELECT issue_id FROM removed WHERE deleted_at IS NULL) || ARRAY(SELECT issue_id FROM added WHERE deleted_at IS NULL),
                        ARRAY(SELECT -1 FROM removed WHERE deleted_at IS NULL) || ARRAY(SELECT 1 FROM added WHERE deleted_at IS NULL));
                END IF;
                RETURN NULL;
            END
            $$
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_planning_tally_insert AFTER INSERT ON ${s.table} REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION ${s.fn}()
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_planning_tally_delete AFTER DELETE ON ${s.table} REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION ${s.fn}()
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_planning_tally_update AFTER UPDATE ON ${s.table}
            REFERENCING OLD TABLE AS removed NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION ${s.fn}()
        `);
    }
    // a work item's change of state, estimate point or visibility; its delete
    await queryRunner.query(`
            CREATE FUNCTION meridian_planning_tally_issue() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                was boolean := ${COUNTED('OLD')};
                now_counted boolean := false;
                was_assigned boolean := ${ASSIGNED('OLD')};
                now_assigned boolean := false;
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    now_counted := ${COUNTED('NEW')};
                    now_assigned := ${ASSIGNED('NEW')};
                END IF;
                IF NOT (was OR now_counted OR was_assigned OR now_assigned) THEN
                    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM cycle_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL)
                    AND NOT EXISTS (SELECT 1 FROM module_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL) THEN
                    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
                END IF;
                IF TG_OP = 'UPDATE' THEN
                    ${LOCK('OLD.project_id, NEW.project_id')};
                ELSE
                    ${LOCK('OLD.project_id')};
                END IF;
                ${UPSERT_ISSUES}
                SELECT d.owner_id, d.kind, d.state_id, d.estimate_point_id, SUM(d.n)::int FROM (
                    SELECT o.owner_id, o.kind, OLD.state_id, OLD.estimate_point_id, -1 AS n FROM (
                        SELECT l.cycle_id AS owner_id, 'c'::"char" AS kind FROM cycle_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL
                        UNION ALL SELECT l.module_id, 'm'::"char" FROM module_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL
                    ) o WHERE was
                    UNION ALL
                    SELECT o.owner_id, o.kind, NEW.state_id, NEW.estimate_point_id, 1 FROM (
                        SELECT l.cycle_id AS owner_id, 'c'::"char" AS kind FROM cycle_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL
                        UNION ALL SELECT l.module_id, 'm'::"char" FROM module_issues l WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL
                    ) o WHERE now_counted
                ) d(owner_id, kind, state_id, estimate_point_id, n)
                GROUP BY 1, 2, 3, 4 HAVING SUM(d.n) <> 0 ORDER BY 1, 2, 3, 4
                ${ON_ISSUES};
                IF was_assigned <> now_assigned THEN
                    ${UPSERT_ASSIGNEES}
                    SELECT l.cycle_id, ia.assignee_id, CASE WHEN now_assigned THEN 1 ELSE -1 END
                    FROM cycle_issues l JOIN issue_assignees ia ON ia.issue_id = l.issue_id
                    WHERE l.issue_id = OLD.id AND l.deleted_at IS NULL
                    ORDER BY 1, 2
                    ${ON_ASSIGNEES};
                END IF;
                RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_planning_update AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.state_id IS DISTINCT FROM NEW.state_id OR OLD.estimate_point_id IS DISTINCT FROM NEW.estimate_point_id
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
                OR OLD.is_draft IS DISTINCT FROM NEW.is_draft)
            EXECUTE FUNCTION meridian_planning_tally_issue()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_planning_delete BEFORE DELETE ON issues FOR EACH ROW
            EXECUTE FUNCTION meridian_planning_tally_issue()
        `);
    // assignees added (1) or removed (-1) of work items in a cycle
    await queryRunner.query(`
            CREATE FUNCTION meridian_planning_tally_assignees(p_issues uuid[], p_assignees uuid[], p_signs integer[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM cycle_issues l WHERE l.issue_id = ANY(p_issues) AND l.deleted_at IS NULL) THEN
                    RETURN;
                END IF;
                ${LOCK(`SELECT i.project_id FROM issues i WHERE i.id = ANY(p_issues)`)};
                ${UPSERT_ASSIGNEES}
                SELECT l.cycle_id, r.assignee_id, SUM(r.sign)::int
                FROM unnest(p_issues, p_assignees, p_signs) AS r(issue_id, assignee_id, sign)
                JOIN issues i ON i.id = r.issue_id
                JOIN cycle_issues l ON l.issue_id = i.id AND l.deleted_at IS NULL
                WHERE ${ASSIGNED('i')}
                GROUP BY 1, 2 HAVING SUM(r.sign) <> 0 ORDER BY 1, 2
                ${ON_ASSIGNEES};
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_planning_tally_assignee_links() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    PERFORM meridian_planning_tally_assignees(ARRAY(SELECT issue_id FROM added), ARRAY(SELECT assignee_id FROM added),
                        ARRAY(SELECT 1 FROM added));
                ELSIF TG_OP = 'DELETE' THEN
                    PERFORM meridian_planning_tally_assignees(ARRAY(SELECT issue_id FROM removed), ARRAY(SELECT assignee_id FROM removed),
                        ARRAY(SELECT -1 FROM removed));
                ELSE
                    PERFORM meridian_planning_tally_assignees(ARRAY[OLD.issue_id, NEW.issue_id], ARRAY[OLD.assignee_id, NEW.assignee_id],
                        ARRAY[-1, 1]);
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_assignees_planning_tally_insert AFTER INSERT ON issue_assignees REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION meridian_planning_tally_assignee_links()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_assignees_planning_tally_delete AFTER DELETE ON issue_assignees REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION meridian_planning_tally_assignee_links()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_assignees_planning_tally_update AFTER UPDATE ON issue_assignees FOR EACH ROW
            WHEN (OLD.issue_id IS DISTINCT FROM NEW.issue_id OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id)
            EXECUTE FUNCTION meridian_planning_tally_assignee_links()
        `);
    // backfill: every live link's rows, as the triggers keep them
    for (const statement of backfill()) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER issue_assignees_planning_tally_update ON issue_assignees`);
    await queryRunner.query(`DROP TRIGGER issue_assignees_planning_tally_delete ON issue_assignees`);
    await queryRunner.query(`DROP TRIGGER issue_assignees_planning_tally_insert ON issue_assignees`);
    await queryRunner.query(`DROP FUNCTION meridian_planning_tally_assignee_links()`);
    await queryRunner.query(`DROP FUNCTION meridian_planning_tally_assignees(uuid[], uuid[], integer[])`);
    await queryRunner.query(`DROP TRIGGER issues_tally_planning_delete ON issues`);
    await queryRunner.query(`DROP TRIGGER issues_tally_planning_update ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_planning_tally_issue()`);
    for (const s of [...LINKS].reverse()) {
      await queryRunner.query(`DROP TRIGGER ${s.table}_planning_tally_update ON ${s.table}`);
      await queryRunner.query(`DROP TRIGGER ${s.table}_planning_tally_delete ON ${s.table}`);
      await queryRunner.query(`DROP TRIGGER ${s.table}_planning_tally_insert ON ${s.table}`);
      await queryRunner.query(`DROP FUNCTION ${s.fn}()`);
    }
    await queryRunner.query(`DROP FUNCTION meridian_planning_tally("char", uuid[], uuid[], integer[])`);
    await queryRunner.query(`DROP TABLE "cycle_assignee_tallies"`);
    await queryRunner.query(`DROP TABLE "planning_issue_tallies"`);
  }
}

/** The statements that count both tallies afresh from the live links (the backfill). */
function backfill(): string[] {
  return [
    ...LINKS.map(
      (s) => `${UPSERT_ISSUES}
            SELECT l.${s.column}, '${s.kind}', i.state_id, i.estimate_point_id, COUNT(*)::int
            FROM ${s.table} l JOIN issues i ON i.id = l.issue_id
            WHERE l.deleted_at IS NULL AND ${COUNTED('i')}
            GROUP BY 1, 3, 4
            ${ON_ISSUES}`,
    ),
    `${UPSERT_ASSIGNEES}
            SELECT l.cycle_id, ia.assignee_id, COUNT(*)::int
            FROM cycle_issues l JOIN issues i ON i.id = l.issue_id JOIN issue_assignees ia ON ia.issue_id = i.id
            WHERE l.deleted_at IS NULL AND ${ASSIGNED('i')}
            GROUP BY 1, 2
            ${ON_ASSIGNEES}`,
  ];
}
