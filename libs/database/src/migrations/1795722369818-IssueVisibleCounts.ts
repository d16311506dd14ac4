import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `project_issue_counters.visible_count`: how many of a project's work items a list shows (not
 * deleted, archived, a draft, or waiting in intake: `VISIBLE_ISSUE` in `issue.sql.ts`), the
 * unfiltered total of every list page, kept in the writing transaction (issue #22;
 * docs/decisions.md "The unfiltered total of a project's work items is a counter").
 *
 * Creates count themselves in their counter upsert (`SQL_NEXT_SEQUENCE(S)`: one update per batch);
 * every other change is counted here, by triggers:
 * - `issues`, after an UPDATE that changes `project_id`, `deleted_at`, `archived_at` or `is_draft`
 *   (the `WHEN` clause: other updates do not call the function), and before a DELETE (while its
 *   intake rows still exist; their cascade then finds no work item and counts nothing);
 * - `intake_issues`, after an INSERT, UPDATE or DELETE that puts a work item into triage (pending
 *   or snoozed) or takes it out.
 * A work item in triage is not visible, so archiving or deleting it counts nothing.
 *
 * The backfill counts what `SQL_VISIBLE_ISSUES_OF_PROJECT` counts but the project's liveness,
 * which the list reads beside the counter.
 */
export class IssueVisibleCounts1795722369818 implements MigrationInterface {
  name = 'IssueVisibleCounts1795722369818';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "project_issue_counters" ADD "visible_count" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_priority_live" ON "issues" ("project_id", "priority")
            WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_state_live_created" ON "issues" ("project_id", "state_id", "created_at", "id")
            WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_live_sort" ON "issues" ("project_id", "sort_order", "id")
            WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false
        `);
    // PRIORITY_RANK (issue-filters.ts), the key of order_by=priority
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_live_priority_rank" ON "issues" ("project_id",
                (CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END), "id")
            WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false
        `);
    // adds `delta` to the project's count; a project without a counter row gets one (a project
    // deleted in the same statement, as a cascade, is left alone)
    await queryRunner.query(`
            CREATE FUNCTION meridian_count_visible(p_project uuid, p_delta integer) RETURNS void
            LANGUAGE plpgsql AS $$
            BEGIN
                IF p_delta = 0 OR p_project IS NULL THEN
                    RETURN;
                END IF;
                UPDATE project_issue_counters SET visible_count = visible_count + p_delta WHERE project_id = p_project;
                IF NOT FOUND THEN
                    INSERT INTO project_issue_counters (project_id, last_sequence, visible_count)
                    SELECT p_project, COALESCE((SELECT MAX(sequence_id) FROM issues WHERE project_id = p_project), 0), p_delta
                    WHERE EXISTS (SELECT 1 FROM projects WHERE id = p_project)
                    ON CONFLICT (project_id) DO UPDATE SET visible_count = project_issue_counters.visible_count + p_delta;
                END IF;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_issues_visible_count() RETURNS trigger
            LANGUAGE plpgsql AS $$
            DECLARE
                was boolean := OLD.deleted_at IS NULL AND OLD.archived_at IS NULL AND OLD.is_draft = false;
                now_visible boolean := false;
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    now_visible := NEW.deleted_at IS NULL AND NEW.archived_at IS NULL AND NEW.is_draft = false;
                END IF;
                IF (was OR now_visible) AND EXISTS (
                    SELECT 1 FROM intake_issues ii WHERE ii.issue_id = OLD.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0)
                ) THEN
                    was := false;
                    now_visible := false;
                END IF;
                IF was THEN
                    PERFORM meridian_count_visible(OLD.project_id, -1);
                END IF;
                IF now_visible THEN
                    PERFORM meridian_count_visible(NEW.project_id, 1);
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_visible_count_update AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
                OR OLD.archived_at IS DISTINCT FROM NEW.archived_at OR OLD.is_draft IS DISTINCT FROM NEW.is_draft)
            EXECUTE FUNCTION meridian_issues_visible_count()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_visible_count_delete BEFORE DELETE ON issues FOR EACH ROW
            EXECUTE FUNCTION meridian_issues_visible_count()
        `);
    // a work item goes into triage (`entering`) or out of it: counted when it is open and no other
    // live intake row of it keeps it in triage
    await queryRunner.query(`
            CREATE FUNCTION meridian_intake_visible_effect(p_issue uuid, p_row uuid, p_entering boolean) RETURNS void
            LANGUAGE plpgsql AS $$
            DECLARE
                v_project uuid;
            BEGIN
                SELECT i.project_id INTO v_project FROM issues i
                WHERE i.id = p_issue AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = p_issue AND ii.id <> p_row
                    AND ii.deleted_at IS NULL AND ii.status IN (-2, 0)) THEN
                    RETURN;
                END IF;
                PERFORM meridian_count_visible(v_project, CASE WHEN p_entering THEN -1 ELSE 1 END);
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_intake_visible_count() RETURNS trigger
            LANGUAGE plpgsql AS $$
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
                        PERFORM meridian_intake_visible_effect(OLD.issue_id, OLD.id, false);
                    END IF;
                    IF new_triage THEN
                        PERFORM meridian_intake_visible_effect(NEW.issue_id, NEW.id, true);
                    END IF;
                ELSIF old_triage <> new_triage THEN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM meridian_intake_visible_effect(OLD.issue_id, OLD.id, false);
                    ELSE
                        PERFORM meridian_intake_visible_effect(NEW.issue_id, NEW.id, new_triage);
                    END IF;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER intake_issues_visible_count AFTER INSERT OR UPDATE OR DELETE ON intake_issues FOR EACH ROW
            EXECUTE FUNCTION meridian_intake_visible_count()
        `);
    // backfill: a counter row for every project with work items, then the counts
    await queryRunner.query(`
            INSERT INTO project_issue_counters (project_id, last_sequence)
            SELECT project_id, MAX(sequence_id) FROM issues GROUP BY project_id
            ON CONFLICT (project_id) DO NOTHING
        `);
    await queryRunner.query(`
            UPDATE project_issue_counters c SET visible_count = v.n
            FROM (
                SELECT i.project_id, COUNT(*)::int AS n FROM issues i
                WHERE i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
                AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
                GROUP BY i.project_id
            ) v
            WHERE v.project_id = c.project_id
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER intake_issues_visible_count ON intake_issues`);
    await queryRunner.query(`DROP FUNCTION meridian_intake_visible_count()`);
    await queryRunner.query(`DROP FUNCTION meridian_intake_visible_effect(uuid, uuid, boolean)`);
    await queryRunner.query(`DROP TRIGGER issues_visible_count_delete ON issues`);
    await queryRunner.query(`DROP TRIGGER issues_visible_count_update ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_issues_visible_count()`);
    await queryRunner.query(`DROP FUNCTION meridian_count_visible(uuid, integer)`);
    await queryRunner.query(`DROP INDEX "public"."ix_issues_project_live_priority_rank"`);
    await queryRunner.query(`DROP INDEX "public"."ix_issues_project_live_sort"`);
    await queryRunner.query(`DROP INDEX "public"."ix_issues_project_state_live_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_issues_project_priority_live"`);
    await queryRunner.query(`ALTER TABLE "project_issue_counters" DROP COLUMN "visible_count"`);
  }
}
