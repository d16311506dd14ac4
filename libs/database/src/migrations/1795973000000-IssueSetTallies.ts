import { MigrationInterface, QueryRunner } from 'typeorm';

/** The two sets of a work item the tallies follow: kind, link table, value column. */
const SETS = [
  { kind: 'a', table: 'issue_assignees', column: 'assignee_id', fn: 'meridian_tally_assignee_links' },
  { kind: 'l', table: 'issue_labels', column: 'label_id', fn: 'meridian_tally_label_links' },
] as const;

/** A work item row `r` that a list may show but for intake triage (not deleted, archived or a draft). */
const OPEN = (r: string) => `${r}.deleted_at IS NULL AND ${r}.archived_at IS NULL AND ${r}.is_draft = false`;
/** Work item `id` waits in intake triage (a live pending or snoozed intake row). */
const IN_TRIAGE = (id: string) =>
  `EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = ${id} AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;
/** Adds the rows of a `SELECT kind, value_id, project_id, state_id, done, n` (one per key) to the tallies. */
const UPSERT = `INSERT INTO issue_set_tallies (kind, value_id, project_id, state_id, done, n)`;
const ON_CONFLICT = `ON CONFLICT (kind, value_id, project_id, state_id, done) DO UPDATE SET n = issue_set_tallies.n + EXCLUDED.n`;
/** Locks the counter rows of the projects of a `SELECT` of project ids, in id order (see the class comment). */
const LOCK = (projects: string) =>
  `PERFORM 1 FROM project_issue_counters c WHERE c.project_id IN (${projects}) ORDER BY c.project_id FOR UPDATE`;

/**
 * `issue_set_tallies`: how many VISIBLE work items (not deleted, archived, a draft or waiting in
 * intake triage: `VISIBLE_ISSUE`, as `project_issue_counters.visible_count`) each assignee and each
 * label has, per project, state and whether the work item is completed (`completed_at` set): `kind`
 * `a` (assignees, `value_id` the user) or `l` (labels, `value_id` the label), `value_id` NULL for
 * the work items with no assignee (no label). A work item with two assignees counts in both rows.
 * The unfiltered group counts of `group_by=assignees__id` / `labels__id`, the total of a list
 * filtered by one assignee or one label, the assignee and label charts of `analytics/` and the
 * assignee lists of `default-analytics/` are sums of these rows (issue #40; docs/decisions.md
 * "Tallies per assignee and per label").
 *
 * Kept exact in the writing transaction by triggers, whatever code path or SQL writes:
 * - `issue_assignees`, `issue_labels` (rows are hard-deleted): statement triggers with transition
 *   tables after INSERT and DELETE (one upsert per statement, however many rows: bulk inserts, a
 *   label's deletion), a row trigger after an UPDATE that changes the work item or the value. A link
 *   of a visible work item counts for its value; the work item's first link takes it out of the
 *   `NULL` row, its last link's removal puts it back;
 * - `issues`: a statement trigger after INSERT (a new work item that is not a draft counts in the
 *   `NULL` rows: its links, even those inserted by the same statement, move it from there, and a
 *   later intake row takes it out); a row trigger after an UPDATE of `project_id`, `state_id`,
 *   `deleted_at`, `archived_at`, `is_draft` or `completed_at` (moves its rows: subtracts what it
 *   counted under the old values, adds under the new); before a DELETE (while its links still
 *   exist: their cascade then finds no work item and counts nothing);
 * - `intake_issues`: after a change that puts a work item into triage or takes it out (as
 *   `IssueVisibleCounts`'s trigger).
 * Before changing tally rows, each trigger locks the counter rows (`project_issue_counters`) of
 * the projects concerned, in id order: a create holds its project's row already, so tally rows are
 * only ever locked under their project's lock and two transactions cannot deadlock on them. The
 * triggers on `issues` are named `issues_set_tally_*` so that, of the triggers of one event (fired
 * in name order), they run before `issues_tally_*` (migration `IssueTallies`): an update or delete
 * then takes its project's counter row before the tally rows of `project_issue_tallies`, the order
 * a create takes them in.
 * `down` drops the triggers, functions and table.
 */
export class IssueSetTallies1795973000000 implements MigrationInterface {
  name = 'IssueSetTallies1795973000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_set_tallies" (
                "kind" "char" NOT NULL,
                "value_id" uuid,
                "project_id" uuid NOT NULL,
                "state_id" uuid,
                "done" boolean NOT NULL,
                "n" integer NOT NULL,
                CONSTRAINT "uq_issue_set_tallies" UNIQUE NULLS NOT DISTINCT ("kind", "value_id", "project_id", "state_id", "done")
            )
        `);
    await queryRunner.query(
      `CREATE INDEX "ix_issue_set_tallies_project" ON "issue_set_tallies" ("project_id", "kind")`,
    );
    // one work item's rows (its current links, or the NULL row of a set it has none of) under the
    // keys given, `sign` times
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_issue(p_issue uuid, p_sign integer, p_project uuid, p_state uuid, p_done boolean)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                ${UPSERT}
                SELECT v.kind, v.value_id, p_project, p_state, p_done, p_sign FROM (
                    SELECT 'a'::"char" AS kind, ia.assignee_id AS value_id FROM issue_assignees ia WHERE ia.issue_id = p_issue
                    UNION ALL SELECT 'a'::"char", NULL WHERE NOT EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = p_issue)
                    UNION ALL SELECT 'l'::"char", il.label_id FROM issue_labels il WHERE il.issue_id = p_issue
                    UNION ALL SELECT 'l'::"char", NULL WHERE NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = p_issue)
                ) v ORDER BY 1, 2
                ${ON_CONFLICT};
            END
            $$
        `);
    // links added (sign 1) or removed (-1) of visible work items: each counts for its value; with
    // `p_none`, a work item whose links are all new had none before (out of the NULL row), one with
    // none left goes back
    for (const s of SETS) {
      await queryRunner.query(`
            CREATE FUNCTION ${s.fn}(p_issues uuid[], p_values uuid[], p_sign integer, p_none boolean)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                ${LOCK(`SELECT i.project_id FROM issues i WHERE i.id = ANY(p_issues)`)};
                WITH r AS (SELECT * FROM unnest(p_issues, p_values) AS r(issue_id, value_id)),
                v AS (
                    SELECT r.issue_id, r.value_id, i.project_id, i.state_id, i.completed_at IS NOT NULL AS done
                    FROM r JOIN issues i ON i.id = r.issue_id
                    WHERE ${OPEN('i')} AND NOT ${IN_TRIAGE('i.id')}
                ),
                w AS (SELECT DISTINCT v.issue_id, v.project_id, v.state_id, v.done FROM v),
                d AS (
                    SELECT v.value_id, v.project_id, v.state_id, v.done, p_sign AS n FROM v
                    UNION ALL
                    SELECT NULL, w.project_id, w.state_id, w.done, -p_sign FROM w
                    WHERE p_none AND (SELECT COUNT(*) FROM ${s.table} t WHERE t.issue_id = w.issue_id)
                        = CASE WHEN p_sign > 0 THEN (SELECT COUNT(*) FROM r WHERE r.issue_id = w.issue_id) ELSE 0 END
                )
                ${UPSERT}
                SELECT '${s.kind}', d.value_id, d.project_id, d.state_id, d.done, SUM(d.n)
                FROM d GROUP BY 2, 3, 4, 5 HAVING SUM(d.n) <> 0 ORDER BY 2, 3, 4, 5
                ${ON_CONFLICT};
            END
            $$
        `);
      await queryRunner.query(`
            CREATE FUNCTION ${s.fn}_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM added) THEN
                    PERFORM ${s.fn}(ARRAY(SELECT issue_id FROM added), ARRAY(SELECT ${s.column} FROM added), 1, true);
                END IF;
                RETURN NULL;
            END
            $$
        `);
      await queryRunner.query(`
            CREATE FUNCTION ${s.fn}_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM removed) THEN
                    PERFORM ${s.fn}(ARRAY(SELECT issue_id FROM removed), ARRAY(SELECT ${s.column} FROM removed), -1, true);
                END IF;
                RETURN NULL;
            END
            $$
        `);
      await queryRunner.query(`
            CREATE FUNCTION ${s.fn}_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                -- the same work item: one value for another, its NULL row unchanged
                PERFORM ${s.fn}(ARRAY[OLD.issue_id], ARRAY[OLD.${s.column}], -1, OLD.issue_id IS DISTINCT FROM NEW.issue_id);
                PERFORM ${s.fn}(ARRAY[NEW.issue_id], ARRAY[NEW.${s.column}], 1, OLD.issue_id IS DISTINCT FROM NEW.issue_id);
                RETURN NULL;
            END
            $$
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_tally_insert AFTER INSERT ON ${s.table} REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION ${s.fn}_added()
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_tally_delete AFTER DELETE ON ${s.table} REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION ${s.fn}_removed()
        `);
      await queryRunner.query(`
            CREATE TRIGGER ${s.table}_tally_update AFTER UPDATE ON ${s.table} FOR EACH ROW
            WHEN (OLD.issue_id IS DISTINCT FROM NEW.issue_id OR OLD.${s.column} IS DISTINCT FROM NEW.${s.column})
            EXECUTE FUNCTION ${s.fn}_changed()
        `);
    }
    // new work items that are not drafts: in the NULL rows of both sets (see the class comment)
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_issues_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                ${LOCK(`SELECT a.project_id FROM added a`)};
                ${UPSERT}
                SELECT k.kind, NULL, a.project_id, a.state_id, a.completed_at IS NOT NULL, COUNT(*)
                FROM added a CROSS JOIN (VALUES ('a'::"char"), ('l'::"char")) k(kind)
                WHERE ${OPEN('a')}
                GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
                ${ON_CONFLICT};
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_set_tally_insert AFTER INSERT ON issues REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION meridian_tally_issues_added()
        `);
    // a work item's change of project, state, completion or visibility; its delete
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_issue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                was boolean := ${OPEN('OLD')};
                now_visible boolean := false;
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    now_visible := ${OPEN('NEW')};
                    IF was AND now_visible AND OLD.project_id = NEW.project_id
                        AND OLD.state_id IS NOT DISTINCT FROM NEW.state_id
                        AND (OLD.completed_at IS NULL) = (NEW.completed_at IS NULL) THEN
                        RETURN NULL;
                    END IF;
                END IF;
                IF (was OR now_visible) AND ${IN_TRIAGE('OLD.id')} THEN
                    was := false;
                    now_visible := false;
                END IF;
                IF now_visible THEN
                    ${LOCK(`SELECT OLD.project_id WHERE was UNION SELECT NEW.project_id`)};
                ELSIF was THEN
                    ${LOCK(`SELECT OLD.project_id`)};
                END IF;
                IF was THEN
                    PERFORM meridian_tally_issue(OLD.id, -1, OLD.project_id, OLD.state_id, OLD.completed_at IS NOT NULL);
                END IF;
                IF now_visible THEN
                    PERFORM meridian_tally_issue(NEW.id, 1, NEW.project_id, NEW.state_id, NEW.completed_at IS NOT NULL);
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_set_tally_update AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.state_id IS DISTINCT FROM NEW.state_id
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
                OR OLD.is_draft IS DISTINCT FROM NEW.is_draft OR OLD.completed_at IS DISTINCT FROM NEW.completed_at)
            EXECUTE FUNCTION meridian_tally_issue_changed()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_set_tally_delete BEFORE DELETE ON issues FOR EACH ROW
            EXECUTE FUNCTION meridian_tally_issue_changed()
        `);
    // a work item into triage (`entering`) or out of it: counted when it is open and no other live
    // intake row keeps it in triage (as `meridian_intake_visible_effect`)
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_intake_effect(p_issue uuid, p_row uuid, p_entering boolean)
            RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                v issues%ROWTYPE;
            BEGIN
                SELECT * INTO v FROM issues i WHERE i.id = p_issue AND ${OPEN('i')};
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = p_issue AND ii.id <> p_row
                    AND ii.deleted_at IS NULL AND ii.status IN (-2, 0)) THEN
                    RETURN;
                END IF;
                ${LOCK('SELECT v.project_id')};
                PERFORM meridian_tally_issue(p_issue, CASE WHEN p_entering THEN -1 ELSE 1 END, v.project_id, v.state_id,
                    v.completed_at IS NOT NULL);
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_intake_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                old_triage boolean := false;
                new_triage boolean := false;
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    old_triage := OLD.deleted_at IS NULL AND OLD.status IN (-2, 0);
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    new_triage := NEW.deleted_at IS NULL AND NEW.status IN (-2, 0);
                END IF;
                IF TG_OP = 'UPDATE' AND OLD.issue_id IS DISTINCT FROM NEW.issue_id THEN
                    IF old_triage THEN
                        PERFORM meridian_tally_intake_effect(OLD.issue_id, OLD.id, false);
                    END IF;
                    IF new_triage THEN
                        PERFORM meridian_tally_intake_effect(NEW.issue_id, NEW.id, true);
                    END IF;
                ELSIF old_triage <> new_triage THEN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM meridian_tally_intake_effect(OLD.issue_id, OLD.id, false);
                    ELSE
                        PERFORM meridian_tally_intake_effect(NEW.issue_id, NEW.id, new_triage);
                    END IF;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER intake_issues_tally AFTER INSERT OR UPDATE OR DELETE ON intake_issues FOR EACH ROW
            EXECUTE FUNCTION meridian_tally_intake_changed()
        `);
    // backfill: every visible work item's rows, as the triggers keep them
    for (const s of SETS) {
      await queryRunner.query(`
            ${UPSERT}
            SELECT '${s.kind}', t.${s.column}, i.project_id, i.state_id, i.completed_at IS NOT NULL, COUNT(*)
            FROM issues i LEFT JOIN ${s.table} t ON t.issue_id = i.id
            WHERE ${OPEN('i')} AND NOT ${IN_TRIAGE('i.id')}
            GROUP BY 2, 3, 4, 5
        `);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER intake_issues_tally ON intake_issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_intake_changed()`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_intake_effect(uuid, uuid, boolean)`);
    await queryRunner.query(`DROP TRIGGER issues_set_tally_delete ON issues`);
    await queryRunner.query(`DROP TRIGGER issues_set_tally_update ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_issue_changed()`);
    await queryRunner.query(`DROP TRIGGER issues_set_tally_insert ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_issues_added()`);
    for (const s of [...SETS].reverse()) {
      await queryRunner.query(`DROP TRIGGER ${s.table}_tally_update ON ${s.table}`);
      await queryRunner.query(`DROP TRIGGER ${s.table}_tally_delete ON ${s.table}`);
      await queryRunner.query(`DROP TRIGGER ${s.table}_tally_insert ON ${s.table}`);
      await queryRunner.query(`DROP FUNCTION ${s.fn}_changed()`);
      await queryRunner.query(`DROP FUNCTION ${s.fn}_removed()`);
      await queryRunner.query(`DROP FUNCTION ${s.fn}_added()`);
      await queryRunner.query(`DROP FUNCTION ${s.fn}(uuid[], uuid[], integer, boolean)`);
    }
    await queryRunner.query(`DROP FUNCTION meridian_tally_issue(uuid, integer, uuid, uuid, boolean)`);
    await queryRunner.query(`DROP TABLE "issue_set_tallies"`);
  }
}
