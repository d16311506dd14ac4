import { MigrationInterface, QueryRunner } from 'typeorm';

/** A work item row `r` that a list may show but for intake triage (not deleted, archived or a draft). */
const OPEN = (r: string) => `${r}.deleted_at IS NULL AND ${r}.archived_at IS NULL AND ${r}.is_draft = false`;
/** Work item `id` waits in intake triage (a live pending or snoozed intake row). */
const IN_TRIAGE = (id: string) =>
  `EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = ${id} AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;
/** Locks the counter rows of the projects of a `SELECT` of project ids, in id order (see the class comment). */
const LOCK = (projects: string) =>
  `PERFORM 1 FROM project_issue_counters c WHERE c.project_id IN (${projects}) ORDER BY c.project_id FOR UPDATE`;
/** Adds the rows of a `SELECT project_id, axis, year, month, n` (one per key, in key order) to the tallies. */
const UPSERT = `INSERT INTO issue_date_tallies AS t (project_id, axis, year, month, n)`;
const ON_CONFLICT = `ON CONFLICT (project_id, axis, year, month) DO UPDATE SET n = t.n + EXCLUDED.n`;
/** The months of work item row `r`'s dates, as `meridian_issue_months` rows. */
const MONTHS = (r: string) =>
  `meridian_issue_months(${r}.created_at, ${r}.completed_at, ${r}.start_date, ${r}.target_date)`;

/**
 * `issue_date_tallies`: how many visible work items (the definition of `visible_count` and of the
 * other tallies: not deleted, archived, a draft or waiting in intake triage) each project has per
 * month of each date the analytics charts group by (issue #40; docs/decisions.md "Tallies of the
 * visible work items per month of their dates"): `axis` `c` `created_at`, `d` `completed_at`, `s`
 * `start_date`, `t` `target_date`; `year` and `month` as the chart's `month(...)` reads them (a
 * time in UTC); `n` work items. A work item without the date counts in no row of that axis, as the
 * chart leaves it out. The `analytics/` charts of those axes counted without a segment are a sum of
 * a few rows per project instead of a pass over every work item.
 *
 * Kept by the database, in the writing transaction, whatever wrote:
 * - `issues`, after each INSERT statement (its new rows as a transition table: one upsert per
 *   statement); after an UPDATE of a row that changes its project, one of the four dates or its
 *   visibility (`deleted_at`, `archived_at`, `is_draft`), the `WHEN` clause: the old row's months
 *   out, the new row's in, netted (a changed due date moves two rows); before a DELETE;
 * - `intake_issues`, after a change that puts a work item into triage or takes it out (the rule of
 *   `meridian_intake_visible_effect`: unless another live intake row keeps it there).
 * Each trigger first locks the counter rows (`project_issue_counters`) of the projects it changes,
 * in id order, as the other tallies' triggers do (migrations `IssueSetTallies`, `IssueTallyLocks`):
 * tally rows are only changed under their project's lock, which a create holds already. The
 * triggers on `issues` are named `issues_tally_dates_*`, after `issues_lock_projects` in the order
 * of one event's triggers. A row whose `n` falls to 0 stays (readers skip sums of 0). `down` drops
 * the triggers, functions and table.
 */
export class IssueDateTallies1795980000000 implements MigrationInterface {
  name = 'IssueDateTallies1795980000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_date_tallies" (
                "project_id" uuid NOT NULL,
                "axis" "char" NOT NULL,
                "year" integer NOT NULL,
                "month" integer NOT NULL,
                "n" integer NOT NULL,
                CONSTRAINT "pk_issue_date_tallies" PRIMARY KEY ("project_id", "axis", "year", "month")
            )
        `);
    // the (axis, year, month) of a work item's dates that are set; times in UTC, as the chart
    await queryRunner.query(`
            CREATE FUNCTION meridian_issue_months(p_created timestamptz, p_completed timestamptz, p_start date, p_target date)
            RETURNS TABLE (axis "char", year integer, month integer) LANGUAGE sql IMMUTABLE AS $$
                SELECT v.axis, EXTRACT(YEAR FROM v.d)::int, EXTRACT(MONTH FROM v.d)::int FROM (VALUES
                    ('c'::"char", p_created AT TIME ZONE 'UTC'), ('d'::"char", p_completed AT TIME ZONE 'UTC'),
                    ('s'::"char", p_start::timestamp), ('t'::"char", p_target::timestamp)) v(axis, d)
                WHERE v.d IS NOT NULL
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_dates_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                ${LOCK(`SELECT a.project_id FROM added a`)};
                ${UPSERT}
                SELECT a.project_id, m.axis, m.year, m.month, COUNT(*)::int
                FROM added a CROSS JOIN LATERAL ${MONTHS('a')} m
                WHERE ${OPEN('a')} AND a.project_id IS NOT NULL
                GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
                ${ON_CONFLICT};
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_dates_insert AFTER INSERT ON issues REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION meridian_tally_dates_added()
        `);
    // a work item's change of project, dates or visibility; its delete
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_dates_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                was boolean := ${OPEN('OLD')};
                now_visible boolean := false;
                nw issues%ROWTYPE;
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    nw := NEW;
                    now_visible := ${OPEN('NEW')};
                END IF;
                IF (was OR now_visible) AND ${IN_TRIAGE('OLD.id')} THEN
                    was := false;
                    now_visible := false;
                END IF;
                IF was OR now_visible THEN
                    ${LOCK(`SELECT OLD.project_id WHERE was UNION SELECT nw.project_id WHERE now_visible`)};
                    ${UPSERT}
                    SELECT d.project_id, d.axis, d.year, d.month, SUM(d.n)::int FROM (
                        SELECT OLD.project_id AS project_id, m.axis, m.year, m.month, -1 AS n FROM ${MONTHS('OLD')} m WHERE was
                        UNION ALL
                        SELECT nw.project_id, m.axis, m.year, m.month, 1 FROM ${MONTHS('nw')} m WHERE now_visible
                    ) d
                    WHERE d.project_id IS NOT NULL
                    GROUP BY 1, 2, 3, 4 HAVING SUM(d.n) <> 0 ORDER BY 1, 2, 3, 4
                    ${ON_CONFLICT};
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_dates_update AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id
                OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.completed_at IS DISTINCT FROM NEW.completed_at
                OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.target_date IS DISTINCT FROM NEW.target_date
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
                OR OLD.is_draft IS DISTINCT FROM NEW.is_draft)
            EXECUTE FUNCTION meridian_tally_dates_changed()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_dates_delete BEFORE DELETE ON issues FOR EACH ROW
            EXECUTE FUNCTION meridian_tally_dates_changed()
        `);
    // a work item into triage (`entering`) or out of it: counted when it is open and no other live
    // intake row keeps it in triage (as `meridian_intake_visible_effect`)
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_dates_intake_effect(p_issue uuid, p_row uuid, p_entering boolean)
            RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                v issues%ROWTYPE;
            BEGIN
                SELECT * INTO v FROM issues i WHERE i.id = p_issue AND ${OPEN('i')};
                IF NOT FOUND OR v.project_id IS NULL THEN
                    RETURN;
                END IF;
                IF EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = p_issue AND ii.id <> p_row
                    AND ii.deleted_at IS NULL AND ii.status IN (-2, 0)) THEN
                    RETURN;
                END IF;
                ${LOCK('SELECT v.project_id')};
                ${UPSERT}
                SELECT v.project_id, m.axis, m.year, m.month, CASE WHEN p_entering THEN -1 ELSE 1 END
                FROM ${MONTHS('v')} m ORDER BY 2, 3, 4
                ${ON_CONFLICT};
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_dates_intake_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
                        PERFORM meridian_tally_dates_intake_effect(OLD.issue_id, OLD.id, false);
                    END IF;
                    IF new_triage THEN
                        PERFORM meridian_tally_dates_intake_effect(NEW.issue_id, NEW.id, true);
                    END IF;
                ELSIF old_triage <> new_triage THEN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM meridian_tally_dates_intake_effect(OLD.issue_id, OLD.id, false);
                    ELSE
                        PERFORM meridian_tally_dates_intake_effect(NEW.issue_id, NEW.id, new_triage);
                    END IF;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER intake_issues_tally_dates AFTER INSERT OR UPDATE OR DELETE ON intake_issues FOR EACH ROW
            EXECUTE FUNCTION meridian_tally_dates_intake_changed()
        `);
    // backfill: every visible work item's months, as the triggers keep them (no work item is written)
    await queryRunner.query(`
            ${UPSERT}
            SELECT i.project_id, m.axis, m.year, m.month, COUNT(*)::int
            FROM issues i CROSS JOIN LATERAL ${MONTHS('i')} m
            WHERE ${OPEN('i')} AND i.project_id IS NOT NULL AND NOT ${IN_TRIAGE('i.id')}
            GROUP BY 1, 2, 3, 4
            ${ON_CONFLICT}
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER intake_issues_tally_dates ON intake_issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_dates_intake_changed()`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_dates_intake_effect(uuid, uuid, boolean)`);
    await queryRunner.query(`DROP TRIGGER issues_tally_dates_delete ON issues`);
    await queryRunner.query(`DROP TRIGGER issues_tally_dates_update ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_dates_changed()`);
    await queryRunner.query(`DROP TRIGGER issues_tally_dates_insert ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_tally_dates_added()`);
    await queryRunner.query(`DROP FUNCTION meridian_issue_months(timestamptz, timestamptz, date, date)`);
    await queryRunner.query(`DROP TABLE "issue_date_tallies"`);
  }
}
