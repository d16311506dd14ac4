import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One lock order for every change of the work item tallies: the project's counter row
 * (`project_issue_counters`) first, then tally rows. A create takes its project's counter row for
 * its sequence number before it inserts; the set tallies' triggers (migration `IssueSetTallies`)
 * take it before their rows; but an update that changes only a work item's priority, creator or
 * workspace moved its `project_issue_tallies` rows (migration `IssueTallies`) without it. Two such
 * updates in one transaction (a bulk update of priorities) take tally rows in work item order, so
 * they could wait in a cycle with a batch of creates, which takes its rows in key order under the
 * counter row, and PostgreSQL would abort one of them (SQLSTATE 40P01).
 *
 * `issues_lock_projects` runs, after an update of a row that changes anything a tally counts by,
 * before every other trigger of that event (triggers of one event fire in name order:
 * `issues_lock_projects` < `issues_set_tally_*` < `issues_tally_*` < `issues_visible_count_*`): it
 * locks the counter rows of the row's old and new project, in id order. The triggers after it then
 * change tally rows only under their project's lock, whatever order they take them in. A delete
 * already takes it first (`issues_set_tally_delete`). `down` drops the trigger and its function.
 */
export class IssueTallyLocks1795975000000 implements MigrationInterface {
  name = 'IssueTallyLocks1795975000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE FUNCTION meridian_lock_issue_projects() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM 1 FROM project_issue_counters c WHERE c.project_id IN (OLD.project_id, NEW.project_id)
                ORDER BY c.project_id FOR UPDATE;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issues_lock_projects AFTER UPDATE ON issues FOR EACH ROW
            WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.state_id IS DISTINCT FROM NEW.state_id
                OR OLD.priority IS DISTINCT FROM NEW.priority OR OLD.created_by_id IS DISTINCT FROM NEW.created_by_id
                OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
                OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
                OR OLD.is_draft IS DISTINCT FROM NEW.is_draft OR OLD.completed_at IS DISTINCT FROM NEW.completed_at)
            EXECUTE FUNCTION meridian_lock_issue_projects()
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER issues_lock_projects ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_lock_issue_projects()`);
  }
}
