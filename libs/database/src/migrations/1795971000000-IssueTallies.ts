import { MigrationInterface, QueryRunner } from 'typeorm';

/** The key of a NULL `state_id` or `created_by_id` in the tallies' unique index (uuids are never all zero). */
const NONE = `'00000000-0000-0000-0000-000000000000'::uuid`;
/** The unique key of a tally row, as written in the index and in every `ON CONFLICT`. */
const KEY = `project_id, (COALESCE(state_id, ${NONE})), priority, (COALESCE(created_by_id, ${NONE}))`;

/**
 * `project_issue_tallies`: how many visible work items (the definition of `visible_count`,
 * migration `IssueVisibleCounts`: not deleted, archived, a draft or waiting in intake triage) each
 * project has per state, priority and creator (`n`), with the project's workspace (issue #40;
 * docs/decisions.md "Tallies of the visible work items per state, priority and creator"). The
 * filtered totals, group counts and charts whose conditions read only these keys are sums of a few
 * rows instead of a pass over every work item.
 *
 * Kept by the database, in the writing transaction, whatever wrote:
 * - `issues`, after each INSERT statement (statement-level, its new rows as a transition table:
 *   one upsert per statement, so a bulk insert adds its groups at once);
 * - `issues`, after an UPDATE of a row that changes a key (`project_id`, `state_id`, `priority`,
 *   `created_by_id`) or its visibility (`deleted_at`, `archived_at`, `is_draft`), the `WHEN`
 *   clause (other updates do not call the function); before a DELETE (while its intake rows
 *   still exist);
 * - `intake_issues`, through `meridian_intake_visible_effect` (migration `IssueVisibleCounts`),
 *   which this migration makes count the work item's tally beside `visible_count`.
 * A row whose `n` falls to 0 stays (readers skip groups that sum to 0). Every writer takes its
 * rows in key order (`project_id`, then the index's expressions): an insert statement's groups, a
 * change's old and new row, and a batch of creates with several keys, which locks its rows first
 * (`SQL_LOCK_TALLIES`); so two transactions never wait for each other's tally rows in a cycle.
 */
export class IssueTallies1795971000000 implements MigrationInterface {
  name = 'IssueTallies1795971000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "project_issue_tallies" (
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "state_id" uuid,
                "priority" character varying(30) NOT NULL,
                "created_by_id" uuid,
                "n" integer NOT NULL DEFAULT '0'
            )
        `);
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_project_issue_tallies_key" ON "project_issue_tallies" (${KEY})`);
    await queryRunner.query(
      `CREATE INDEX "ix_project_issue_tallies_workspace" ON "project_issue_tallies" ("workspace_id", "project_id")`,
    );
    // adds `p_delta` to one tally row (made when missing)
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally(p_ws uuid, p_project uuid, p_state uuid, p_priority varchar, p_creator uuid, p_delta integer)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                IF p_project IS NULL OR p_delta = 0 THEN
                    RETURN;
                END IF;
                INSERT INTO project_issue_tallies AS t (workspace_id, project_id, state_id, priority, created_by_id, n)
                VALUES (p_ws, p_project, p_state, p_priority, p_creator, p_delta)
                ON CONFLICT (${KEY}) DO UPDATE SET n = t.n + EXCLUDED.n;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_issues_tally_insert() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO project_issue_tallies AS t (workspace_id, project_id, state_id, priority, created_by_id, n)
                SELECT workspace_id, project_id, state_id, priority, created_by_id, COUNT(*)::int FROM meridian_new_issues
                WHERE deleted_at IS NULL AND archived_at IS NULL AND is_draft = false
                GROUP BY workspace_id, project_id, state_id, priority, created_by_id
                ORDER BY project_id, COALESCE(state_id, ${NONE}), priority, COALESCE(created_by_id, ${NONE})
                ON CONFLICT (${KEY}) DO UPDATE SET n = t.n + EXCLUDED.n;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_insert AFTER INSERT ON issues REFERENCING NEW TABLE AS meridian_new_issues
            FOR EACH STATEMENT EXECUTE FUNCTION meridian_issues_tally_insert()
        `);
    // an update or delete of one work item: out of its old tally, into its new one, in key order
    await queryRunner.query(`
            CREATE FUNCTION meridian_issues_tally_change() RETURNS trigger
            LANGUAGE plpgsql AS $$
            DECLARE
                was boolean := OLD.deleted_at IS NULL AND OLD.archived_at IS NULL AND OLD.is_draft = false;
                now_visible boolean := false;
                old_first boolean := true;
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
                IF was AND now_visible THEN
                    old_first := (OLD.project_id, COALESCE(OLD.state_id, ${NONE}), OLD.priority, COALESCE(OLD.created_by_id, ${NONE}))
                        <= (NEW.project_id, COALESCE(NEW.state_id, ${NONE}), NEW.priority, COALESCE(NEW.created_by_id, ${NONE}));
                END IF;
                IF was AND old_first THEN
                    PERFORM meridian_tally(OLD.workspace_id, OLD.project_id, OLD.state_id, OLD.priority, OLD.created_by_id, -1);
                END IF;
                IF now_visible THEN
                    PERFORM meridian_tally(NEW.workspace_id, NEW.project_id, NEW.state_id, NEW.priority, NEW.created_by_id, 1);
                END IF;
                IF was AND NOT old_first THEN
                    PERFORM meridian_tally(OLD.workspace_id, OLD.project_id, OLD.state_id, OLD.priority, OLD.created_by_id, -1);
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_update AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.state_id IS DISTINCT FROM NEW.state_id
                OR OLD.priority IS DISTINCT FROM NEW.priority OR OLD.created_by_id IS DISTINCT FROM NEW.created_by_id
                OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
                OR OLD.is_draft IS DISTINCT FROM NEW.is_draft)
            EXECUTE FUNCTION meridian_issues_tally_change()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_tally_delete BEFORE DELETE ON issues FOR EACH ROW
            EXECUTE FUNCTION meridian_issues_tally_change()
        `);
    // intake triage: the effect `visible_count` already computes, on the tally as well
    await queryRunner.query(intakeEffect(true));
    // backfill
    await queryRunner.query(`
            INSERT INTO project_issue_tallies (workspace_id, project_id, state_id, priority, created_by_id, n)
            SELECT i.workspace_id, i.project_id, i.state_id, i.priority, i.created_by_id, COUNT(*)::int FROM issues i
            WHERE i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
            AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
            GROUP BY 1, 2, 3, 4, 5
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(intakeEffect(false));
    await queryRunner.query(`DROP TRIGGER issues_tally_delete ON issues`);
    await queryRunner.query(`DROP TRIGGER issues_tally_update ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_issues_tally_change()`);
    await queryRunner.query(`DROP TRIGGER issues_tally_insert ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_issues_tally_insert()`);
    await queryRunner.query(`DROP FUNCTION meridian_tally(uuid, uuid, uuid, varchar, uuid, integer)`);
    await queryRunner.query(`DROP TABLE "project_issue_tallies"`);
  }
}

/**
 * `meridian_intake_visible_effect` (migration `IssueVisibleCounts`): a work item goes into triage
 * (`entering`) or out of it, counted when it is open and no other live intake row keeps it in
 * triage; with `tally`, on its tally as well as on `visible_count` (without: as that migration
 * wrote it).
 */
function intakeEffect(tally: boolean): string {
  return `
            CREATE OR REPLACE FUNCTION meridian_intake_visible_effect(p_issue uuid, p_row uuid, p_entering boolean) RETURNS void
            LANGUAGE plpgsql AS $$
            DECLARE
                v_project uuid;${tally ? '\n                v_issue record;' : ''}
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
                PERFORM meridian_count_visible(v_project, CASE WHEN p_entering THEN -1 ELSE 1 END);${
                  tally
                    ? `
                SELECT i.workspace_id, i.project_id, i.state_id, i.priority, i.created_by_id INTO v_issue FROM issues i WHERE i.id = p_issue;
                PERFORM meridian_tally(v_issue.workspace_id, v_issue.project_id, v_issue.state_id, v_issue.priority,
                    v_issue.created_by_id, CASE WHEN p_entering THEN -1 ELSE 1 END);`
                    : ''
                }
            END
            $$
        `;
}
